import { describe, expect, it } from 'vitest';
import { expandShortcut } from './shortcuts';
import { AudioTail, encodeWav, toFloat } from './wav';

describe('recognition audio', () => {
  it('encodes 16 kHz mono 16-bit WAV', () => {
    const wav = encodeWav(new Int16Array([0, 1000, -1000]));
    const view = new DataView(wav.buffer);
    expect(String.fromCharCode(...wav.slice(0, 4))).toBe('RIFF');
    expect(view.getUint32(24, true)).toBe(16_000);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(6);
    expect(view.getInt16(46, true)).toBe(1000);
    expect(wav.length).toBe(50);
  });

  it('converts samples to floats', () => {
    expect([...toFloat(new Int16Array([-32768, 0, 16384]))]).toEqual([-1, 0, 0.5]);
  });

  it('keeps the tail of a stream and slices it by stream time', () => {
    const tail = new AudioTail(4);
    tail.push(new Int16Array([1, 2, 3]));
    tail.push(new Int16Array([4, 5, 6]));
    tail.push(new Int16Array([7, 8, 9]));
    expect(tail.position).toBe(9);
    // Kept: samples 3..8 (values 4..9); seconds at a 1 Hz rate for readability.
    expect([...tail.slice(4, 7, 1)]).toEqual([5, 6, 7]);
    expect([...tail.slice(0, 2, 1)]).toEqual([]);
    tail.reset();
    expect(tail.position).toBe(0);
  });
});

describe('shortcut expansion', () => {
  const shortcuts = [{ id: '1', input: 'Tea', output: 'Could I have a cup of tea, please?' }];
  it('replaces a text equal to an input, ignoring case and outer spaces', () => {
    expect(expandShortcut(' tea ', shortcuts)).toBe('Could I have a cup of tea, please?');
  });
  it('leaves other texts alone', () => {
    expect(expandShortcut('tea time', shortcuts)).toBe('tea time');
    expect(expandShortcut('tea', undefined)).toBe('tea');
  });
});
