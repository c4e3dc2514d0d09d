import {
  answerMarks,
  type ConfirmRecognitionResponse,
  type MarkUnknownResponse,
  type ModelLinksResponseSchema,
  type Phrase,
  type PronunciationsResponseSchema,
  type RecognitionResult,
  type RecognitionUploadInfoSchema,
} from '@parla/contract';
import { knowsTheVoice, sealHolds } from '@parla/speech';
import type { z } from 'zod';
import { appConfig } from '../../../config/app-config';
import { api } from '../../../lib/api';
import { fetchModels } from '../../models/api/models.api';
import type { GenericSetup, ModelSource } from '../local-engine';
import { cachedModel, clearCachedModels } from '../../../lib/model-cache';
import { KeptRecordings } from '../kept-recordings';
import { ResultOutbox, type ResultAnswer, type ResultUpload } from '../result-outbox';
import { encodeWav } from '../wav';

type ModelLinks = z.infer<typeof ModelLinksResponseSchema>;
type Pronunciations = z.infer<typeof PronunciationsResponseSchema>;

/**
 * GET /app/end_user/model_links, then the profile file from the cache or the server. When the
 * server has no profile (every phrase was deleted), a kept one goes too: it was made from the
 * deleted takes.
 */
export const loadLocalModel: ModelSource = async () => {
  const links = await api.get<ModelLinks>('/app/end_user/model_links');
  if (links.version === null) {
    await clearCachedModels();
    return null;
  }
  const link = links.links.find((file) => file.name === 'profile');
  if (!link) return null;
  // A kept copy damaged since would be refused by the recogniser for as long as its version
  // lasts: one whose seal no longer holds is downloaded again.
  return { version: links.version, bytes: await cachedFile(link.url, sealHolds) };
};

/** A file of the current model version, from the cache or the server (its versioned address is its key). */
function cachedFile(url: string, intact?: (bytes: Uint8Array) => boolean) {
  return cachedModel(url, () => api.get<ArrayBuffer>(url, { responseType: 'arrayBuffer' }), intact);
}

/**
 * How the generic recogniser may hear the person in the browser (docs/decisions/0102, 0103,
 * 0128): their phrases, and the means adapted to their voice when it was judged to know them
 * with those; null when it was judged to know their voice well enough neither way, or nobody
 * has judged it yet.
 */
export async function loadGenericSetup(): Promise<GenericSetup | null> {
  const meta = (await fetchModels())[0]?.modelmeta;
  const ownMeansTrusted = knowsTheVoice(meta?.generic_knows);
  // Means that cannot be downloaded leave the model's own, if they may be trusted.
  const voice = knowsTheVoice(meta?.voice_knows) ? await adaptedVoice().catch(() => undefined) : undefined;
  if (voice === undefined && !ownMeansTrusted) return null;
  const [phrases, pronunciations] = await Promise.all([
    api.get<{ phrases: Phrase[] }>('/app/casr/phrases'),
    // Without them the engine reads its whole dictionary instead: slower, but it hears. Not
    // having them is no reason to tell the person the internet is gone.
    api.get<Pronunciations>('/app/casr/pronunciations', { quietNetworkErrors: true }).catch(() => undefined),
  ]);
  return {
    phrases: phrases.phrases.map((phrase) => phrase.text),
    ownMeansTrusted,
    ...(voice === undefined ? {} : { voice }),
    ...(pronunciations === undefined ? {} : { pronunciations: pronunciations.pronunciations }),
  };
}

/** The current version's means adapted to the voice, when it has some. */
async function adaptedVoice(): Promise<GenericSetup['voice']> {
  const links = await api.get<ModelLinks>('/app/end_user/model_links');
  const link = links.links.find((file) => file.name === 'voice');
  return link === undefined ? undefined : { key: link.url, means: await cachedFile(link.url) };
}

/**
 * The speech encoder's views of the current version's takes (docs/decisions/0147), with the
 * version they go with; null when training made none (fewer than six phrases).
 */
export async function loadEncoderViews(): Promise<{ version: number; views: Uint8Array } | null> {
  const links = await api.get<ModelLinks>('/app/end_user/model_links');
  const link = links.links.find((file) => file.name === 'views');
  if (links.version === null || link === undefined) return null;
  return { version: links.version, views: await cachedFile(link.url) };
}

/**
 * What POST /app/recording/recognition is sent of an utterance recognised in the browser
 * (spec section 3): its result and when it was said, made now, sent whenever the server can
 * be reached.
 */
export function localResultUpload(
  result: RecognitionResult,
  audio: Int16Array,
  context: { language: string; scenarioId?: string | undefined },
): ResultUpload {
  const info: z.input<typeof RecognitionUploadInfoSchema> = {
    file_ext: 'wav',
    result: {
      text: result.text,
      type: 'local',
      recording_date: new Date().toISOString(),
      duration: Math.min(60, result.duration),
      app_id: appConfig.appId,
      app_build: appConfig.clientVersion,
      language: context.language,
      acoustic_model_id: result.acoustic_model_id,
      recognition_mode: result.recognition_mode,
      confidence: result.confidence,
      ...answerMarks(result),
      ...(context.scenarioId ? { scenario_id: context.scenarioId } : {}),
    },
  };
  return { info, wav: encodeWav(audio).buffer };
}

/** POST /app/recording/recognition: the server keeps the utterance; null when it keeps nothing (an opt-out). */
async function uploadLocalResult(upload: ResultUpload, key: string): Promise<string | null> {
  const form = new FormData();
  form.append('info', JSON.stringify({ ...upload.info, upload_key: key }));
  form.append('audio', new Blob([upload.wav], { type: 'audio/wav' }), 'utterance.wav');
  // Offline is expected here: the utterance waits in the outbox.
  const kept = await api.post<{ id: string | null; stored: boolean }>('/app/recording/recognition', form, {
    quietNetworkErrors: true,
  });
  return kept.stored ? kept.id : null;
}

/**
 * What the person said of a kept utterance. POST /app/recording/recognition/{id}/confirm:
 * it was this phrase, and becomes a take of it, so the profile learns from daily use.
 * POST …/none_of_my_phrases: it got an answer but was none of their phrases, and the
 * profile learns to reject what sounds like it.
 */
function answerResult(recordingId: string, answer: ResultAnswer) {
  const recording = `/app/recording/recognition/${encodeURIComponent(recordingId)}`;
  return 'confirm' in answer
    ? api.post<ConfirmRecognitionResponse>(
        `${recording}/confirm`,
        { text: answer.confirm },
        { quietNetworkErrors: true },
      )
    : api.post<MarkUnknownResponse>(`${recording}/none_of_my_phrases`, {}, { quietNetworkErrors: true });
}

/** The one outbox of results and answers of this browser profile. */
export const keptRecordings = new KeptRecordings(
  new ResultOutbox({ upload: uploadLocalResult, answer: answerResult }),
);
