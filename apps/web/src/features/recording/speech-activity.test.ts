import { describe, expect, it } from 'vitest';
import { SpeechActivity, waveformPeaks } from './speech-activity';

/** 16 kHz PCM: quiet noise, then a loud vowel-like tone, then quiet again. */
function take(quietBefore: number, speech: number, quietAfter: number) {
  const total = Math.round((quietBefore + speech + quietAfter) * 16_000);
  const samples = new Int16Array(total);
  for (let i = 0; i < total; i += 1) {
    const t = i / 16_000;
    const speaking = t >= quietBefore && t < quietBefore + speech;
    const noise = (Math.sin(i * 12.9898) * 43758.5453) % 1;
    samples[i] = Math.round((speaking ? 0.3 * Math.sin(2 * Math.PI * 220 * t) : 0.001 * noise) * 32767);
  }
  return samples;
}

describe('SpeechActivity', () => {
  it('hears speech start and end, in chunks of any size, and measures it', () => {
    const activity = new SpeechActivity(0.8);
    const samples = take(0.6, 1.2, 1.2);
    for (let offset = 0; offset < samples.length; offset += 1000)
      activity.push(samples.subarray(offset, offset + 1000));
    expect(activity.started).toBe(true);
    expect(activity.ended).toBe(true);
    expect(activity.speechSeconds).toBeGreaterThan(0.9);
    expect(activity.speechSeconds).toBeLessThan(2.3);
  });

  it('does not end while the pause is shorter than the end silence', () => {
    const activity = new SpeechActivity(1.5);
    activity.push(take(0.6, 1, 0.8));
    expect(activity.started).toBe(true);
    expect(activity.ended).toBe(false);
  });

  it('hears nothing in quiet', () => {
    const activity = new SpeechActivity(0.8);
    activity.push(take(2, 0, 0));
    expect(activity.started).toBe(false);
    expect(activity.speechSeconds).toBe(0);
  });
});

describe('waveformPeaks', () => {
  it('gives one peak per column', () => {
    const peaks = waveformPeaks(take(0.5, 0.5, 0.5), 30);
    expect(peaks).toHaveLength(30);
    expect(Math.max(...peaks)).toBeCloseTo(0.3, 1);
    expect(Math.min(...peaks)).toBeLessThan(0.01);
  });
});
