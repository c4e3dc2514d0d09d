import { describe, expect, it } from 'vitest';
import { concatAudio } from '../audio/audio.js';
import { RecognitionStream, type StreamEvent } from '../decode/streaming.js';
import {
  jacksonEngine as engine,
  jacksonMatcher as matcher,
  haveFsdd,
  padded,
  silence,
} from '../test/jackson.node.js';
import { CHUNK_SAMPLES } from '../units.js';
import { AnsweredStream, type AnsweredEvents } from './answered-stream.js';

type Final = Extract<StreamEvent, { type: 'final' }>;
const finalsOf = (events: StreamEvent[]): Final[] => events.filter((e): e is Final => e.type === 'final');

/** Feed `audio` in the client's chunks, then end the stream; `after` sees each push's events. */
function run(
  stream: AnsweredStream,
  audio: Float32Array,
  after: (events: AnsweredEvents) => void = () => {},
) {
  const found: Final[] = [];
  const answered: Final[] = [];
  const take = (events: AnsweredEvents) => {
    expect(events.answered).toHaveLength(events.found.length);
    found.push(...finalsOf(events.found));
    answered.push(...finalsOf(events.answered));
    after(events);
  };
  for (let i = 0; i < audio.length; i += CHUNK_SAMPLES)
    take(stream.push(audio.subarray(i, i + CHUNK_SAMPLES)));
  take(stream.end());
  return { found, answered };
}

describe.skipIf(!haveFsdd)('AnsweredStream', () => {
  it("answers a final the profile rejected with the generic path, beside the profile's own", async () => {
    const generic = await engine();
    const stream = new AnsweredStream(new RecognitionStream(matcher()), () => generic);
    const { found, answered } = run(stream, concatAudio(padded(3, 10), silence(1), padded(1, 10)));
    expect(found.map((f) => f.text)).toEqual([null, 'one']);
    expect(answered[0]).toMatchObject({ text: 'three', generic: true, start: found[0]?.start });
    expect(answered[1]).toEqual(found[1]);
    generic.delete();
  }, 60_000);

  it("gives the profile's finals as they are without an engine, and answers them once one is loaded", async () => {
    const generic = await engine();
    let loaded = false;
    const stream = new AnsweredStream(new RecognitionStream(matcher()), () => (loaded ? generic : undefined));
    // The engine comes once the first "three" has had its final.
    const { found, answered } = run(
      stream,
      concatAudio(padded(3, 10), silence(2), padded(3, 13)),
      (events) => {
        if (finalsOf(events.found).length > 0) loaded = true;
      },
    );
    expect(found.map((f) => f.text)).toEqual([null, null]);
    expect(answered[0]).toEqual(found[0]);
    expect(answered[1]).toMatchObject({ text: 'three', generic: true });
    generic.delete();
  }, 60_000);

  it('keeps what it is asked to: an utterance longer than the stream kept is heard no more', async () => {
    const generic = await engine();
    // A stream asked to keep a tenth of a second (it keeps its last chunk, 0.2 s) cannot hear
    // again what it no longer holds.
    const short = new AnsweredStream(new RecognitionStream(matcher()), () => generic, 0.1);
    const { found, answered } = run(short, padded(3, 10));
    expect(found.map((f) => f.text)).toEqual([null]);
    expect(answered[0]?.text).not.toBe('three');
    generic.delete();
  }, 60_000);
});
