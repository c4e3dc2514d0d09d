// End to end on real voices: each FSDD speaker says their digits in one live stream while the
// other five talk 10 dB under them, as people in a room. Level alone opens few of the digits'
// utterances there; the speaker's voice print opens more (docs/decisions/0094), and the digits
// heard in their voice there are allowed for (docs/decisions/0096).
import { describe, expect, it } from 'vitest';
import { concatAudio } from '../audio/audio.js';
import { Matcher } from '../decode/matcher.js';
import { RecognitionStream } from '../decode/streaming.js';
import { sayInStream, scoreStream, type StreamFinal, type StreamScore } from '../eval/continuous.js';
import { asRecorded } from '../audio/as-recorded.js';
import { rng } from '../seeded.js';
import { trainProfile } from '../model/train.js';
import { DIGITS, fsddRecording, haveFsdd } from '../test/fsdd.node.js';
import { CHUNK_SAMPLES, SAMPLE_RATE } from '../units.js';

const SPEAKERS = ['george', 'jackson', 'lucas', 'nicolas', 'theo', 'yweweler'];
/** Enrolled and said by each speaker: zero to seven. */
const KNOWN = DIGITS.slice(0, 8);

/** What one live stream, hands-free, made of the digits said in `audio`. */
function heard(matcher: Matcher, audio: Float32Array, spans: Parameters<typeof scoreStream>[0]): StreamScore {
  const stream = new RecognitionStream(matcher);
  const finals: StreamFinal[] = [];
  const keep = (events: ReturnType<RecognitionStream['push']>, at: number): void => {
    for (const e of events)
      if (e.type === 'final') finals.push({ text: e.text, start: e.start, end: e.end, heardAt: at });
  };
  for (let i = 0; i < audio.length; i += CHUNK_SAMPLES)
    keep(
      stream.push(audio.subarray(i, i + CHUNK_SAMPLES)),
      Math.min(audio.length, i + CHUNK_SAMPLES) / SAMPLE_RATE,
    );
  keep(stream.end(), audio.length / SAMPLE_RATE);
  return scoreStream(spans, finals);
}

describe.skipIf(!haveFsdd)('the voice over real people talking (FSDD)', () => {
  it("hears more of a person's digits 10 dB over other people by their voice than by level", () => {
    let byLevel = { understood: 0, mistaken: 0 };
    let byVoice = { understood: 0, mistaken: 0 };
    for (const [s, speaker] of SPEAKERS.entries()) {
      const profile = trainProfile(
        KNOWN.flatMap((text, d) =>
          [0, 1, 2].map((n) => ({
            text,
            audio: asRecorded(fsddRecording(d, speaker, n), 0.0003, rng(s * 100 + n)),
          })),
        ),
      );
      expect(profile.voice).toBeDefined();
      const said = KNOWN.flatMap((text, d) =>
        [10, 11, 12].map((n) => ({
          text,
          audio: asRecorded(fsddRecording(d, speaker, n), 0.0003, rng(s * 100 + n)),
          known: true,
        })),
      );
      const people = concatAudio(
        ...SPEAKERS.filter((other) => other !== speaker).flatMap((other) =>
          KNOWN.map((_, d) => fsddRecording(d, other, 5)),
        ),
      );
      const gaps = [...said.map((_, i) => 2 + (i % 3) * 0.5), 2];
      const { audio, spans } = sayInStream(said, gaps, { noise: people, snrDb: 10, offset: 0 });
      const { voice: _, ...withoutVoice } = profile;
      const [level, voice] = [
        heard(new Matcher(withoutVoice), audio, spans),
        heard(new Matcher(profile), audio, spans),
      ];
      byLevel = {
        understood: byLevel.understood + level.understood,
        mistaken: byLevel.mistaken + level.mistaken,
      };
      byVoice = {
        understood: byVoice.understood + voice.understood,
        mistaken: byVoice.mistaken + voice.mistaken,
      };
    }
    // 144 digits: level alone understands 40 of them, with the voice 50 (taken for another: 9,
    // 10); 47 before a phrase heard in the voice was allowed for (docs/decisions/0096).
    expect(byVoice.understood).toBeGreaterThanOrEqual(byLevel.understood + 8);
    expect(byVoice.mistaken).toBeLessThanOrEqual(byLevel.mistaken + 2);
  }, 60_000);
});
