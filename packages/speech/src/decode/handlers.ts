import type { SoundSwallowerModule } from 'soundswallower';
import { SpeechError } from '../errors.js';
import { AnsweredStream } from '../generic/answered-stream.js';
import { SecondOpinion } from '../generic/second-opinion.js';
import { recordedPhrases } from '../model/profile.js';
import { deserializeProfile } from '../model/serialize.js';
import { Matcher } from './matcher.js';
import { ListeningRoom } from '../vad/room-noise.js';
import { RecognitionStream, type StreamEvent, type StreamOptions } from './streaming.js';

/** Requests a recogniser host (a browser Web Worker in local mode) answers, with their replies. */
export interface SpeechHandlers {
  /** Load a model file downloaded from the server; replaces any loaded profile. */
  'load-profile': (args: { model: Uint8Array }) => { phrases: string[]; trainedAt: string };
  /**
   * Hear finals again with the generic path, for the person's phrases not yet recorded
   * (docs/decisions/0102), to second the profile's guesses (0103) and to doubt its answers
   * (0104), its engine loaded once (from `modelBase`, where its acoustic model is served):
   * `phrases` are all of the person's phrases, those of the loaded profile the recorded ones.
   * Answers how many unrecorded phrases it can say; when it can say none of the phrases it
   * stays off.
   */
  'use-generic': (args: { modelBase: string; phrases: string[] }) => Promise<{ unrecorded: number }>;
  /** Open a stream; several may be open at once. */
  'open-stream': (args: { streamId: string; options?: Omit<StreamOptions, 'room'> }) => null;
  /** Feed 16 kHz mono samples to a stream. */
  'push-audio': (args: { streamId: string; samples: Float32Array }) => StreamEvent[];
  /** Close a stream, finishing any open utterance. */
  'close-stream': (args: { streamId: string }) => StreamEvent[];
}

/** A request as it travels to the host. */
export type SpeechRequest = {
  [K in keyof SpeechHandlers]: { id: number; name: K; args: Parameters<SpeechHandlers[K]>[0] };
}[keyof SpeechHandlers];

/** A reply as it travels back: the handler's result, or an error a UI can show. */
export type SpeechReply =
  | { id: number; ok: true; result: Awaited<ReturnType<SpeechHandlers[keyof SpeechHandlers]>> }
  | { id: number; ok: false; error: { code: string; message: string } };

export interface SpeechHandlerOptions {
  /** Loads SoundSwallower with its model at `modelBase`; without it there is no generic path. */
  loadGeneric?: (modelBase: string) => Promise<SoundSwallowerModule>;
}

/** Build the handlers over one host's state. Pure: no worker or DOM APIs, so it is testable anywhere. */
export function createSpeechHandlers(options: SpeechHandlerOptions = {}): SpeechHandlers {
  let matcher: Matcher | undefined;
  const streams = new Map<string, AnsweredStream>();
  // The room as this host's streams have heard it, from one press to talk to the next.
  const room = new ListeningRoom();
  let engine: Promise<SecondOpinion> | undefined;
  /** The generic path's engine once loaded, the person's phrases, and the engine while it
   * can say any of them. */
  let loaded: SecondOpinion | undefined;
  let phrases: string[] | undefined;
  let generic: SecondOpinion | undefined;
  const hearPhrases = () => {
    const recorded = matcher === undefined ? [] : recordedPhrases(matcher.profile);
    generic =
      loaded !== undefined && phrases !== undefined && loaded.use(phrases, recorded) ? loaded : undefined;
  };
  const open = (id: string) => {
    const s = streams.get(id);
    if (s === undefined) throw new SpeechError('bad_request', `No open stream "${id}".`);
    return s;
  };
  return {
    'load-profile': ({ model }) => {
      const profile = deserializeProfile(model);
      matcher = new Matcher(profile);
      streams.clear();
      // Phrases recorded since are the new profile's to answer.
      hearPhrases();
      return { phrases: profile.phrases, trainedAt: profile.trainedAt };
    },
    'use-generic': async ({ modelBase, phrases: all }) => {
      const load = options.loadGeneric;
      if (load === undefined) throw new SpeechError('bad_request', 'This host has no generic recogniser.');
      engine ??= load(modelBase).then((module) => SecondOpinion.load(module));
      phrases = all;
      try {
        loaded = await engine;
      } catch (error) {
        // A failed load (the model could not be fetched) may be tried again.
        engine = undefined;
        throw error;
      }
      hearPhrases();
      return { unrecorded: generic?.phrases.length ?? 0 };
    },
    'open-stream': ({ streamId, options: streamOptions }) => {
      if (matcher === undefined) throw new SpeechError('bad_model', 'No voice profile is loaded yet.');
      // Finals the profile rejected or accepted in doubt are heard again by the generic path,
      // which follows each stream's utterances as they are spoken.
      const stream = new RecognitionStream(matcher, { ...streamOptions, room });
      streams.set(streamId, new AnsweredStream(stream, () => generic));
      return null;
    },
    'push-audio': ({ streamId, samples }) => {
      return open(streamId).push(samples).answered;
    },
    'close-stream': ({ streamId }) => {
      const opened = open(streamId);
      streams.delete(streamId);
      return opened.end().answered;
    },
  };
}

/** Dispatch one request to the handlers and wrap the outcome as a reply. */
export async function handleSpeechRequest(
  handlers: SpeechHandlers,
  request: SpeechRequest,
): Promise<SpeechReply> {
  try {
    const handler = handlers[request.name] as (
      args: unknown,
    ) => ReturnType<SpeechHandlers[keyof SpeechHandlers]>;
    return { id: request.id, ok: true, result: await handler(request.args) };
  } catch (e) {
    const code = e instanceof SpeechError ? e.code : 'internal';
    const message = e instanceof Error ? e.message : 'The recogniser failed.';
    return { id: request.id, ok: false, error: { code, message } };
  }
}
