import { describe, expect, it } from 'vitest';
import {
  CLEAR_AGAIN_OVER_ROOM_DB,
  CLEAR_OVER_ROOM_DB,
  HAND_ON_OVER_ROOM_DB,
  ListeningRoom,
  RoomNoiseJudge,
  UNDER_THE_VOICE_DB,
  VoiceLevel,
} from './room-noise.js';

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

  it('holds a notice until the user is heard clear of the line by more than turned it on', () => {
    const j = judge();
    j.heard(CLEAR_OVER_ROOM_DB - 1);
    expect(j.tooLoud).toBe(true);
    expect(j.tooLoudNow).toBe(true);
    // Margins that swing about the line do not take it back...
    expect(j.heard(CLEAR_OVER_ROOM_DB + 1)).toBe(false);
    expect(j.heard(CLEAR_OVER_ROOM_DB + 1)).toBe(false);
    expect(j.marginDb).toBe(CLEAR_OVER_ROOM_DB + 1);
    expect(j.tooLoud).toBe(true);
    // Recognition goes by the line itself.
    expect(j.tooLoudNow).toBe(false);
    // ...clear of it again, they do.
    j.heard(CLEAR_AGAIN_OVER_ROOM_DB);
    expect(j.heard(CLEAR_AGAIN_OVER_ROOM_DB)).toBe(true);
    expect(j.tooLoud).toBe(false);
    // And the same margins that did not take it back do not turn it on.
    j.heard(CLEAR_OVER_ROOM_DB + 1);
    expect(j.heard(CLEAR_OVER_ROOM_DB + 1)).toBe(false);
    expect(j.tooLoud).toBe(false);
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

describe('VoiceLevel', () => {
  it('knows no voice until an utterance of the person is heard, and then takes nothing for the room above it', () => {
    const voice = new VoiceLevel();
    expect(voice.level).toBeUndefined();
    expect(voice.isUnder(-90)).toBe(false);
    voice.heard(-20);
    expect(voice.isUnder(-20 - UNDER_THE_VOICE_DB + 1)).toBe(false);
    expect(voice.isUnder(-20 - UNDER_THE_VOICE_DB - 1)).toBe(true);
  });

  it("takes an understood word far under the voice for the room's, until three in a row say the voice moved", () => {
    const voice = new VoiceLevel();
    expect(voice.understood(-20)).toBe(false);
    const far = -20 - UNDER_THE_VOICE_DB - 5;
    expect(voice.understood(far)).toBe(true);
    expect(voice.level).toBe(-20);
    // The person's own voice in between: the room's words start counting again.
    expect(voice.understood(-21)).toBe(false);
    expect(voice.understood(far)).toBe(true);
    expect(voice.understood(far - 1)).toBe(true);
    // A new microphone, or a voice grown tired: the third is theirs, and their voice now.
    expect(voice.understood(far + 1)).toBe(false);
    expect(voice.level).toBe(far);
    expect(voice.understood(far)).toBe(false);
  });

  it('follows the median of the last three, so one shout or one whisper does not move it', () => {
    const voice = new VoiceLevel();
    for (const level of [-20, -22, -5]) voice.heard(level);
    expect(voice.level).toBe(-20);
    voice.heard(-40);
    expect(voice.level).toBe(-22);
    voice.heard(-40);
    voice.heard(-41);
    expect(voice.level).toBe(-40);
  });
});

describe('ListeningRoom', () => {
  const talk = { frames: Float32Array.of(-40, -38, -42), quietest: -60 };
  const heardOver = (cause: 'voices' | 'noise', ...margins: number[]): ListeningRoom => {
    const room = new ListeningRoom();
    room.judge.room(cause);
    for (const m of margins) room.judge.heard(m);
    return room;
  };

  it('keeps a talking room for the next stream only while the person is heard well over it', () => {
    const clear = heardOver('voices', 19, 21, 20);
    clear.left(talk);
    expect(clear.talk).toBe(talk);
    // Under the hand-on margin, though not too loud to be understood as usual.
    const near = heardOver('voices', HAND_ON_OVER_ROOM_DB - 1);
    expect(near.judge.tooLoud).toBe(false);
    near.left(talk);
    expect(near.talk).toBeUndefined();
    // Margins over a steady room's floor say nothing about a talking room.
    const steady = heardOver('noise', 25);
    steady.left(talk);
    expect(steady.talk).toBeUndefined();
    // Nobody heard yet.
    const silent = heardOver('voices');
    silent.left(talk);
    expect(silent.talk).toBeUndefined();
  });

  it('keeps a talking room too loud to hear the person over when they are heard by their voice', () => {
    const loud = heardOver('voices', 12, 13, 11);
    expect(loud.judge.tooLoud).toBe(true);
    loud.left(talk);
    expect(loud.talk).toBeUndefined();
    loud.left(talk, undefined, true);
    expect(loud.talk).toBe(talk);
    // Near the room but not too loud: the hand-on margin still decides.
    const near = heardOver('voices', HAND_ON_OVER_ROOM_DB - 1);
    near.left(talk, undefined, true);
    expect(near.talk).toBeUndefined();
    // A steady room too loud is no talking room.
    const fan = heardOver('noise', 11, 12, 13);
    expect(fan.judge.tooLoud).toBe(true);
    fan.left(talk, undefined, true);
    expect(fan.talk).toBeUndefined();
  });

  it("keeps the floor of the steady room the last stream left, and only that stream's", () => {
    const room = new ListeningRoom();
    expect(room.floor).toBeUndefined();
    room.left(undefined, -52);
    expect(room.floor).toBe(-52);
    // A stream that could not vouch for its floor (the room opened utterances of its own).
    room.left(undefined);
    expect(room.floor).toBeUndefined();
  });

  it('forgets the talk when a stream ends with the room no longer talking', () => {
    const room = heardOver('voices', 20);
    room.left(talk);
    room.left(undefined);
    expect(room.talk).toBeUndefined();
    expect(HAND_ON_OVER_ROOM_DB).toBeGreaterThan(CLEAR_OVER_ROOM_DB);
  });
});
