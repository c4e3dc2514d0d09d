import { describe, expect, it } from 'vitest';
import { serializeProfile } from '../model/serialize.js';
import { trainProfile } from '../model/train.js';
import { take } from '../test/phrases.js';
import { createSpeechHandlers, handleSpeechRequest } from './handlers.js';

describe('speech handlers', () => {
  const model = serializeProfile(
    trainProfile(
      ['open the door', 'close it'].flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: take(p, t) }))),
    ),
  );

  it('loads a model, streams audio and replies with events', () => {
    const h = createSpeechHandlers();
    const loaded = handleSpeechRequest(h, { id: 1, name: 'load-profile', args: { model } });
    expect(loaded).toMatchObject({ id: 1, ok: true, result: { phrases: ['open the door', 'close it'] } });
    expect(handleSpeechRequest(h, { id: 2, name: 'open-stream', args: { streamId: 'a' } })).toMatchObject({
      ok: true,
    });
    const audio = take(1, 6);
    const events = [];
    for (let i = 0; i < audio.length; i += 3200) {
      const r = handleSpeechRequest(h, {
        id: 3,
        name: 'push-audio',
        args: { streamId: 'a', samples: audio.subarray(i, i + 3200) },
      });
      if (r.ok && Array.isArray(r.result)) events.push(...r.result);
    }
    const closed = handleSpeechRequest(h, { id: 4, name: 'close-stream', args: { streamId: 'a' } });
    if (closed.ok && Array.isArray(closed.result)) events.push(...closed.result);
    expect(events.find((e) => e.type === 'final')).toMatchObject({ text: 'close it' });
  });

  it('turns failures into coded replies', () => {
    const h = createSpeechHandlers();
    expect(handleSpeechRequest(h, { id: 5, name: 'open-stream', args: { streamId: 'x' } })).toMatchObject({
      ok: false,
      error: { code: 'bad_model' },
    });
    expect(
      handleSpeechRequest(h, { id: 6, name: 'load-profile', args: { model: new Uint8Array(3) } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'bad_model' },
    });
  });
});
