import type { ListVoicesResponse, Voice } from '@parla/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export type { Voice };

/** GET /api/v1/list_voices. */
export const voicesQueryOptions = () =>
  queryOptions({
    queryKey: ['tts', 'voices'] as const,
    queryFn: async () => (await api.get<ListVoicesResponse>('/api/v1/list_voices')).voices,
    staleTime: Infinity,
  });

/** POST /api/v1/synthesize: the text spoken by the voice, as MP3. */
export function synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<Blob> {
  return api.post<Blob>(
    '/api/v1/synthesize',
    { text, voice_id: voiceId, media_type: 'mp3' },
    { responseType: 'blob', ...(signal ? { signal } : {}) },
  );
}
