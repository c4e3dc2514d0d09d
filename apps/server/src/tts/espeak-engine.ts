// The package ships no types; this reference brings ours into every program compiling this file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./espeak-ng.d.ts" />
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Voice } from '@parla/contract';
import ESpeakNg from 'espeak-ng';
import { readPcm16Wav } from './audio-encoding.js';
import type { SpeechAudio, TtsEngine } from './tts-engine.js';

interface EspeakVoice extends Voice {
  /** espeak-ng's language voice and variant, as given to -v. */
  espeak: string;
}

/** The voices offered: a female and a male voice per locale, from the package's own data. */
const VOICES: readonly EspeakVoice[] = [
  { id: 'en-US-female', name: 'English (US), female', locale: 'en-US', gender: 'female', espeak: 'en-us+f3' },
  { id: 'en-US-male', name: 'English (US), male', locale: 'en-US', gender: 'male', espeak: 'en-us+m3' },
  { id: 'en-GB-female', name: 'English (UK), female', locale: 'en-GB', gender: 'female', espeak: 'en-gb+f3' },
  { id: 'en-GB-male', name: 'English (UK), male', locale: 'en-GB', gender: 'male', espeak: 'en-gb-x-rp+m3' },
  { id: 'de-DE-female', name: 'Deutsch, weiblich', locale: 'de-DE', gender: 'female', espeak: 'de+f3' },
  { id: 'de-DE-male', name: 'Deutsch, männlich', locale: 'de-DE', gender: 'male', espeak: 'de+m3' },
  { id: 'fr-FR-female', name: 'Français, féminin', locale: 'fr-FR', gender: 'female', espeak: 'fr-fr+f3' },
  { id: 'fr-FR-male', name: 'Français, masculin', locale: 'fr-FR', gender: 'male', espeak: 'fr-fr+m3' },
  { id: 'es-ES-female', name: 'Español, femenino', locale: 'es-ES', gender: 'female', espeak: 'es+f3' },
  { id: 'es-ES-male', name: 'Español, masculino', locale: 'es-ES', gender: 'male', espeak: 'es+m3' },
  { id: 'it-IT-female', name: 'Italiano, femminile', locale: 'it-IT', gender: 'female', espeak: 'it+f3' },
  { id: 'it-IT-male', name: 'Italiano, maschile', locale: 'it-IT', gender: 'male', espeak: 'it+m3' },
  {
    id: 'pt-BR-female',
    name: 'Português (Brasil), feminino',
    locale: 'pt-BR',
    gender: 'female',
    espeak: 'pt-br+f3',
  },
  {
    id: 'pt-BR-male',
    name: 'Português (Brasil), masculino',
    locale: 'pt-BR',
    gender: 'male',
    espeak: 'pt-br+m3',
  },
];

/** Speed and pitch of one call; test speech varies them to sound like different takes. */
export interface Prosody {
  /** 80 to 450; the default is WORDS_PER_MINUTE. */
  wordsPerMinute?: number;
  /** 0 to 99, espeak-ng's default 50. */
  pitch?: number;
}

/** Words per minute: a little slower than espeak-ng's 175, for listeners in a noisy room. */
const WORDS_PER_MINUTE = 160;

/**
 * eSpeak NG compiled to WebAssembly, its voice data embedded in the module. Each call runs
 * the command line in a fresh instance of the module (from bytes read once); calls take turns, so at
 * most one instance's memory is held at a time.
 */
export class EspeakEngine implements TtsEngine {
  readonly name = 'espeak-ng';
  readonly voices: readonly Voice[] = VOICES.map(({ espeak: _espeak, ...voice }) => voice);
  private binary: Promise<Uint8Array> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  async synthesize(text: string, voiceId: string, prosody: Prosody = {}): Promise<SpeechAudio> {
    const voice = VOICES.find((candidate) => candidate.id === voiceId);
    if (!voice) throw new Error(`unknown voice ${voiceId}`);
    const turn = this.queue.then(() => this.run(text, voice.espeak, prosody));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async run(text: string, espeakVoice: string, prosody: Prosody): Promise<SpeechAudio> {
    const wasmBinary = await this.wasmBinary();
    const errors: string[] = [];
    const instance = await ESpeakNg({
      // Text from a file, never from the arguments: nothing the user writes becomes an option.
      arguments: [
        '-b',
        '1',
        '-s',
        String(Math.round(prosody.wordsPerMinute ?? WORDS_PER_MINUTE)),
        '-p',
        String(Math.round(prosody.pitch ?? 50)),
        '-v',
        espeakVoice,
        '-f',
        '/in.txt',
        '-w',
        '/out.wav',
      ],
      print: () => undefined,
      printErr: (line) => errors.push(line),
      preRun: [(m) => m.FS.writeFile('/in.txt', text)],
      wasmBinary,
    });
    try {
      return readPcm16Wav(instance.FS.readFile('/out.wav'));
    } catch (error) {
      throw new Error(`espeak-ng wrote no audio: ${errors.join(' ') || String(error)}`, { cause: error });
    }
  }

  /** The module's code and voice data, read once: 18 MB that every call would read again. */
  private wasmBinary() {
    const script = createRequire(import.meta.url).resolve('espeak-ng');
    this.binary ??= readFile(path.join(path.dirname(script), 'espeak-ng.wasm'));
    return this.binary;
  }
}
