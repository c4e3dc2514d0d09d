import { SpeechError } from '../errors.js';
import { deserializeProfile } from '../model/serialize.js';
import { Matcher } from './matcher.js';
import { ListeningRoom } from '../vad/room-noise.js';
import { RecognitionStream, type StreamEvent, type StreamOptions } from './streaming.js';

/** Requests a recogniser host (a browser Web Worker in local mode) answers, with their replies. */
export interface SpeechHandlers {
  /** Load a model file downloaded from the server; replaces any loaded profile. */
  'load-profile': (args: { model: Uint8Array }) => { phrases: string[]; trainedAt: string };
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
  | { id: number; ok: true; result: ReturnType<SpeechHandlers[keyof SpeechHandlers]> }
  | { id: number; ok: false; error: { code: string; message: string } };

/** Build the handlers over one host's state. Pure: no worker or DOM APIs, so it is testable anywhere. */
export function createSpeechHandlers(): SpeechHandlers {
  let matcher: Matcher | undefined;
  const streams = new Map<string, RecognitionStream>();
  // The room as this host's streams have heard it, from one press to talk to the next.
  const room = new ListeningRoom();
  const stream = (id: string): RecognitionStream => {
    const s = streams.get(id);
    if (s === undefined) throw new SpeechError('bad_request', `No open stream "${id}".`);
    return s;
  };
  return {
    'load-profile': ({ model }) => {
      const profile = deserializeProfile(model);
      matcher = new Matcher(profile);
      streams.clear();
      return { phrases: profile.phrases, trainedAt: profile.trainedAt };
    },
    'open-stream': ({ streamId, options }) => {
      if (matcher === undefined) throw new SpeechError('bad_model', 'No voice profile is loaded yet.');
      streams.set(streamId, new RecognitionStream(matcher, { ...options, room }));
      return null;
    },
    'push-audio': ({ streamId, samples }) => stream(streamId).push(samples),
    'close-stream': ({ streamId }) => {
      const events = stream(streamId).end();
      streams.delete(streamId);
      return events;
    },
  };
}

/** Dispatch one request to the handlers and wrap the outcome as a reply. */
export function handleSpeechRequest(handlers: SpeechHandlers, request: SpeechRequest): SpeechReply {
  try {
    const handler = handlers[request.name] as (
      args: unknown,
    ) => ReturnType<SpeechHandlers[keyof SpeechHandlers]>;
    return { id: request.id, ok: true, result: handler(request.args) };
  } catch (e) {
    const code = e instanceof SpeechError ? e.code : 'internal';
    const message = e instanceof Error ? e.message : 'The recogniser failed.';
    return { id: request.id, ok: false, error: { code, message } };
  }
}
