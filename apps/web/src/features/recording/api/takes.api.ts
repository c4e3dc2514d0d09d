import { appConfig } from '../../../config/app-config';
import { api } from '../../../lib/api';
import { TakeOutbox, type PendingTake } from '../take-outbox';

/** The one outbox of this browser profile. */
export const takeOutbox = new TakeOutbox();

/**
 * POST app/casr/upload/training/{phrase}: multipart `info` JSON and the `audiofile` WAV.
 * Every try sends the take's own id as its upload key, so that a retry of an upload the
 * server kept (its answer lost) is not kept twice.
 */
export async function uploadTake(take: PendingTake) {
  const form = new FormData();
  form.append('info', JSON.stringify({ ...take.info, upload_key: take.id }));
  form.append('audiofile', new Blob([take.wav], { type: 'audio/wav' }), 'take.wav');
  // Offline is expected here: the take waits in the outbox, the page says so.
  await api.post(`/app/casr/upload/training/${encodeURIComponent(take.phraseId)}`, form, {
    quietNetworkErrors: true,
  });
}

/** The upload info of a take recorded now. */
export function takeInfo(seconds: number, scenarioId: string) {
  return {
    file_ext: 'wav',
    duration: Math.round(seconds * 100) / 100,
    app_build: appConfig.clientVersion,
    app_id: appConfig.appId,
    language: 'en-US',
    scenario_id: scenarioId,
    recording_date: new Date().toISOString(),
  };
}
