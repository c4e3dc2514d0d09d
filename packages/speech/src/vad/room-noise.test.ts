import { describe, expect, it } from 'vitest';
import { CLEAR_OVER_ROOM_DB, RoomNoiseJudge } from './room-noise.js';

const judge = () => new RoomNoiseJudge(10);

describe('RoomNoiseJudge', () => {
  it('is not too loud before anything is heard', () => {
    const j = judge();
    expect(j.tooLoud).toBe(false);
    expect(j.marginDb).toBeUndefined();
    expect(j.cause).toBe('noise');
    expect(j.forget()).toBe(false);
  });

  it('turns too loud when the user is heard barely over the room, and says when it changed', () => {
    const j = judge();
    expect(j.heard(CLEAR_OVER_ROOM_DB - 4)).toBe(true);
    expect(j.tooLoud).toBe(true);
    expect(j.heard(CLEAR_OVER_ROOM_DB - 3)).toBe(false);
    expect(j.marginDb).toBe(CLEAR_OVER_ROOM_DB - 3.5);
  });

  it('follows the median of the last three utterances, so one loud syllable does not decide', () => {
    const j = judge();
    j.heard(11);
    j.heard(12);
    expect(j.heard(25)).toBe(false); // 11, 12, 25: still under
    expect(j.tooLoud).toBe(true);
    expect(j.heard(24)).toBe(true); // 12, 25, 24: the user is clear of the room again
    expect(j.tooLoud).toBe(false);
    expect(j.marginDb).toBe(24);
  });

  it('leaves out an utterance that could not have been opened over the floor it is judged against', () => {
    const j = judge();
    expect(j.heard(2.2)).toBe(false);
    expect(j.marginDb).toBeUndefined();
  });

  it('judges afresh when the room starts or stops talking, and when the stream ends', () => {
    const j = judge();
    j.heard(12);
    expect(j.room('noise')).toBe(false); // no change
    expect(j.room('voices')).toBe(true);
    expect(j.tooLoud).toBe(false);
    expect(j.cause).toBe('voices');
    expect(j.marginDb).toBeUndefined();
    j.heard(12);
    expect(j.forget()).toBe(true);
    expect(j.heard(CLEAR_OVER_ROOM_DB + 5)).toBe(false);
  });
});
