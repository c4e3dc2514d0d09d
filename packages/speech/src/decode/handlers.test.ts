import { describe, expect, it } from 'vitest';
import { concatAudio } from '../audio/audio.js';
import { encoderHearsTake, encoderTemplate, keptView, type SpeechEncoder } from '../encoder/encoder-view.js';
import { serializeEncoderViews } from '../encoder/kept-views.js';
import { serializeProfile } from '../model/serialize.js';
import { trainProfile } from '../model/train.js';
import { loadSoundSwallower, soundSwallowerLexicon } from '../platform/soundswallower.node.js';
import { loadSpeechEncoder } from '../platform/encoder.node.js';
import { adaptToVoice, placeVoiceMeans } from '../platform/voice-adaptation.node.js';
import { fsddRecording } from '../test/fsdd.node.js';
import { DIGITS, haveFsdd, jacksonProfile, padded as jackson, silence } from '../test/jackson.node.js';
import { take } from '../test/phrases.js';
import { createSpeechHandlers, handleSpeechRequest, type SpeechHandlers } from './handlers.js';
import type { StreamEvent } from './streaming.js';

/** Streams `audio` through the handlers in the client's chunks; every event that came back. */
async function streamThrough(h: SpeechHandlers, streamId: string, audio: Float32Array) {
  expect(await handleSpeechRequest(h, { id: 2, name: 'open-stream', args: { streamId } })).toMatchObject({
    ok: true,
  });
  const events: StreamEvent[] = [];
  for (let i = 0; i < audio.length; i += 3200) {
    const r = await handleSpeechRequest(h, {
      id: 3,
      name: 'push-audio',
      args: { streamId, samples: audio.subarray(i, i + 3200) },
    });
    if (r.ok && Array.isArray(r.result)) events.push(...r.result);
  }
  const closed = await handleSpeechRequest(h, { id: 4, name: 'close-stream', args: { streamId } });
  if (closed.ok && Array.isArray(closed.result)) events.push(...closed.result);
  return events;
}

describe('speech handlers', () => {
  const model = serializeProfile(
    trainProfile(
      ['open the door', 'close it'].flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: take(p, t) }))),
    ),
  );

  it('loads a model, streams audio and replies with events', async () => {
    const h = createSpeechHandlers();
    const loaded = await handleSpeechRequest(h, { id: 1, name: 'load-profile', args: { model } });
    expect(loaded).toMatchObject({ id: 1, ok: true, result: { phrases: ['open the door', 'close it'] } });
    const events = await streamThrough(h, 'a', take(1, 6));
    expect(events.find((e) => e.type === 'final')).toMatchObject({ text: 'close it' });
  });

  it('turns failures into coded replies', async () => {
    const h = createSpeechHandlers();
    expect(
      await handleSpeechRequest(h, { id: 5, name: 'open-stream', args: { streamId: 'x' } }),
    ).toMatchObject({ ok: false, error: { code: 'bad_model' } });
    expect(
      await handleSpeechRequest(h, { id: 6, name: 'load-profile', args: { model: new Uint8Array(3) } }),
    ).toMatchObject({ ok: false, error: { code: 'bad_model' } });
    // A host built without SoundSwallower has no generic path to offer.
    expect(
      await handleSpeechRequest(h, {
        id: 7,
        name: 'use-generic',
        args: { modelBase: '/speech-model/', phrases: ['yes'] },
      }),
    ).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });
});

const profileOf = (digits: number[]) => serializeProfile(jacksonProfile(digits));

describe.skipIf(!haveFsdd)('speech handlers: the generic path', () => {
  it('answers them with the generic path, until the profile has takes of them', async () => {
    const h = createSpeechHandlers({ loadGeneric: () => loadSoundSwallower() });
    await handleSpeechRequest(h, { id: 1, name: 'load-profile', args: { model: profileOf([1, 4, 7]) } });
    const three = jackson(3, 10);
    const before = (await streamThrough(h, 'a', three)).find((e) => e.type === 'final');
    expect(before).toMatchObject({ rejected: true });
    expect(
      await handleSpeechRequest(h, {
        id: 2,
        name: 'use-generic',
        args: { modelBase: 'unused in Node', phrases: ['one', 'four', 'seven', 'three'] },
      }),
    ).toMatchObject({ ok: true, result: { unrecorded: 1 } });
    const heard = (await streamThrough(h, 'b', three)).find((e) => e.type === 'final');
    expect(heard).toMatchObject({ text: 'three', rejected: false, generic: true });
    // Once "three" is recorded, the new profile answers for it.
    await handleSpeechRequest(h, { id: 3, name: 'load-profile', args: { model: profileOf([1, 3, 4, 7]) } });
    const recorded = (await streamThrough(h, 'c', three)).find((e) => e.type === 'final');
    expect(recorded).toMatchObject({ text: 'three' });
    expect(recorded?.type === 'final' && recorded.generic).toBeFalsy();
  }, 60_000);

  it("with every phrase recorded, seconds the profile's rejected top guess", async () => {
    const h = createSpeechHandlers({ loadGeneric: () => loadSoundSwallower() });
    await handleSpeechRequest(h, { id: 1, name: 'load-profile', args: { model: profileOf([1, 4, 7]) } });
    const seven = jackson(7, 15);
    const alone = (await streamThrough(h, 'a', seven)).find((e) => e.type === 'final');
    expect(alone).toMatchObject({ rejected: true });
    expect(alone?.type === 'final' && alone.alternatives[0]?.text).toBe('seven');
    expect(
      await handleSpeechRequest(h, {
        id: 2,
        name: 'use-generic',
        args: { modelBase: 'unused in Node', phrases: ['one', 'four', 'seven'] },
      }),
    ).toMatchObject({ ok: true, result: { unrecorded: 0 } });
    const seconded = (await streamThrough(h, 'b', seven)).find((e) => e.type === 'final');
    expect(seconded).toMatchObject({ text: 'seven', rejected: false, seconded: true });
  }, 60_000);

  it("hears with the means adapted to the person's voice, and keeps the means it loaded with", async () => {
    const phrases = ['one', 'four', 'seven', 'three'];
    const takes = [1, 4, 7].flatMap((d) =>
      [0, 1, 2].map((t) => ({ text: DIGITS[d] ?? '', audio: jackson(d, t) })),
    );
    const adapted = await adaptToVoice(await loadSoundSwallower(), phrases, ['one', 'four', 'seven'], takes);
    if (adapted === undefined) throw new Error('His takes can be aligned.');
    const voice = { key: 'models/m1/v1/voice.bin', means: adapted.voice };
    const use = (h: SpeechHandlers, args: { voice?: typeof voice }) =>
      handleSpeechRequest(h, {
        id: 2,
        name: 'use-generic',
        args: { modelBase: 'unused in Node', phrases, ...args },
      });

    // A host that cannot place means refuses them, and loads nothing.
    const plain = createSpeechHandlers({ loadGeneric: () => loadSoundSwallower() });
    expect(await use(plain, { voice })).toMatchObject({ ok: false, error: { code: 'bad_request' } });

    const h = createSpeechHandlers({ loadGeneric: () => loadSoundSwallower(), placeVoiceMeans });
    await handleSpeechRequest(h, { id: 1, name: 'load-profile', args: { model: profileOf([1, 4, 7]) } });
    // Means adapted from another model (here, cut short) are refused as the engine loads, and
    // others may be tried after.
    const cut = { key: 'models/m1/v1/voice.bin', means: adapted.voice.subarray(0, 64) };
    expect(await use(h, { voice: cut })).toMatchObject({ ok: false, error: { code: 'bad_model' } });
    expect(await use(h, { voice })).toMatchObject({ ok: true, result: { unrecorded: 1 } });
    const heard = (await streamThrough(h, 'a', jackson(3, 10))).find((e) => e.type === 'final');
    expect(heard).toMatchObject({ text: 'three', rejected: false, generic: true });
    // The same means again are fine; other means, or none, need a host of their own.
    expect(await use(h, { voice })).toMatchObject({ ok: true });
    expect(await use(h, { voice: { ...voice, key: 'models/m1/v2/voice.bin' } })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await use(h, {})).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  }, 60_000);

  it('teaches an engine only the words it is sent, as a browser sends them, or reads the whole dictionary', async () => {
    // A module as a browser's worker loads it: no dictionary read beforehand.
    const bare = () => loadSoundSwallower({ wholeDictionary: true });
    const lexicon = await soundSwallowerLexicon();
    const phrases = ['one', 'four', 'seven', 'three'];
    const use = (h: SpeechHandlers, sent?: string[]) =>
      handleSpeechRequest(h, {
        id: 2,
        name: 'use-generic',
        args: {
          modelBase: 'unused in Node',
          phrases,
          ...(sent === undefined ? {} : { pronunciations: lexicon.pronunciationsOf(sent) }),
        },
      });
    const three = jackson(3, 10);
    const final = async (h: SpeechHandlers, id: string) =>
      (await streamThrough(h, id, three)).find((e) => e.type === 'final');

    const taught = createSpeechHandlers({ loadGeneric: bare });
    await handleSpeechRequest(taught, { id: 1, name: 'load-profile', args: { model: profileOf([1, 4, 7]) } });
    // Sent no pronunciation of "three", it cannot say it: the engine knows only what it is sent.
    expect(await use(taught, ['one', 'four', 'seven'])).toMatchObject({
      ok: true,
      result: { unrecorded: 0 },
    });
    expect(await final(taught, 'a')).toMatchObject({ rejected: true });
    // Sent again with it (a phrase added since), the same engine learns it.
    expect(await use(taught, phrases)).toMatchObject({ ok: true, result: { unrecorded: 1 } });
    expect(await final(taught, 'b')).toMatchObject({ text: 'three', rejected: false, generic: true });

    // Sent none, the engine reads the model's whole dictionary, as before.
    const whole = createSpeechHandlers({ loadGeneric: bare });
    await handleSpeechRequest(whole, { id: 1, name: 'load-profile', args: { model: profileOf([1, 4, 7]) } });
    expect(await use(whole)).toMatchObject({ ok: true, result: { unrecorded: 1 } });
    expect(await final(whole, 'c')).toMatchObject({ text: 'three', rejected: false, generic: true });
  }, 60_000);
});

describe.skipIf(!haveFsdd)('speech handlers: the speech encoder', () => {
  // Nicolas, whom the generic path knows least of FSDD's speakers: eight digits, three takes
  // each, and the encoder's views of those takes kept as the server keeps them.
  const digits = [0, 1, 2, 3, 4, 5, 6, 7];
  const nicolas = (digit: number, take: number) =>
    concatAudio(silence(0.5), fsddRecording(digit, 'nicolas', take), silence(0.5));
  const items = digits.flatMap((d) =>
    [0, 1, 2].map((t) => ({ text: DIGITS[d] ?? '', audio: nicolas(d, t) })),
  );
  const profile = serializeProfile(trainProfile(items));
  const encoder = loadSpeechEncoder();
  const views = (async () =>
    serializeEncoderViews(
      await Promise.all(
        items.map(async ({ text, audio }) =>
          encoderTemplate(text, keptView(await (await encoder).view(encoderHearsTake(audio)))),
        ),
      ),
    ))();

  it('seconds a final the profile rejected when it names its first guess too, as the server does', async () => {
    const h = createSpeechHandlers({ loadEncoder: () => encoder });
    await handleSpeechRequest(h, { id: 1, name: 'load-profile', args: { model: profile } });
    // His take 11 of "three", as the browser's fake microphone says it in `encoder-opinion.test.ts`.
    const three = nicolas(3, 11);
    const before = (await streamThrough(h, 'a', three)).find((e) => e.type === 'final');
    expect(before).toMatchObject({ rejected: true });
    expect(before?.type === 'final' && before.alternatives[0]?.text).toBe('three');
    expect(
      await handleSpeechRequest(h, {
        id: 2,
        name: 'use-encoder',
        args: { modelUrl: 'unused in Node', views: await views },
      }),
    ).toMatchObject({ ok: true, result: { phrases: 8 } });
    const heard = (await streamThrough(h, 'b', three)).find((e) => e.type === 'final');
    expect(heard).toMatchObject({ text: 'three', rejected: false, seconded: true });
    // As the page hears that microphone's loop hands-free, in one stream: its first turn from
    // the word's first sample (the page leaves out the digital silence before it), then turns of
    // a second's silence, the take and a second and a half's silence. Once the room has been
    // heard, every turn is seconded.
    const turn = concatAudio(silence(1), fsddRecording(3, 'nicolas', 11), silence(1.5));
    const loop = concatAudio(fsddRecording(3, 'nicolas', 11), silence(1.5), turn, turn);
    const turns = (await streamThrough(h, 'c', loop)).filter((e) => e.type === 'final');
    expect(turns).toHaveLength(3);
    for (const later of turns.slice(1)) expect(later).toMatchObject({ text: 'three', seconded: true });
    // A new profile drops the views made beside the last one.
    await handleSpeechRequest(h, { id: 3, name: 'load-profile', args: { model: profile } });
    expect((await streamThrough(h, 'd', three)).find((e) => e.type === 'final')).toMatchObject({
      rejected: true,
    });
  }, 60_000);

  it('begins viewing a final it will hear while the end-point silence is waited out, and views it once', async () => {
    const real = await encoder;
    let pushes = 0;
    /** The push during which each view began. */
    const begun: number[] = [];
    const counting: SpeechEncoder = {
      view: (audio) => {
        begun.push(pushes);
        return real.view(audio);
      },
    };
    const h = createSpeechHandlers({ loadEncoder: () => Promise.resolve(counting) });
    await handleSpeechRequest(h, { id: 1, name: 'load-profile', args: { model: profile } });
    await handleSpeechRequest(h, {
      id: 2,
      name: 'use-encoder',
      args: { modelUrl: 'unused', views: await views },
    });
    await handleSpeechRequest(h, { id: 3, name: 'open-stream', args: { streamId: 'a' } });
    const audio = concatAudio(nicolas(3, 11), silence(1.5));
    let answeredAt: number | undefined;
    for (let i = 0; i < audio.length; i += 3200) {
      pushes += 1;
      const r = await handleSpeechRequest(h, {
        id: 4,
        name: 'push-audio',
        args: { streamId: 'a', samples: audio.subarray(i, i + 3200) },
      });
      const final = r.ok && Array.isArray(r.result) ? r.result.find((e) => e.type === 'final') : undefined;
      if (final === undefined) continue;
      expect(final).toMatchObject({ text: 'three', seconded: true });
      answeredAt = pushes;
    }
    expect(answeredAt).toBeDefined();
    expect(begun).toHaveLength(1);
    expect(begun[0]).toBeLessThan(answeredAt ?? 0);
  }, 60_000);

  it('says what it cannot do: no encoder in the host, no profile yet, damaged views', async () => {
    const without = createSpeechHandlers();
    await handleSpeechRequest(without, { id: 1, name: 'load-profile', args: { model: profile } });
    const ask = (h: SpeechHandlers, file: Uint8Array) =>
      handleSpeechRequest(h, { id: 2, name: 'use-encoder', args: { modelUrl: 'unused', views: file } });
    expect(await ask(without, await views)).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const h = createSpeechHandlers({ loadEncoder: () => encoder });
    expect(await ask(h, await views)).toMatchObject({ ok: false, error: { code: 'bad_model' } });
    await handleSpeechRequest(h, { id: 1, name: 'load-profile', args: { model: profile } });
    const damaged = (await views).slice(0, 100);
    expect(await ask(h, damaged)).toMatchObject({ ok: false, error: { code: 'bad_model' } });
  }, 60_000);
});
