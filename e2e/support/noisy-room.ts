import { encodeWavPcm16, wavToMono16k } from '@parla/speech';
import { phraseWav } from './speech.js';

// A person's phrases said over a room that is nearly as loud as they are, for the fake
// microphone (docs/decisions/0076).

/** The phrases said over the room, at these seconds of a 20 s recording. */
const SAID: [string, number][] = [
  ['good morning', 4],
  ['thank you very much', 9],
  ['I would like a cup of tea', 14],
];

/** A television: another voice reading on without pauses. */
const TELEVISION = [
  'and now the weather for the rest of the week',
  'rain will spread from the west during the afternoon',
  'with temperatures a little below the average for the time of year',
  'turning brighter on thursday with a few showers in the north',
  'the weekend looks dry and settled for most of the country',
  'and that is all from us for now, good night',
];

const SECONDS = 20;

async function speech(text: string, voiceId: string, wordsPerMinute: number): Promise<Float32Array> {
  return wavToMono16k(
    await phraseWav(text, { voiceId, wordsPerMinute, silenceBefore: 0, silenceAfter: 0.05 }),
  );
}

async function television(): Promise<Float32Array> {
  const lines = await Promise.all(TELEVISION.map((line) => speech(line, 'en-GB-female', 190)));
  const audio = new Float32Array(SECONDS * 16_000);
  for (let at = 0, i = 0; at < audio.length; i += 1) {
    const line = lines[i % lines.length] as Float32Array;
    audio.set(line.subarray(0, audio.length - at), at);
    at += line.length;
  }
  return audio;
}

/** A fan: low rumbling noise (white noise through a one-pole low-pass) and a mains hum. */
function fan(): Float32Array {
  let seed = 12_345;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  let low = 0;
  return Float32Array.from({ length: SECONDS * 16_000 }, (_, i) => {
    low = 0.97 * low + 0.03 * random();
    return 4 * low + 0.05 * Math.sin((2 * Math.PI * 100 * i) / 16_000);
  });
}

/**
 * The phrases over a television 10 dB under them, or a fan 2 dB under them (levels as root
 * mean square over the room and over the first phrase), as a 16 kHz WAV. At 5 dB the fan
 * left the phrases rising 15-16 dB over its floor, on the line of `CLEAR_OVER_ROOM_DB`:
 * whether the page said so hung on where in the looping recording listening began (half of
 * the starts never, in a 40 s stream replayed in Node); at 2 dB every start heard it said at
 * the first utterance (12-15 dB), and it stood.
 */
export async function phrasesOver(room: 'television' | 'fan'): Promise<Uint8Array> {
  const audio = room === 'television' ? await television() : fan();
  const mine = await Promise.all(SAID.map(([text]) => speech(text, 'en-US-male', 150)));
  const rms = (x: Float32Array) => Math.sqrt(x.reduce((sum, v) => sum + v * v, 0) / x.length);
  const under = room === 'television' ? 10 : 2;
  const gain = rms(mine[0] as Float32Array) / rms(audio) / 10 ** (under / 20);
  for (let i = 0; i < audio.length; i += 1) audio[i] = (audio[i] as number) * gain;
  SAID.forEach(([, second], k) =>
    (mine[k] as Float32Array).forEach((v, j) => {
      audio[second * 16_000 + j] = (audio[second * 16_000 + j] as number) + v;
    }),
  );
  return encodeWavPcm16(audio, 16_000);
}
