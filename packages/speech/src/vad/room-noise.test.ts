import { describe, expect, it } from 'vitest';
import { CLEAR_OVER_ROOM_DB, RoomNoiseJudge } from './room-noise.js';

describe('RoomNoiseJudge', () => {
  it('is not too loud before anything is heard over the room', () => {
    const judge = new RoomNoiseJudge();
    expect(judge.tooLoud).toBe(false);
    expect(judge.marginDb).toBeUndefined();
    expect(judge.quiet()).toBe(false);
  });

  it('turns too loud when the user is heard barely over the room, and says when it changed', () => {
    const judge = new RoomNoiseJudge();
    expect(judge.heard(CLEAR_OVER_ROOM_DB - 4)).toBe(true);
    expect(judge.tooLoud).toBe(true);
    expect(judge.heard(CLEAR_OVER_ROOM_DB - 3)).toBe(false);
    expect(judge.marginDb).toBe(CLEAR_OVER_ROOM_DB - 3.5);
  });

  it('follows the median of the last three utterances, so one loud syllable does not decide', () => {
    const judge = new RoomNoiseJudge();
    judge.heard(10);
    judge.heard(11);
    expect(judge.heard(25)).toBe(false); // 10, 11, 25: still under
    expect(judge.tooLoud).toBe(true);
    expect(judge.heard(24)).toBe(true); // 11, 25, 24: the user is clear of the room again
    expect(judge.tooLoud).toBe(false);
    expect(judge.marginDb).toBe(24);
  });

  it('forgets the room once it is quiet', () => {
    const judge = new RoomNoiseJudge();
    judge.heard(8);
    expect(judge.quiet()).toBe(true);
    expect(judge.tooLoud).toBe(false);
    expect(judge.marginDb).toBeUndefined();
    expect(judge.heard(CLEAR_OVER_ROOM_DB + 5)).toBe(false);
  });
});
