import type { SoundSwallowerModule } from 'soundswallower';
import type { EncoderTemplate, SpeechEncoder } from '../encoder/encoder-view.js';
import type { Sequence } from '../model/dtw.js';
import { deserializeEncoderViews } from '../encoder/kept-views.js';
import { encoderHearsAgain, withEncoderOpinion } from '../encoder/third-opinion.js';
import { EncoderViewAhead, viewOfFinal } from '../encoder/view-ahead.js';
import { SpeechError } from '../errors.js';
import { AnsweredStream } from '../generic/answered-stream.js';
import { Lexicon, lexiconOf, teachFromLexicon, type LexiconEntry } from '../generic/lexicon.js';
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
   * stays off. `voice`: the engine's means adapted to the person's voice (compact, as kept
   * beside their profile, docs/decisions/0128), read as the engine loads; a host's engine keeps
   * the means it loaded with. `pronunciations`: those of the words of `phrases`, from the
   * model's dictionary (as the server sends them); an engine first loaded with them is taught
   * only those words, and never downloads and reads the whole dictionary (3.3 MB).
   */
  'use-generic': (args: {
    modelBase: string;
    phrases: string[];
    voice?: { key: string; means: Uint8Array };
    pronunciations?: LexiconEntry[];
  }) => Promise<{ unrecorded: number }>;
  /**
   * Hear finals still rejected once the generic path has heard them with the speech encoder
   * too (its third opinion, docs/decisions/0144-0147), among `views`, the views of the loaded
   * profile's takes kept beside it on the server. The encoder is loaded once, from
   * `modelUrl`. Answers how many phrases it judges among: none when the views are another
   * encoder's (the opinion then stays off until views of this one are given).
   */
  'use-encoder': (args: { modelUrl: string; views: Uint8Array }) => Promise<{ phrases: number }>;
  /** Open a stream; several may be open at once. */
  'open-stream': (args: { streamId: string; options?: Omit<StreamOptions, 'room'> }) => null;
  /** Feed 16 kHz mono samples to a stream. */
  'push-audio': (args: { streamId: string; samples: Float32Array }) => Promise<StreamEvent[]>;
  /** Close a stream, finishing any open utterance. */
  'close-stream': (args: { streamId: string }) => Promise<StreamEvent[]>;
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
  /**
   * Makes the means file of a person's adapted means (compact) against the model at
   * `modelBase`, somewhere the engine can read it (a blob URL in a browser, a file in Node);
   * without it, only the model's own means.
   */
  placeVoiceMeans?: (modelBase: string, means: Uint8Array) => Promise<PlacedMeans>;
  /** Loads the speech encoder from where its model is served; without it, no third opinion. */
  loadEncoder?: (modelUrl: string) => Promise<SpeechEncoder>;
}

/** A means file where an engine can read it, until it is released (once the engine has). */
export interface PlacedMeans {
  location: string;
  release(): Promise<void>;
}

/** Build the handlers over one host's state. Pure: no worker or DOM APIs, so it is testable anywhere. */
export function createSpeechHandlers(options: SpeechHandlerOptions = {}): SpeechHandlers {
  let matcher: Matcher | undefined;
  const streams = new Map<string, AnsweredStream>();
  // The room as this host's streams have heard it, from one press to talk to the next.
  const room = new ListeningRoom();
  let engine: Promise<SecondOpinion> | undefined;
  /** What the engine's module teaches its engines words from, if not the whole dictionary. */
  let lexicon: Lexicon | undefined;
  /** The key of the means `engine` loads with (undefined: the model's own). */
  let engineVoice: string | undefined;
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
  const loadEngine = async (
    load: (modelBase: string) => Promise<SoundSwallowerModule>,
    modelBase: string,
    voice: Uint8Array | undefined,
    pronunciations: LexiconEntry[] | undefined,
  ): Promise<SecondOpinion> => {
    const module = await load(modelBase);
    if (lexiconOf(module) === undefined && pronunciations !== undefined)
      teachFromLexicon(module, Lexicon.of(pronunciations));
    lexicon = lexiconOf(module);
    if (voice === undefined) return SecondOpinion.load(module);
    const place = options.placeVoiceMeans;
    if (place === undefined)
      throw new SpeechError('bad_request', 'This host cannot read means adapted to a voice.');
    const placed = await place(modelBase, voice);
    try {
      return await SecondOpinion.load(module, placed.location);
    } finally {
      await placed.release();
    }
  };
  /** The speech encoder once asked for, and the views it judges among while it may. */
  let encoder: Promise<SpeechEncoder> | undefined;
  let views: { encoder: SpeechEncoder; templates: EncoderTemplate[] } | undefined;
  /** The encoder's runs, one at a time (one model, one thread). */
  let encoderTurn: Promise<unknown> = Promise.resolve();
  const viewInTurn = (encoder: SpeechEncoder, audio: Float32Array): Promise<Sequence> => {
    const view = encoderTurn.then(() => encoder.view(audio));
    encoderTurn = view.catch(() => undefined);
    return view;
  };
  /** Per stream, the view of the final it expects, begun while the end-point is waited out. */
  const viewedAhead = new WeakMap<AnsweredStream, EncoderViewAhead>();
  const viewAhead = (stream: AnsweredStream) => {
    const asked = views;
    if (asked === undefined) return;
    let ahead = viewedAhead.get(stream);
    if (ahead === undefined) {
      ahead = new EncoderViewAhead((audio) => viewInTurn(asked.encoder, audio));
      viewedAhead.set(stream, ahead);
    }
    ahead.follow(stream.expected, asked.templates, (start, end) => stream.heardByEncoder(start, end));
  };
  /** Finals the generic path left rejected, heard by the encoder too (as the server does,
   * `RecognitionService.hearWithEncoder`); an utterance it fails on keeps its result. */
  const withEncoder = async (stream: AnsweredStream, events: StreamEvent[]): Promise<StreamEvent[]> => {
    const asked = views;
    if (asked === undefined) return events;
    return Promise.all(
      events.map(async (event) => {
        if (event.type !== 'final' || !encoderHearsAgain(event, asked.templates)) return event;
        const view = viewOfFinal(
          viewedAhead.get(stream)?.viewOf(event.start, event.end),
          () => stream.heardByEncoder(event.start, event.end),
          (audio) => viewInTurn(asked.encoder, audio),
        );
        if (view === undefined) return event;
        try {
          return withEncoderOpinion(event, await view, asked.templates);
        } catch {
          return event;
        }
      }),
    );
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
      // The views went with the profile they were made beside.
      views = undefined;
      // Phrases recorded since are the new profile's to answer.
      hearPhrases();
      return { phrases: profile.phrases, trainedAt: profile.trainedAt };
    },
    'use-generic': async ({ modelBase, phrases: all, voice, pronunciations }) => {
      const load = options.loadGeneric;
      if (load === undefined) throw new SpeechError('bad_request', 'This host has no generic recogniser.');
      // Streams may hold the engine between pushes: it stays, and so do its means.
      if (engine !== undefined && engineVoice !== voice?.key)
        throw new SpeechError('bad_request', 'The generic recogniser keeps the means it loaded with.');
      if (engine === undefined) {
        engineVoice = voice?.key;
        engine = loadEngine(load, modelBase, voice?.means, pronunciations);
      }
      phrases = all;
      try {
        loaded = await engine;
      } catch (error) {
        // A failed load (the model could not be fetched, means that do not fit it) may be
        // tried again, with other means too.
        engine = undefined;
        engineVoice = undefined;
        throw error;
      }
      // Words of phrases added since it loaded (an engine with the whole dictionary has them).
      if (pronunciations !== undefined) lexicon?.add(pronunciations);
      hearPhrases();
      return { unrecorded: generic?.phrases.length ?? 0 };
    },
    'use-encoder': async ({ modelUrl, views: file }) => {
      const load = options.loadEncoder;
      if (load === undefined) throw new SpeechError('bad_request', 'This host has no speech encoder.');
      if (matcher === undefined) throw new SpeechError('bad_model', 'No voice profile is loaded yet.');
      const profile = matcher.profile;
      const templates = deserializeEncoderViews(file);
      encoder ??= load(modelUrl).catch((error: unknown) => {
        // A failed load (the model could not be fetched) may be tried again.
        encoder = undefined;
        throw error;
      });
      const loadedEncoder = await encoder;
      // A profile loaded meanwhile has views of its own to come.
      if (matcher.profile !== profile) return { phrases: 0 };
      views = templates === undefined ? undefined : { encoder: loadedEncoder, templates };
      return { phrases: new Set(templates?.map((template) => template.text)).size };
    },
    'open-stream': ({ streamId, options: streamOptions }) => {
      if (matcher === undefined) throw new SpeechError('bad_model', 'No voice profile is loaded yet.');
      // Finals the profile rejected or accepted in doubt are heard again by the generic path,
      // which follows each stream's utterances as they are spoken.
      const stream = new RecognitionStream(matcher, { ...streamOptions, room });
      streams.set(streamId, new AnsweredStream(stream, () => generic));
      return null;
    },
    'push-audio': async ({ streamId, samples }) => {
      const stream = open(streamId);
      const events = await withEncoder(stream, stream.push(samples).answered);
      viewAhead(stream);
      return events;
    },
    'close-stream': ({ streamId }) => {
      const opened = open(streamId);
      streams.delete(streamId);
      return withEncoder(opened, opened.end().answered);
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
