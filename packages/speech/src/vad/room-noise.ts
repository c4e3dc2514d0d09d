import type { Decibels } from '../units.js';
import { DEFAULT_ONSET_DB, QUIET_END_DB, type RoomTalk } from './endpointer.js';

/**
 * How far the user's speech must rise over the room for them to be understood as usual:
 * over a talking room's level, or over the noise floor of a room that only hums (a fan).
 * `speech:rooms` on the tuning takes, the median loud level of the utterances (the 95th
 * percentile of their frames) over a talking room: 19-21 dB with the room 20 dB under the
 * user (understood as in a quiet room, 89-100 %), 15-17 dB with it 15 dB under (61-89 %),
 * 12-14 dB with it 10 dB under (15-64 %); over a fan's floor: 23-28 dB at 20 dB, 18-19 dB at
 * 10 dB (92-100 %), 13-16 dB at 5 dB (47-91 %); in the speakers' own rooms 23-38 dB
 * (docs/decisions/0076).
 */
export const CLEAR_OVER_ROOM_DB: Decibels = 16;

/**
 * How far the user's recent utterances must rise over the room before a notice that stands
 * is taken back: 2 dB more than turned it on. Margins near the line swing a few dB from one
 * utterance to the next, and the notice came and went with them (FSDD's speakers over a fan
 * 5 dB under them, where 45 % of their digits were understood: on 78 % of the time, shown
 * 14 times; with the 2 dB, 88 %, 8 times); where the person is heard well over the room (20
 * dB) nothing changed (docs/decisions/0110).
 */
export const CLEAR_AGAIN_OVER_ROOM_DB: Decibels = CLEAR_OVER_ROOM_DB + 2;

/**
 * How far the person's recent utterances must rise over a talking room for the next press to
 * start from its level: as far as they do with the room 20 dB under them (19-21 dB, above),
 * not 15 dB (15-17 dB). Nearer the room, a phrase's soft words sink under its level and the
 * phrase is cut in pieces (docs/decisions/0089), unless the person is heard by their voice
 * there (`ListeningRoom.left`, docs/decisions/0095).
 */
export const HAND_ON_OVER_ROOM_DB: Decibels = 18;

/** Utterances the judgement looks back over: one loud syllable does not decide it. */
const RECENT_UTTERANCES = 3;

/** What the user's speech was judged against: a room talking, or the noise floor. */
export type RoomNoiseCause = 'voices' | 'noise';

/**
 * Whether the room is too loud for the user to be understood: the median of their last few
 * utterances' margins over it is under `CLEAR_OVER_ROOM_DB`, and once it is, until that
 * median reaches `CLEAR_AGAIN_OVER_ROOM_DB`. Before the user has said anything, it is not:
 * the notice it drives must not nag a user who is silent.
 */
export class RoomNoiseJudge {
  private margins: Decibels[] = [];
  private loud = false;
  private against: RoomNoiseCause = 'noise';

  /**
   * @param opensAbove The least an utterance rises over the floor to be opened (the
   *   end-pointer's onset margin): an utterance under it was opened while the floor was
   *   still a guess (a stream's first seconds) and says nothing about the user.
   */
  constructor(private readonly opensAbove: Decibels = DEFAULT_ONSET_DB) {}

  /** The current judgement, as the notice shows it. */
  get tooLoud(): boolean {
    return this.loud;
  }

  /**
   * The judgement without the notice's hold: whether the recent utterances rise less than
   * `CLEAR_OVER_ROOM_DB` over the room now. Recognition goes by it (hearing the person by
   * their voice where the room is too loud, docs/decisions/0094-0096), as it was tuned
   * before the notice held (0110).
   */
  get tooLoudNow(): boolean {
    const margin = this.marginDb;
    return margin !== undefined && margin < CLEAR_OVER_ROOM_DB;
  }

  /** What the recent margins were measured against. */
  get cause(): RoomNoiseCause {
    return this.against;
  }

  /** The median margin of the recent utterances over the room, if any were heard. */
  get marginDb(): Decibels | undefined {
    return median(this.margins);
  }

  /**
   * The room talks now, or hums: margins over the one say nothing about the other, so a
   * change forgets them. True when the judgement changed.
   */
  room(cause: RoomNoiseCause): boolean {
    if (cause === this.against) return false;
    this.against = cause;
    return this.forget();
  }

  /** An utterance heard `marginDb` over the room. True when the judgement changed. */
  heard(marginDb: Decibels): boolean {
    if (marginDb < this.opensAbove) return false;
    this.margins = [...this.margins, marginDb].slice(-RECENT_UTTERANCES);
    const line = this.loud ? CLEAR_AGAIN_OVER_ROOM_DB : CLEAR_OVER_ROOM_DB;
    return this.judge((this.marginDb as number) < line);
  }

  /** Nobody is listening any more. True when the judgement changed. */
  forget(): boolean {
    this.margins = [];
    return this.judge(false);
  }

  private judge(loud: boolean): boolean {
    const changed = loud !== this.loud;
    this.loud = loud;
    return changed;
  }
}

/**
 * How far under the person's voice a rejected utterance lies when it is the room's (a
 * television, people talking), not theirs: as far as the frames at an utterance's ends
 * that are taken for the room (docs/decisions/0074).
 */
export const UNDER_THE_VOICE_DB: Decibels = QUIET_END_DB;

/**
 * Understood utterances far under the voice in a row after which the voice is taken to have
 * moved (another microphone, a tired voice) and is learnt again from them.
 */
const MOVED_VOICE = 3;

/**
 * The person's voice as their understood utterances reach it: the median loud level of the
 * last few. An utterance far under it is the room's, understood or not, and is not reported
 * as one the person said (docs/decisions/0078, 0084).
 */
export class VoiceLevel {
  private levels: Decibels[] = [];
  /** Understood utterances taken for the room's since the person's voice was last heard. */
  private under: Decibels[] = [];

  /** The median loud level of the recent understood utterances, if any. */
  get level(): Decibels | undefined {
    return median(this.levels);
  }

  /** An utterance of the person's, understood, reaching `loudDb`. */
  heard(loudDb: Decibels): void {
    this.levels = [...this.levels, loudDb].slice(-RECENT_UTTERANCES);
    this.under = [];
  }

  /**
   * An utterance understood as one of the person's phrases, reaching `loudDb`: whether it
   * is the room's instead (people saying one of the person's words, far under their
   * voice). When it is the person's it joins their voice; and the third in a row so far
   * under it is the person's voice moved, learnt again from those three, so nobody is shut
   * out for long by a new microphone or a tired voice.
   */
  understood(loudDb: Decibels): boolean {
    if (!this.isUnder(loudDb)) {
      this.heard(loudDb);
      return false;
    }
    this.under = [...this.under, loudDb];
    if (this.under.length < MOVED_VOICE) return true;
    this.levels = this.under.slice(-RECENT_UTTERANCES);
    this.under = [];
    return false;
  }

  /** Whether an utterance reaching `loudDb` lies too far under the voice to be the person's. */
  isUnder(loudDb: Decibels): boolean {
    const level = this.level;
    return level !== undefined && loudDb < level - UNDER_THE_VOICE_DB;
  }
}

/**
 * What a person's streams learn about their room and their voice, kept from one stream to
 * the next when a session holds several (press to talk: one short stream a phrase). A
 * stream given one goes on with the same judgement and leaves it standing when it ends: the
 * notice stays while the person presses again; and it knows the voice the room's words lie
 * far under. The level of a room that talks is handed on while the person is understood
 * well over it, or heard by their voice where it is too loud: without it the room's words
 * open the next press's utterance before the phrase and hold it open for seconds after
 * (docs/decisions/0089, 0095). The noise floor is handed on only from a stream that heard
 * one utterance over a steady room and nothing else: the next press knows its room from the
 * first frame; under a television a floor handed on let the television's loud syllables end
 * the press (docs/decisions/0076, 0077, 0093).
 */
export class ListeningRoom {
  readonly judge = new RoomNoiseJudge();
  readonly voice = new VoiceLevel();
  private heard: RoomTalk | undefined;
  private steadyFloor: Decibels | undefined;

  /** The talking room the last stream left, for the next to start from. */
  get talk(): RoomTalk | undefined {
    return this.heard;
  }

  /** The floor of the steady room the last stream left, for the next to start from. */
  get floor(): Decibels | undefined {
    return this.steadyFloor;
  }

  /**
   * A stream ends where the room talks as `talk` says (or does not talk: undefined), over a
   * steady room's `floor` (or one it cannot vouch for: undefined). `byVoice`: the person's
   * streams hear them by their voice where the room is too loud (a profile with a voice
   * print): the room's level is handed on however near it the person is, as their words no
   * longer need to rise over it (docs/decisions/0095).
   */
  left(talk: RoomTalk | undefined, floor?: Decibels, byVoice = false): void {
    const margin = this.judge.cause === 'voices' ? this.judge.marginDb : undefined;
    const handOn =
      margin !== undefined && (margin >= HAND_ON_OVER_ROOM_DB || (byVoice && this.judge.tooLoudNow));
    this.heard = handOn ? talk : undefined;
    this.steadyFloor = floor;
  }
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] as number) + upper) / 2;
}
