import { MAX_PHRASE_LENGTH } from '@parla/contract';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NetworkError, normalizeError } from '../../../lib/api-error';
import { useImportRecordings } from '../api/imports.api';
import {
  ACCEPTED_FILES,
  MAX_ARCHIVE_BYTES,
  MAX_AUDIO_FILES,
  formatSize,
  kindOf,
  memoTitle,
  parseTranscripts,
  transcriptFor,
  type ChosenKind,
  type ImportSource,
} from '../import-files';
import { FileDropZone } from './file-drop-zone';
import { ImportReportView } from './import-report-view';

interface Chosen {
  key: string;
  file: File;
  kind: ChosenKind;
  /** What is said in it (audio), as typed or read from a transcripts file. */
  transcript: string;
  /** The transcripts file the words came from, until they are edited. */
  fromFile?: string;
  /** For a transcripts file: what it says each file holds. */
  transcripts?: ReadonlyMap<string, string>;
}

const keyOf = (file: File) => `${file.name}:${file.size}`;
/** Audio and unknown files are sent as recordings; the server says why one is not audio. */
const isRecording = (item: Chosen) => item.kind === 'audio' || item.kind === 'other';

/** Fills the words of recordings that have none yet from the transcripts files chosen, the newest first. */
function withSheetWords(items: Chosen[]): Chosen[] {
  const sheets = items.filter((item) => item.transcripts).reverse();
  return items.map((item) => {
    if (!isRecording(item) || item.transcript) return item;
    for (const sheet of sheets) {
      const words = transcriptFor(sheet.transcripts ?? new Map<string, string>(), item.file.name);
      if (words) return { ...item, transcript: words.slice(0, MAX_PHRASE_LENGTH), fromFile: sheet.file.name };
    }
    return item;
  });
}

/**
 * The `transcripts` of the import: every line of the transcripts files chosen (they may
 * name files inside a zip), then the words of each recording as shown, which win.
 */
function transcriptsOf(items: readonly Chosen[]): Record<string, string> {
  const transcripts: Record<string, string> = {};
  for (const item of items)
    for (const [file, words] of item.transcripts ?? [])
      if (file.length <= 255 && words.length <= MAX_PHRASE_LENGTH) transcripts[file] = words;
  for (const item of items)
    if (isRecording(item) && item.transcript.trim()) transcripts[item.file.name] = item.transcript.trim();
  return transcripts;
}

/**
 * Choose recordings (files, a zip, a transcripts file), say what each one says, import
 * them, and see what was imported and what was refused with why. `resultActions` are shown
 * under a result (e.g. the way to the phrases).
 */
export function ImportForm({ source, resultActions }: { source: ImportSource; resultActions?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [missing, setMissing] = useState<ReadonlySet<string>>(new Set());
  const importing = useImportRecordings();
  const fields = useRef(new Map<string, HTMLInputElement>());
  const heading = useRef<HTMLHeadingElement>(null);
  // After "Import more files" the focus goes back to the top of the form, not to the page.
  const focusForm = useRef(false);
  useEffect(() => {
    if (!focusForm.current || importing.isSuccess) return;
    focusForm.current = false;
    heading.current?.focus();
  });
  // Titles name what a Voice Memo says; every other source needs its words.
  const wordsRequired = source !== 'apple';

  const recordings = chosen.filter(isRecording);
  const archives = chosen.filter((item) => item.kind === 'archive');

  const handleFiles = async (files: File[]) => {
    setProblem(null);
    importing.reset();
    const added = await Promise.all(
      files.map(async (file): Promise<Chosen> => {
        const kind = kindOf(file.name);
        const item: Chosen = { key: keyOf(file), file, kind, transcript: '' };
        return kind === 'transcripts' ? { ...item, transcripts: parseTranscripts(await file.text()) } : item;
      }),
    );
    const keys = new Set(added.map((item) => item.key));
    setChosen((current) => withSheetWords([...current.filter((item) => !keys.has(item.key)), ...added]));
  };

  const handleRemove = (key: string) => {
    setChosen((current) => current.filter((item) => item.key !== key));
    setProblem(null);
  };

  const handleTranscript = (key: string, transcript: string) => {
    setChosen((current) =>
      current.map((item) => (item.key === key ? { ...item, transcript, fromFile: undefined } : item)),
    );
    if (transcript.trim() && missing.has(key)) {
      const still = new Set([...missing].filter((other) => other !== key));
      setMissing(still);
      // Every recording has its words now: the summary of what was missing goes too.
      if (still.size === 0) setProblem(null);
    }
  };

  const handleSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problemOf = (): string | null => {
      if (recordings.length === 0 && archives.length === 0) return t('imports.submit.empty');
      if (archives.length > 1) return t('imports.submit.oneArchive');
      if ((archives[0]?.file.size ?? 0) > MAX_ARCHIVE_BYTES) return t('imports.submit.tooLarge');
      if (recordings.length > MAX_AUDIO_FILES) return t('imports.submit.tooMany', { max: MAX_AUDIO_FILES });
      return null;
    };
    const found = problemOf();
    // Without an archive (whose own transcripts file may name them), every recording needs its words.
    const wordless =
      wordsRequired && archives.length === 0 ? recordings.filter((item) => !item.transcript.trim()) : [];
    setMissing(new Set(wordless.map((item) => item.key)));
    if (found || wordless.length > 0) {
      setProblem(found ?? t('imports.submit.missingWords', { count: wordless.length }));
      const first = wordless[0];
      if (first) fields.current.get(first.key)?.focus();
      return;
    }
    setProblem(null);
    importing.mutate(
      {
        source,
        audioFiles: recordings.map((item) => item.file),
        ...(archives[0] ? { archive: archives[0].file } : {}),
        transcripts: transcriptsOf(chosen),
      },
      { onSuccess: () => setChosen([]) },
    );
  };

  if (importing.isSuccess) {
    return (
      <ImportReportView
        report={importing.data}
        actions={
          <>
            {importing.data.imported.length > 0 && resultActions}
            <Button
              variant="outlined"
              size="large"
              onClick={() => {
                focusForm.current = true;
                importing.reset();
              }}
            >
              {t('imports.result.importMore')}
            </Button>
          </>
        }
      />
    );
  }

  const failure = importing.isError ? importing.error : null;
  const fileCount = recordings.length + archives.length;

  return (
    <Box component="form" onSubmit={handleSubmit} noValidate aria-labelledby="import-files-heading">
      <Typography id="import-files-heading" ref={heading} tabIndex={-1} variant="h2" sx={{ mb: 2 }}>
        {t('imports.picker.heading')}
      </Typography>
      <FileDropZone
        accept={ACCEPTED_FILES}
        hasFiles={chosen.length > 0}
        disabled={importing.isPending}
        onFiles={(files) => void handleFiles(files)}
      />

      {chosen.length === 0 ? (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          {t('imports.picker.none')}
        </Typography>
      ) : (
        <Stack
          component="ul"
          spacing={1.5}
          aria-label={t('imports.picker.chosen')}
          sx={{ listStyle: 'none', p: 0, mt: 2, mb: 0 }}
        >
          {chosen.map((item) => (
            <Paper component="li" key={item.key} variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
              <Stack
                direction="row"
                spacing={1}
                sx={{
                  alignItems: 'flex-start',
                  justifyContent: 'space-between',
                  mb: isRecording(item) ? 1.5 : 0,
                }}
              >
                <Box sx={{ minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{item.file.name}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {formatSize(item.file.size, i18n.language)}
                    {' · '}
                    {describe(item)}
                  </Typography>
                </Box>
                <Button
                  onClick={() => handleRemove(item.key)}
                  disabled={importing.isPending}
                  aria-label={t('imports.picker.removeOne', { file: item.file.name })}
                  sx={{ flexShrink: 0 }}
                >
                  {t('imports.picker.remove')}
                </Button>
              </Stack>
              {isRecording(item) && (
                <TextField
                  fullWidth
                  label={t('imports.picker.words')}
                  value={item.transcript}
                  onChange={(event) => handleTranscript(item.key, event.target.value)}
                  disabled={importing.isPending}
                  required={wordsRequired && archives.length === 0}
                  error={missing.has(item.key)}
                  helperText={helpFor(item)}
                  inputRef={(element: HTMLInputElement | null) => {
                    if (element) fields.current.set(item.key, element);
                    else fields.current.delete(item.key);
                  }}
                  slotProps={{
                    htmlInput: {
                      maxLength: MAX_PHRASE_LENGTH,
                      'aria-label': t('imports.picker.wordsIn', { file: item.file.name }),
                    },
                  }}
                />
              )}
            </Paper>
          ))}
        </Stack>
      )}

      {problem && (
        <Alert severity="error" sx={{ mt: 2 }} role="alert">
          {problem}
        </Alert>
      )}
      {failure && (
        <Alert severity="error" sx={{ mt: 2 }} role="alert">
          <AlertTitle>{t('imports.error.title')}</AlertTitle>
          {failure instanceof NetworkError ? t('imports.error.offline') : normalizeError(failure).message}
        </Alert>
      )}
      {importing.isPending && (
        <Box role="status" sx={{ mt: 2 }}>
          <LinearProgress
            aria-label={t('imports.submit.progress')}
            sx={{ height: 8, borderRadius: 4, mb: 1 }}
          />
          <Typography>{t('imports.submit.busy')}</Typography>
        </Box>
      )}
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={importing.isPending}
        sx={{ mt: 3, minWidth: { xs: '100%', sm: 260 } }}
      >
        {importing.isPending
          ? t('imports.submit.importing')
          : fileCount > 0
            ? t('imports.submit.importCount', { count: fileCount })
            : t('imports.submit.import')}
      </Button>
    </Box>
  );

  function describe(item: Chosen): string {
    switch (item.kind) {
      case 'audio':
        return t('imports.picker.kind.audio');
      case 'archive':
        return t('imports.picker.kind.archive');
      case 'transcripts':
        return t('imports.picker.kind.transcripts', { count: item.transcripts?.size ?? 0 });
      case 'other':
        return t('imports.picker.kind.other');
    }
  }

  function helpFor(item: Chosen): string {
    if (missing.has(item.key)) return t('imports.picker.wordsMissing');
    if (item.fromFile) return t('imports.picker.wordsFromFile', { file: item.fromFile });
    if (source === 'apple') {
      const title = memoTitle(item.file.name);
      return title ? t('imports.picker.wordsTitle', { title }) : t('imports.picker.wordsUntitled');
    }
    if (archives.length > 0) return t('imports.picker.wordsOrArchive');
    return t('imports.picker.wordsHelp');
  }
}
