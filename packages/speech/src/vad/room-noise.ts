import type { Decibels } from '../units.js';

/**
 * How far the user's speech must rise over a talking room for them to be understood as
 * usual. `speech:rooms` on the tuning takes: phrases said 20 dB over a room are heard with
 * their loud level (the 95th percentile of an utterance's frames) a median 19-21 dB over the
 * room's and are understood as in a quiet room (93-100 %); 15 dB under them, 15-17 dB over
 * it and 61-89 %; 10 dB under them, 12-14 dB over it and 15-64 % (docs/decisions/0076).
 */
export const CLEAR_OVER_ROOM_DB: Decibels = 16;

/** Utterances the judgement looks back over: one loud syllable does not decide it. */
const RECENT_UTTERANCES = 3;

/**
 * Whether a talking room (a television, a radio, people) is too loud for the user to be
 * understood: the median of their last few utterances' margins over it is under
 * `CLEAR_OVER_ROOM_DB`. Before the user has said anything over the room, and once the room
 * is quiet, it is not: the notice it drives must not nag a user who is silent, or whose
 * room only hums.
 */
export class RoomNoiseJudge {
  private margins: Decibels[] = [];
  private loud = false;

  /** The current judgement. */
  get tooLoud(): boolean {
    return this.loud;
  }

  /** The median margin of the recent utterances over the room, if any were heard over it. */
  get marginDb(): Decibels | undefined {
    if (this.margins.length === 0) return undefined;
    const sorted = [...this.margins].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const upper = sorted[mid] as number;
    return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] as number) + upper) / 2;
  }

  /** An utterance heard `marginDb` over the talking room. True when the judgement changed. */
  heard(marginDb: Decibels): boolean {
    this.margins = [...this.margins, marginDb].slice(-RECENT_UTTERANCES);
    return this.judge((this.marginDb as number) < CLEAR_OVER_ROOM_DB);
  }

  /** The room is not talking (now, or any more). True when the judgement changed. */
  quiet(): boolean {
    this.margins = [];
    return this.judge(false);
  }

  private judge(loud: boolean): boolean {
    const changed = loud !== this.loud;
    this.loud = loud;
    return changed;
  }
}
