import { describe, expect, it } from 'vitest';
import { SpeechError } from '../errors.js';
import { take } from '../test/phrases.js';
import { serializeProfile } from './serialize.js';
import {
  analyseTake,
  analysisFingerprint,
  decodeTakeAnalysis,
  encodeTakeAnalysis,
  isCurrentTakeAnalysis,
} from './take-analysis.js';
import { trainProfile } from './train.js';

const names = ['yes', 'no', 'water', 'help'];
const recorded = names.flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: take(p, t) })));
const now = (): Date => new Date(0);

describe('a take analysis kept as bytes', () => {
  it('reads back exactly what the analysis made', () => {
    const span = analyseTake(take(1, 0));
    const bytes = encodeTakeAnalysis(span);
    expect(isCurrentTakeAnalysis(bytes)).toBe(true);
    expect(decodeTakeAnalysis(bytes)).toEqual(span);
    // A view into a larger buffer reads the same.
    const padded = new Uint8Array(bytes.length + 7);
    padded.set(bytes, 3);
    expect(decodeTakeAnalysis(padded.subarray(3, 3 + bytes.length))).toEqual(span);
  });

  it('trains the very profile its audio trains', () => {
    const fromAudio = trainProfile(recorded, { now });
    const kept = recorded.map(({ text, audio }) => ({
      text,
      analysis: decodeTakeAnalysis(encodeTakeAnalysis(analyseTake(audio))),
    }));
    expect(serializeProfile(trainProfile(kept, { now }))).toEqual(serializeProfile(fromAudio));
  });

  it('is not read when another analysis wrote it, or when it is cut short or something else', () => {
    const bytes = encodeTakeAnalysis(analyseTake(take(2, 1)));
    const other = encodeTakeAnalysis(analyseTake(take(2, 1)), analysisFingerprint() ^ 1);
    for (const stale of [
      other,
      bytes.subarray(0, bytes.length - 4),
      new TextEncoder().encode('RIFF....WAVE'),
    ]) {
      expect(isCurrentTakeAnalysis(stale)).toBe(false);
      expect(decodeTakeAnalysis(stale)).toBeUndefined();
    }
  });

  it('leaves training to the audio when the profile needs more, and refuses a take with neither', async () => {
    const { loadPhoneModel } = await import('../platform/phones.node.js');
    const phones = await loadPhoneModel();
    const options = { phones, settings: { phoneWeight: 6 }, now };
    // Kept without the phone filters' bands: a profile that matches phones analyses the audio.
    const keptWithAudio = recorded.map(({ text, audio }) => ({ text, audio, analysis: analyseTake(audio) }));
    expect(serializeProfile(trainProfile(keptWithAudio, options))).toEqual(
      serializeProfile(trainProfile(recorded, options)),
    );
    const keptAlone = keptWithAudio.map(({ text, analysis }) => ({ text, analysis }));
    expect(() => trainProfile(keptAlone, options)).toThrow(SpeechError);
    expect(() => trainProfile(keptAlone, options)).toThrow(/neither its audio nor an analysis/);
    // Kept with them, it is used.
    const withBands = recorded.map(({ text, audio }) => ({
      text,
      analysis: analyseTake(audio, options.settings),
    }));
    expect(serializeProfile(trainProfile(withBands, options))).toEqual(
      serializeProfile(trainProfile(recorded, options)),
    );
  });
});
