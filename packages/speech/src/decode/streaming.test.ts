import { describe, expect, it } from 'vitest';
import { trainProfile } from '../model/train.js';
import { concat, noise } from '../test/signals.js';
import { take } from '../test/phrases.js';
import { CHUNK_SAMPLES } from '../units.js';
import { Matcher } from './matcher.js';
import { RecognitionStream, type StreamEvent } from './streaming.js';

const names = ['lights on', 'lights off', 'I am thirsty', 'goodbye'];
const profile = trainProfile(names.flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: take(p, t) }))));
const matcher = new Matcher(profile);

function feed(stream: RecognitionStream, audio: Float32Array, chunk = CHUNK_SAMPLES): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (let i = 0; i < audio.length; i += chunk) events.push(...stream.push(audio.subarray(i, i + chunk)));
  events.push(...stream.end());
  return events;
}

describe('RecognitionStream', () => {
  it('emits speech start, then a final at the end-point', () => {
    const events = feed(new RecognitionStream(matcher), take(2, 6));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('speech-start');
    expect(types.filter((t) => t === 'final')).toHaveLength(1);
    const final = events.find((e) => e.type === 'final');
    expect(final?.type === 'final' && final.text).toBe('I am thirsty');
    expect(final?.type === 'final' && final.alternatives.length).toBeGreaterThan(0);
  });

  it('emits partial hypotheses during long speech', () => {
    const slow = take(2, 7, { tempo: 3 });
    const events = feed(new RecognitionStream(matcher, { partialInterval: 0.2 }), slow);
    expect(events.some((e) => e.type === 'partial')).toBe(true);
  });

  it('gives one result per utterance when dictating several in one stream', () => {
    const audio = concat(take(0, 5), noise(0.5, 0.001, 11), take(3, 5), take(1, 5));
    const finals = feed(new RecognitionStream(matcher), audio).filter((e) => e.type === 'final');
    expect(finals.map((f) => f.text)).toEqual(['lights on', 'goodbye', 'lights off']);
    expect(finals[1]?.start).toBeGreaterThan(finals[0]?.end ?? Infinity);
  });

  it('does not depend on the chunk size', () => {
    const audio = take(1, 8);
    const a = feed(new RecognitionStream(matcher), audio, 3200).filter((e) => e.type === 'final');
    const b = feed(new RecognitionStream(matcher), audio, 1000).filter((e) => e.type === 'final');
    expect(b).toEqual(a);
  });

  it('stays silent on silence', () => {
    expect(feed(new RecognitionStream(matcher), noise(3))).toEqual([]);
  });
});
