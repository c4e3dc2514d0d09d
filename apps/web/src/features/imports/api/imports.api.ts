import type { ImportReport } from '@parla/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { modelsQueryKey } from '../../models/api/models.api';
import { phrasesRootKey } from '../../phrases/api/phrases.api';
import type { ImportSource } from '../import-files';

export type { ImportReport };

export interface ImportRequest {
  source: ImportSource;
  /** Loose audio files, each sent as an `audiofile` part. */
  audioFiles: readonly File[];
  /** One zip of audio files and a transcripts file. */
  archive?: File;
  /** What is said in each audio file, by file name. */
  transcripts: Record<string, string>;
}

/**
 * POST app/casr/import/training (multipart: `info` JSON, `audiofile` parts, one `archive`):
 * answers which files became takes and which were refused, and why.
 */
export function importRecordings(request: ImportRequest): Promise<ImportReport> {
  const form = new FormData();
  const transcripts = Object.keys(request.transcripts).length > 0 ? request.transcripts : undefined;
  form.append('info', JSON.stringify({ source: request.source, ...(transcripts ? { transcripts } : {}) }));
  for (const file of request.audioFiles) form.append('audiofile', file, file.name);
  if (request.archive) form.append('archive', request.archive, request.archive.name);
  // A lost connection is shown on the import screen with the files still chosen, not by leaving it.
  return api.post<ImportReport>('/app/casr/import/training', form, { quietNetworkErrors: true });
}

/** The import as a mutation; when something was imported, the phrases and recording state are refreshed. */
export function useImportRecordings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importRecordings,
    onSuccess: async (report) => {
      if (report.imported.length === 0) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: phrasesRootKey }),
        queryClient.invalidateQueries({ queryKey: modelsQueryKey }),
      ]);
    },
  });
}
