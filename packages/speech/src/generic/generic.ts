import type { Decoder, SoundSwallowerModule } from 'soundswallower';
import { SpectralAnalyser } from '../features/features.js';
import { defaultFrontEnd, normaliseText } from '../model/profile.js';
import type { Seconds } from '../units.js';
import { Endpointer, type EndpointEvent, type EndpointerOptions } from '../vad/endpointer.js';
import { lexiconOf, wordsOf, type Lexicon } from './lexicon.js';
import { freeEngine, loadEngine, type LoadedEngine } from './model-files.js';
import type { PhoneSpan } from './voice-adaptation.js';

/** The generic recogniser's answer for one utterance. */
export interface GenericResult {
  text: string | null;
  /** The engine's word posterior for the weakest word, 0..1. */
  confidence: number;
  start: Seconds;
  end: Seconds;
}

/** Grammar built from phrase texts; phrases with words outside the dictionary are left out. */
export interface PhraseGrammar {
  jsgf: string;
  /** Normalised text -> display text, for the phrases the grammar covers. */
  covered: Map<string, string>;
  /** Phrases the generic path cannot say (a word it does not know). */
  uncovered: string[];
}

/**
 * The phones of the bundled en-US model, each a dictionary word of its own (`zzph` and the
 * phone, a spelling no English word has) for a loop of single phones: anything said that is
 * none of the phrases.
 */
export const PHONE_WORDS: readonly (readonly [word: string, phone: string])[] =
  'AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH'
    .split(' ')
    .map((phone) => [phoneWord(phone), phone] as const);

/** The dictionary word of one phone (see {@link PHONE_WORDS}). */
function phoneWord(phone: string): string {
  return `zzph${phone.toLowerCase()}`;
}

/** Grammar options: a rival to the phrases, so that the engine can answer "none of them". */
export interface GrammarOptions {
  /**
   * A loop of single phones beside the phrases, with this prior weight against a phrase's 1
   * (JSGF weight, e.g. `1e-15`): the smaller, the more a phrase is preferred.
   */
  phoneLoopWeight?: string;
  /**
   * The loop's weight for going on to one more phone against stopping (JSGF weight against
   * 1; default 1, as `( ... )+` weighs them): the smaller, the more each phone costs it, so
   * the longer an utterance, the more the loop pays against a phrase.
   */
  phoneLoopGoesOn?: string;
  /**
   * Where the engine reads its Gaussian means from (a file path in Node, a URL in a browser):
   * means adapted to one person's voice ({@link VoiceAdaptation}); the model's own if unset.
   */
  means?: string;
}

/** Build a JSGF grammar that accepts exactly one of the phrases (or, with a rival, anything). */
export function phraseGrammar(
  phrases: readonly string[],
  known: (word: string) => boolean,
  options: GrammarOptions = {},
): PhraseGrammar {
  const covered = new Map<string, string>();
  const uncovered: string[] = [];
  for (const phrase of phrases) {
    const key = normaliseText(phrase);
    const words = key.split(' ').filter((w) => w !== '');
    if (words.length > 0 && words.every(known)) covered.set(key, phrase);
    else uncovered.push(phrase);
  }
  const loop = options.phoneLoopWeight;
  const alternatives = [...covered.keys()].map((k) => (loop === undefined ? `( ${k} )` : `/1/ ( ${k} )`));
  if (alternatives.length === 0) return { jsgf: '', covered, uncovered };
  const goesOn = options.phoneLoopGoesOn ?? '1';
  const rival =
    loop === undefined
      ? ''
      : ` | /${loop}/ <phones>;\n<phones> = /1/ <phone> | /${goesOn}/ <phone> <phones>;\n` +
        `<phone> = ( ${PHONE_WORDS.map(([word]) => word).join(' | ')} )`;
  const jsgf = `#JSGF V1.0;\ngrammar phrases;\npublic <phrase> = ${alternatives.join(' | ')}${rival};\n`;
  return { jsgf, covered, uncovered };
}

/**
 * A grammar of one single-phone word (one of {@link PHONE_WORDS}), for audio heard only so
 * that the engine's running mean follows the voice ({@link GenericRecogniser.startVoiceOnly}):
 * the engine still scores every frame, but searches almost nothing.
 */
const VOICE_ONLY_JSGF = `#JSGF V1.0;\ngrammar voice;\npublic <voice> = ${phoneWord('AA')};\n`;

/**
 * SoundSwallower constrained to the user's phrases: works before any recording exists and
 * is the baseline the personal profile has to beat. One instance per stream (the decoder
 * holds utterance state).
 */
export class GenericRecogniser {
  private readonly module: SoundSwallowerModule;
  private readonly engine: LoadedEngine;
  private readonly options: GrammarOptions;
  private current: PhraseGrammar;
  /** The grammar the engine has now: the phrases', or the voice-only one. */
  private engineGrammar: 'phrases' | 'voice-only' | 'alignment' = 'phrases';
  /** Whether an utterance is open (started, not yet finished). */
  private listening = false;
  /** Where the engine's words come from when it loaded without its model's dictionary. */
  private readonly lexicon: Lexicon | undefined;
  /** The words it was taught from {@link lexicon} so far. */
  private readonly taught = new Set<string>();

  private constructor(module: SoundSwallowerModule, engine: LoadedEngine, options: GrammarOptions) {
    this.module = module;
    this.lexicon = lexiconOf(module);
    this.engine = engine;
    this.options = options;
    this.current = phraseGrammar([], () => false);
  }

  private get decoder(): Decoder {
    return this.engine.decoder;
  }

  /** Create a decoder for these phrases from a loaded SoundSwallower module. */
  static async create(
    module: SoundSwallowerModule,
    phrases: readonly string[],
    options: GrammarOptions = {},
  ): Promise<GenericRecogniser> {
    const taughtWords = lexiconOf(module) !== undefined;
    const engine = await loadEngine(module, () => {
      const decoder = new module.Decoder({
        loglevel: 'FATAL',
        samprate: 16000,
        ...(options.means === undefined ? {} : { mean: options.means }),
      });
      // Taught its words one by one instead (see Lexicon): it starts with none but silence and noise.
      if (taughtWords) decoder.unset_config('dict');
      return decoder;
    });
    const recogniser = new GenericRecogniser(module, engine, options);
    try {
      recogniser.decoder.add_words(...PHONE_WORDS.map(([word, phone]): [string, string] => [word, phone]));
      recogniser.usePhrases(phrases);
    } catch (error) {
      recogniser.delete();
      throw error;
    }
    return recogniser;
  }

  /** The grammar of the phrases it decides among now. */
  get grammar(): PhraseGrammar {
    return this.current;
  }

  /** Whether the engine can say `word`: its lexicon has it (see {@link teach}), or its dictionary does. */
  private inDictionary(word: string): boolean {
    if (this.lexicon !== undefined) return this.lexicon.has(word);
    // The dictionary answers null for unknown words, despite the declared string type.
    return (this.decoder.lookup_word(word) as string | null) !== null;
  }

  /** Teaches the engine the words of `texts` it has not been taught yet, from its lexicon (if any). */
  private teach(texts: readonly string[]): void {
    const lexicon = this.lexicon;
    if (lexicon === undefined) return;
    // A word it has no pronunciation of yet may be sent later (see Lexicon.add).
    const fresh = wordsOf(texts).filter((word) => !this.taught.has(word) && lexicon.has(word));
    for (const word of fresh) this.taught.add(word);
    const entries = fresh.flatMap((word) => lexicon.entriesOf(word));
    // At once: the engine brings its search up to date after the last word it is given.
    if (entries.length > 0) this.decoder.add_words(...entries);
  }

  /**
   * Decide among other phrases from the next utterance on: a new grammar for the same engine,
   * which costs far less than a new engine (its acoustic model is loaded once).
   */
  usePhrases(phrases: readonly string[]): void {
    this.abandon();
    this.teach(phrases);
    this.current = phraseGrammar(phrases, (word) => this.inDictionary(word), this.options);
    if (this.current.jsgf !== '') this.decoder.set_grammar(this.current.jsgf);
    this.engineGrammar = 'phrases';
  }

  /**
   * Forget the voices heard so far. The engine normalises an utterance by a running mean of
   * all the audio it has heard, carried from one utterance to the next, so what it names
   * depends on who spoke before; afterwards it starts again from its model's own mean, as a
   * new engine does (about a millisecond in Node; a browser fetches a model file again).
   */
  async forgetVoices(): Promise<void> {
    this.abandon();
    await this.decoder.reinitialize_audio();
  }

  /** Start an utterance (one still open is dropped first). */
  start(): void {
    this.abandon();
    if (this.current.jsgf === '') return;
    // Set again after the voice-only grammar: about 1.5 ms for ten digits and a phone loop, 5-8
    // ms for 200 phrases, where naming the utterance costs a decode of all of it anyway.
    if (this.engineGrammar !== 'phrases') this.decoder.set_grammar(this.current.jsgf);
    this.engineGrammar = 'phrases';
    this.decoder.start();
    this.listening = true;
  }

  /**
   * Start an utterance heard only so that the running mean the engine normalises by (see
   * {@link forgetVoices}) follows the voice; it names nothing. It costs the engine's scoring
   * of every frame but almost no search.
   */
  startVoiceOnly(): void {
    this.abandon();
    if (this.current.jsgf === '') return;
    if (this.engineGrammar !== 'voice-only') this.decoder.set_grammar(VOICE_ONLY_JSGF);
    this.engineGrammar = 'voice-only';
    this.decoder.start();
    this.listening = true;
  }

  /** Close the open utterance, if any, without reading its answer. */
  abandon(): void {
    if (!this.listening) return;
    this.decoder.stop();
    this.listening = false;
  }

  /** Feed 16 kHz audio to the open utterance. */
  process(samples: Float32Array): void {
    if (this.listening && samples.length > 0) this.decoder.process_audio(samples, false, false);
  }

  /** Close the utterance and read the answer. */
  finish(): { text: string | null; confidence: number } {
    if (!this.listening) return { text: null, confidence: 0 };
    this.decoder.stop();
    this.listening = false;
    const hyp = normaliseText(this.decoder.get_text());
    const text = this.engineGrammar === 'phrases' ? (this.current.covered.get(hyp) ?? null) : null;
    let confidence = 0;
    if (text !== null) {
      const words = this.decoder.get_alignment().w ?? [];
      const posteriors = words.filter((w) => w.t !== '(NULL)' && !w.t.startsWith('<')).map((w) => w.p);
      confidence = posteriors.length > 0 ? Math.min(...posteriors) : 0;
    }
    return { text, confidence };
  }

  /**
   * The phones of `text` (normalised, every word in the dictionary) forced through `audio`,
   * in 10 ms frames, with the engine's log-mel spectrum of it (20 bands a frame): what
   * {@link VoiceAdaptation} learns a voice from. Undefined when a word is unknown or the
   * engine finds no path through the audio.
   */
  alignPhones(
    text: string,
    audio: Float32Array,
  ): { spans: PhoneSpan[]; logMel: Float32Array; frames: number } | undefined {
    const words = normaliseText(text);
    this.teach([words]);
    if (words === '' || !words.split(' ').every((word) => this.inDictionary(word))) return undefined;
    this.abandon();
    this.decoder.set_align_text(words);
    this.engineGrammar = 'alignment';
    this.decoder.start();
    this.decoder.process_audio(audio, false, true);
    this.decoder.stop();
    let result;
    try {
      result = this.decoder.get_alignment({ align_level: 1 });
    } catch {
      return undefined; // no path: the engine answers with nothing to parse
    }
    const spans = (result.w ?? []).flatMap((word) =>
      (word.w ?? []).map((phone) => ({
        phone: phone.t,
        from: Math.round(phone.b * 100),
        to: Math.round((phone.b + phone.d) * 100),
      })),
    );
    const { data, nfr } = this.decoder.spectrogram(audio);
    return spans.length === 0 ? undefined : { spans, logMel: data, frames: nfr };
  }

  /** Free the engine's memory, the model files it read with it. */
  delete(): void {
    freeEngine(this.module, this.engine);
  }
}

/**
 * The generic path on a live stream: the same end-pointer as the personal path decides
 * where utterances are, and audio is fed to the engine as it arrives.
 */
export class GenericStream {
  private readonly recogniser: GenericRecogniser;
  private readonly analyser = new SpectralAnalyser(defaultFrontEnd());
  private readonly endpointer: Endpointer;
  private readonly hop: number;
  private readonly frameShift: Seconds;
  private audio = new Float32Array(0);
  private audioStart = 0;
  private fed = 0;

  constructor(recogniser: GenericRecogniser, options: EndpointerOptions = {}) {
    const fe = defaultFrontEnd();
    this.recogniser = recogniser;
    this.hop = fe.hopSamples;
    this.frameShift = fe.hopSamples / fe.sampleRate;
    this.endpointer = new Endpointer({ ...options, frameShift: this.frameShift });
  }

  /** Feed audio; returns results for utterances that ended in it. */
  push(chunk: Float32Array): GenericResult[] {
    const grown = new Float32Array(this.audio.length + chunk.length);
    grown.set(this.audio);
    grown.set(chunk, this.audio.length);
    this.audio = grown;
    const results: GenericResult[] = [];
    for (const frame of this.analyser.push(chunk))
      for (const event of this.endpointer.process(frame.energyDb)) this.handle(event, results);
    if (this.endpointer.speaking) {
      this.feedTo(this.audioStart + this.audio.length);
    } else if (this.audio.length > 16000) {
      const drop = this.audio.length - 8000;
      this.audio = this.audio.slice(drop);
      this.audioStart += drop;
    }
    return results;
  }

  /** The stream is over. */
  end(): GenericResult[] {
    const results: GenericResult[] = [];
    this.handle(this.endpointer.flush(), results);
    return results;
  }

  private feedTo(sample: number): void {
    if (sample <= this.fed) return;
    this.recogniser.process(this.audio.subarray(this.fed - this.audioStart, sample - this.audioStart));
    this.fed = sample;
  }

  private handle(event: EndpointEvent | undefined, results: GenericResult[]): void {
    if (event === undefined) return;
    switch (event.type) {
      case 'start':
        this.recogniser.start();
        this.fed = Math.max(this.audioStart, event.startFrame * this.hop);
        return;
      case 'cancel':
        this.recogniser.finish();
        return;
      case 'end': {
        this.feedTo(Math.min(this.audioStart + this.audio.length, event.endFrame * this.hop + this.hop));
        const r = this.recogniser.finish();
        results.push({
          ...r,
          start: event.startFrame * this.frameShift,
          end: event.endFrame * this.frameShift,
        });
        return;
      }
    }
  }
}
