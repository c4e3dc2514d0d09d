import type { Decibels, Seconds } from '../units.js';

/** End-pointer settings. */
export interface EndpointerOptions {
  /** Silence that ends an utterance (the product's `streaming_vad_min_silence_length`). */
  minSilence?: Seconds;
  /** Voiced time needed before speech is declared started. */
  minOnset?: Seconds;
  /** Utterances with less speech than this are dropped as noise (a cough, a click). */
  minSpeech?: Seconds;
  /** Audio kept before the detected onset and after the last speech frame. */
  padding?: Seconds;
  /** Longest utterance before it is cut. */
  maxUtterance?: Seconds;
  /** Level above the noise floor that starts speech. */
  onsetDb?: Decibels;
  /** Level above the noise floor that keeps speech going. */
  sustainDb?: Decibels;
  /** Frames quieter than this are never speech. */
  absoluteFloorDb?: Decibels;
  /** Assumed noise level until the stream has shown its own quietest moments. */
  priorNoiseDb?: Decibels;
  /**
   * The floor of a steady room an earlier stream heard (`ListeningRoom.floor`): the stream
   * starts from it instead of `priorNoiseDb`, and takes it for known from the first frame
   * (docs/decisions/0093).
   */
  steadyRoomFloor?: Decibels;
  /** The noise floor is the quietest level over this much recent audio. */
  noiseWindow?: Seconds;
  /** Frame shift of the analysis feeding the end-pointer. */
  frameShift?: Seconds;
  /**
   * An utterance still going after this long is taken for the room talking (a television,
   * a radio, people): it is withdrawn, the room's level becomes the floor speech must rise
   * over, and what rose over it is found again within the withdrawn audio. Absent: never
   * (docs/decisions/0075).
   */
  busyAfter?: Seconds;
  /**
   * As `busyAfter`, for an utterance opened while the floor is still the prior guess: a
   * press begun as a television talks is opened by it at once and held open to the press's
   * end, never reaching `busyAfter`, press after press (docs/decisions/0097). At most
   * `busyAfter`; absent: `busyAfter`.
   */
  busyOverPriorAfter?: Seconds;
  /** The talking room's level is the loud end of this much of its recent sound. */
  roomWindow?: Seconds;
  /**
   * A room an earlier stream heard talking (`roomTalk`), to start from: its words must be
   * risen over from the first frame, and it is heard afresh from there (docs/decisions/0089).
   * Only with `busyAfter`.
   */
  talkingRoom?: RoomTalk;
}

/** A talking room's recent frames outside utterances, and the quietest the stream had been. */
export interface RoomTalk {
  frames: Float32Array;
  quietest: Decibels;
}

/** The lowest noise floor taken: digital silence reads lower than any room. */
const LOWEST_NOISE_FLOOR: Decibels = -85;

/** Level above the noise floor that starts speech, unless `onsetDb` says otherwise. */
export const DEFAULT_ONSET_DB: Decibels = 10;

/** What one frame changed. */
export type EndpointEvent =
  | { type: 'start'; startFrame: number }
  | { type: 'end'; startFrame: number; endFrame: number }
  /** `steadyRoom`: the room's steady sound alone opened it (a fan, a microphone's hiss), not speech. */
  | { type: 'cancel'; startFrame: number; steadyRoom?: true };

/** No events: what most frames return, shared so that a frame allocates nothing. */
const NONE: readonly EndpointEvent[] = Object.freeze([]);

/** Noise windows over which the stream's quietest moment is remembered (20 s by default). */
const QUIET_MEMORY = 10;

/**
 * How far under an utterance's loud level its quiet ends lie (as in `quietEndsOf`): under
 * it, a frame is the room's, not the phrase's.
 */
export const QUIET_END_DB: Decibels = 12;

/**
 * The spread of a steady room's level, between its louder and quieter tenth of frames: a
 * microphone's hiss spreads 0.5 dB; speech, even a word cut close, 4.7 dB or more (FSDD's
 * enrolment and tuning takes).
 */
const STEADY_SPREAD_DB: Decibels = 2;

/** A glimpse of the room within a withdrawn utterance, and the step between two. */
const ROOM_GLIMPSE: Seconds = 1;
const ROOM_STEP: Seconds = 0.5;

/** Quiet ends this long in all are more than a phrase's own: a room talking gave them. */
const ROOM_IN_QUIET_ENDS: Seconds = 1;

/**
 * An utterance still open is looked at every `OPEN_CHECK` for a room talking around the
 * phrase in it, and taken for one with twice the quiet ends: a slow phrase may have a soft
 * stretch after its loudest word so far (a severe speaker's did, in a quiet room, at 1 s).
 */
const OPEN_CHECK: Seconds = 0.1;
const ROOM_IN_OPEN_QUIET_ENDS: Seconds = 2;

/**
 * While the floor is still the prior, shorter quiet ends are the room's only when what came
 * before the phrase talked, for at least `ROOM_BEFORE_PHRASE`; its last `PHRASE_ONSET` is
 * left out, as the phrase's soft first sound and the padding before it lie there.
 */
const ROOM_BEFORE_PHRASE: Seconds = 0.5;
const PHRASE_ONSET: Seconds = 0.2;

/**
 * Where a phrase's loud level lies among the levels of an utterance the room may have
 * opened or kept open (see `roomAround`): its loudest percent, not its loudest twentieth
 * (`loudLevelOf`). People talking for seconds before a phrase of a second are most of the
 * utterance, so its 95th percentile sank to the phrase's soft frames; 12 dB under those,
 * the people's loudest syllables passed for the phrase's own and left no quiet ends to take
 * for the room (docs/decisions/0081).
 */
const PHRASE_PEAK = 0.99;

/**
 * The least speech in an utterance heard over a room's level (`roomLevel`), as `minSpeech`
 * is over the noise floor. Over the loud end of a room's talk only a word's loudest sounds
 * rise `sustainDb`: a short word through a telephone channel ("six", whose s carries little
 * under 4 kHz) has its vowel alone, a tenth of a second, and `minSpeech` took it for a click.
 */
const MIN_SPEECH_OVER_ROOM: Seconds = 0.08;

/** The share of the room's recent frames its level lies over (see `roomLevel`). */
const ROOM_PERCENTILE = 0.9;

/**
 * A steady room's frames swing about their middle: a fan through a telephone channel 4-5 dB
 * either way, so that its loud frames reach `sustainDb` over the floor (its quietest) every
 * few tenths of a second and keep an utterance going long after the word. Once
 * `STEADY_ROOM_HEARD` of it has been heard outside utterances, an utterance is kept going
 * only by frames `OVER_STEADY_ROOM_DB` over the level the room's frames reach
 * (`ROOM_PERCENTILE`) when that lies higher, though never higher than a frame that opens
 * one (docs/decisions/0092).
 */
const OVER_STEADY_ROOM_DB: Decibels = 2;
const STEADY_ROOM_HEARD: Seconds = 0.5;

/**
 * Over a talking room, a frame that rises over the room's level at all opens an utterance
 * when the frames around it sound like the person's voice (`process`'s `voiceDistortion`
 * under `VOICE_OPEN_LINE`), and keeps one going when they sound more surely so
 * (`VOICE_KEEP_LINE`): 10 dB under the person, most of their words never rise `onsetDb`
 * over a television's loud end, but their voice is still theirs. There the person's words
 * read 1.1-1.4 (the median of each set of users), other voices 1.5-3 (docs/decisions/0094).
 */
const VOICE_OPEN_LINE = 1.3;
const VOICE_KEEP_LINE = 1.15;
/** The loudest `VOICE_LOUDEST` of the last `VOICE_WINDOW` frames speak for the voice. */
const VOICE_WINDOW = 10;
const VOICE_LOUDEST = 6;

/**
 * A talking room handed on from an earlier stream (`talkingRoom`) is a room this stream has
 * not heard: the television may have been switched off between two presses. Once the
 * latest `RECALLED_ROOM_HEARD` of the room (this stream's frames, and the newest handed on
 * before them: the last press's own) reach `RECALLED_ROOM_UNDER_DB` under the level handed
 * on, that room is dropped and those frames stand for the room: the person is no longer
 * judged against a room that has gone. Real people talking pause for half a second at
 * times; a drop after 0.3 s or 10 dB under cost them phrases (docs/decisions/0095).
 */
const RECALLED_ROOM_HEARD: Seconds = 1;
const RECALLED_ROOM_UNDER_DB: Decibels = 20;

/** A detected speech region in frame indices, end exclusive. */
export interface Segment {
  startFrame: number;
  endFrame: number;
}

/**
 * Energy end-pointer with an adaptive noise floor and hysteresis. Frame-synchronous and
 * allocation-free per frame, so it runs on a live stream.
 *
 * The noise floor is the quietest recent frame, which in a room that talks all the time (a
 * television, a radio) lies far under the talking, so the talking passes for speech and an
 * utterance never ends. With `busyAfter` set, an utterance that outlasts it is withdrawn and
 * the room's own level becomes the floor until the room goes quiet (docs/decisions/0075).
 */
export class Endpointer {
  readonly minSilenceFrames: number;
  private readonly minOnsetFrames: number;
  private readonly minSpeechFrames: number;
  private readonly minSpeechOverRoomFrames: number;
  /** Audio kept before an onset and after the last speech frame, in frames. */
  readonly padFrames: number;
  /** Longest utterance, in frames. */
  readonly maxFrames: number;
  private readonly onsetDb: number;
  private readonly sustainDb: number;
  private readonly floorDb: number;
  private readonly priorNoiseDb: number;
  /** Whether the prior is a floor heard before (`steadyRoomFloor`), not a guess. */
  private readonly priorHeard: boolean;
  /** The stream's latest frames of sound (digital silence is none), a noise window of them
   * in a ring; the prior where none has been heard yet. */
  private readonly history: Float32Array;
  /** Frames of sound heard so far: where the next goes in `history`. */
  private heard = 0;
  /**
   * The first frame whose floor is made of the stream's own sound alone, once a noise window
   * of it has been heard; Infinity until then. A microphone's first zeros do not count: by
   * frames alone, the prior stayed in their slots of the window and in the floor, and a
   * steady room it opened an utterance over was never withdrawn as its sound.
   */
  private firstWindowEnd = Infinity;
  private frame = 0;
  private inSpeech = false;
  private run = 0;
  private runStart = 0;
  /**
   * Whether the onset run so far, and the open utterance, owe a frame to the person's voice
   * over a talking room (`voiceOverRoom`) rather than to its level.
   */
  private runByVoice = false;
  private openedByVoice = false;
  private start = 0;
  private lastSpeech = 0;
  private voiced = 0;
  /** The quietest frame of each of the last noise windows, and of the current one: the
   * level a room that stops talking falls back to. */
  private readonly windowMins = new Float32Array(QUIET_MEMORY).fill(Infinity);
  private windowMin = Infinity;
  /** Frames an utterance may run before it is taken for the room; Infinity: never. */
  private readonly busyAfterFrames: number;
  /** The same for an utterance opened over the prior floor (`busyOverPriorAfter`). */
  private readonly busyOverPriorFrames: number;
  /** Every recent frame's level and noise floor, as far back as the longest utterance, to
   * hear one again; and room to sort one. */
  private readonly levels: Float32Array;
  private readonly noiseAt: Float32Array;
  private readonly scratch: Float32Array;
  /** The talking room's recent frames outside utterances. */
  private readonly room: Float32Array;
  private roomNext = 0;
  /**
   * The latest frames outside utterances, the end-point silence of them, before they join
   * the room's: those an onset follows are the person's lead-in, not the room's (see
   * `hearRoom`).
   */
  private readonly leadIn: Float32Array;
  private leadInFirst = 0;
  private leadInCount = 0;
  /** The latest frames outside utterances, a noise window of them. */
  private readonly quiet: Float32Array;
  private quietNext = 0;
  private quietCount = 0;
  /** What a frame must rise over the floor to keep an utterance going while no room talks:
   * `sustainDb`, or more over a steady room that swings (`OVER_STEADY_ROOM_DB`). */
  private keepGoingDb: Decibels;
  /** Level the talking room reaches; -Infinity while the room is quiet. */
  private roomDb = -Infinity;
  /**
   * The level of the talking room handed on (`talkingRoom`) while this stream's own frames
   * have not replaced it or heard it again; -Infinity otherwise.
   */
  private recalledDb = -Infinity;
  /** The noise floor of the last frame: the quietest of the last noise window. */
  private noiseDb: Decibels;
  /** The frame the last utterance was withdrawn at: the busy clock restarts there. */
  private withdrawnAt = -Infinity;
  /**
   * The loudest frame of an utterance withdrawn at the first known floor (the room's sound
   * alone, 0077): until the next utterance ends, no frame as quiet keeps one going. A
   * television barely over a loud room's floor opens nothing, but would hold a phrase open
   * until `busyAfter` (0080).
   */
  private roomAloneDb = -Infinity;
  /** `ROOM_GLIMPSE`, `ROOM_STEP`, `ROOM_IN_QUIET_ENDS`, `OPEN_CHECK` and
   * `ROOM_IN_OPEN_QUIET_ENDS`, `ROOM_BEFORE_PHRASE` and `PHRASE_ONSET` in frames. */
  private readonly glimpseFrames: number;
  private readonly stepFrames: number;
  private readonly quietEndsFrames: number;
  private readonly openCheckFrames: number;
  private readonly openQuietEndsFrames: number;
  private readonly roomBeforePhraseFrames: number;
  private readonly phraseOnsetFrames: number;
  private readonly steadyRoomHeardFrames: number;
  private readonly recalledRoomHeardFrames: number;
  /** The latest frames' levels and voice distortions (`VOICE_WINDOW` of them, a ring). */
  private readonly voiceLevels = new Float32Array(VOICE_WINDOW).fill(-Infinity);
  private readonly voiceDistortions = new Float32Array(VOICE_WINDOW).fill(Infinity);
  private readonly voiceOrder = Array.from({ length: VOICE_WINDOW }, (_, i) => i);
  /** How many of those frames were scored against the voice at all. */
  private voiceScored = 0;

  constructor(options: EndpointerOptions = {}) {
    const shift = options.frameShift ?? 0.01;
    const frames = (s: Seconds): number => Math.max(1, Math.round(s / shift));
    this.minSilenceFrames = frames(options.minSilence ?? 0.3);
    this.minOnsetFrames = frames(options.minOnset ?? 0.05);
    this.minSpeechFrames = frames(options.minSpeech ?? 0.12);
    this.minSpeechOverRoomFrames = Math.min(this.minSpeechFrames, frames(MIN_SPEECH_OVER_ROOM));
    this.padFrames = frames(options.padding ?? 0.08);
    this.maxFrames = frames(options.maxUtterance ?? 15);
    this.onsetDb = options.onsetDb ?? DEFAULT_ONSET_DB;
    this.sustainDb = options.sustainDb ?? 6;
    this.floorDb = options.absoluteFloorDb ?? -70;
    this.priorNoiseDb = options.steadyRoomFloor ?? options.priorNoiseDb ?? -66;
    this.priorHeard = options.steadyRoomFloor !== undefined;
    this.history = new Float32Array(frames(options.noiseWindow ?? 2)).fill(this.priorNoiseDb);
    this.noiseDb = this.priorNoiseDb;
    this.keepGoingDb = this.sustainDb;
    const busy = options.busyAfter !== undefined && frames(options.busyAfter) < this.maxFrames;
    this.busyAfterFrames = busy ? frames(options.busyAfter ?? 0) : Infinity;
    this.busyOverPriorFrames = Math.min(
      this.busyAfterFrames,
      options.busyOverPriorAfter === undefined ? Infinity : frames(options.busyOverPriorAfter),
    );
    // An ended utterance is looked at once its end-point silence has passed.
    this.levels = new Float32Array(busy ? this.maxFrames + this.minSilenceFrames + 1 : 0);
    this.scratch = new Float32Array(this.levels.length);
    this.noiseAt = new Float32Array(this.levels.length);
    this.room = new Float32Array(busy ? frames(options.roomWindow ?? 3) : 0);
    this.leadIn = new Float32Array(busy ? this.minSilenceFrames : 0);
    // Live streams only, as the talking room's frames: a take is cut as it always was.
    this.quiet = new Float32Array(busy ? this.history.length : 0);
    this.glimpseFrames = frames(ROOM_GLIMPSE);
    this.stepFrames = frames(ROOM_STEP);
    this.quietEndsFrames = frames(ROOM_IN_QUIET_ENDS);
    this.openCheckFrames = frames(OPEN_CHECK);
    this.openQuietEndsFrames = frames(ROOM_IN_OPEN_QUIET_ENDS);
    this.roomBeforePhraseFrames = frames(ROOM_BEFORE_PHRASE);
    this.phraseOnsetFrames = frames(PHRASE_ONSET);
    this.steadyRoomHeardFrames = Math.min(this.quiet.length, frames(STEADY_ROOM_HEARD));
    this.recalledRoomHeardFrames = Math.min(this.room.length, frames(RECALLED_ROOM_HEARD));
    if (options.talkingRoom !== undefined && this.room.length > 0) this.recall(options.talkingRoom);
  }

  /** Start from a talking room heard before; a room that no longer talks is dropped as usual. */
  private recall({ frames, quietest }: RoomTalk): void {
    if (frames.length === 0) return;
    for (let i = 0; i < this.room.length; i++) {
      this.room[i] = frames[Math.floor((i * frames.length) / this.room.length)] as number;
    }
    this.windowMins[0] = quietest;
    const loud = this.roomLoudEnd();
    if (this.talks(loud)) this.roomDb = this.recalledDb = loud;
  }

  /**
   * A frame of the stream's own room has replaced one of a room handed on: drop that room
   * once the latest `RECALLED_ROOM_HEARD` of the room, this stream's frames and the newest
   * handed on before them (the last press's own), lie far under it.
   */
  private hearOwnRoom(): void {
    if (this.recalledDb === -Infinity) return;
    // The stream's own frames fill the room from its start (`recall`): back there, every
    // frame handed on has been replaced.
    if (this.roomNext === 0) {
      this.recalledDb = -Infinity;
      return;
    }
    const latest = this.scratch.subarray(0, this.recalledRoomHeardFrames);
    const size = this.room.length;
    for (let i = 0; i < latest.length; i++)
      latest[i] = this.room[(this.roomNext - 1 - i + size) % size] as number;
    if (this.reachOf(latest) >= this.recalledDb - RECALLED_ROOM_UNDER_DB) return;
    // The room is what was heard of it lately (in level order: only levels are read).
    for (let i = 0; i < size; i++) this.room[i] = latest[i % latest.length] as number;
    this.roomNext = 0;
    this.recalledDb = -Infinity;
  }

  /** True between a start event and its end or cancel event. */
  get speaking(): boolean {
    return this.inSpeech;
  }

  /** While the room talks (see `busyAfter`): the level it reaches, which speech must rise over. */
  get roomLevel(): Decibels | undefined {
    return this.roomDb === -Infinity ? undefined : this.roomDb;
  }

  /**
   * Whether the room's level is a room talking: it reaches over the quietest the stream
   * has been as an utterance does. A steady room (a fan) heard before a press's phrase has
   * a level too (`roomAround`), but only as loud as its own quiet.
   */
  get roomTalks(): boolean {
    return this.roomDb !== -Infinity && this.talks(this.roomDb);
  }

  /** The talking room as heard so far, for a later stream to start from; undefined unless it talks. */
  get roomTalk(): RoomTalk | undefined {
    if (!this.roomTalks) return undefined;
    const frames = new Float32Array(this.room.length);
    for (let i = 0; i < frames.length; i++)
      frames[i] = this.room[(this.roomNext + i) % frames.length] as number;
    return { frames, quietest: this.quietest() };
  }

  /** The noise floor speech rose over at the last frame: the quietest of the last noise window. */
  get noiseLevel(): Decibels {
    return this.noiseDb;
  }

  /**
   * Whether the floor is the room's: a whole noise window has been heard, or the stream began
   * from a steady room's floor heard before (before that the floor is partly a guess).
   */
  get floorKnown(): boolean {
    return this.priorHeard || this.frame >= this.firstWindowEnd;
  }

  /** Level above the floor that starts speech. */
  get onsetMargin(): Decibels {
    return this.onsetDb;
  }

  /**
   * While speaking and already past the end padding in silence: the frame the utterance
   * will end at if the silence holds. Lets a decoder start work before the end-point.
   */
  get provisionalEnd(): number | undefined {
    // A third of the end-point silence: early enough to finish before the end-point even
    // with 0.2 s chunks, late enough that short pauses between words rarely trigger it.
    const wait = Math.max(this.padFrames, Math.round(this.minSilenceFrames / 3));
    if (!this.inSpeech || this.frame - 1 - this.lastSpeech < wait) return undefined;
    return this.lastSpeech + 1 + this.padFrames;
  }

  /**
   * The earliest start frame an utterance not yet started can still get: its onset may
   * have begun up to the onset time ago, and its start is padded before that.
   */
  get earliestNextStart(): number {
    return this.frame - this.minOnsetFrames - this.padFrames;
  }

  /** Start frame of the open utterance. */
  get utteranceStart(): number {
    return this.start;
  }

  /** The last frame heard as speech (in the utterance now, or the last one). */
  get lastSpeechFrame(): number {
    return this.lastSpeech;
  }

  /** Index of the next frame to be processed. */
  get frameIndex(): number {
    return this.frame;
  }

  /**
   * Process one frame's energy, and how unlike the person's voice it sounds when the stream
   * knows (`voiceDistortion`); returns the events it caused, usually none.
   */
  process(energyDb: Decibels, voiceDistortion?: number): readonly EndpointEvent[] {
    const t = this.frame++;
    this.voiceLevels[t % VOICE_WINDOW] = energyDb;
    const distortion = voiceDistortion ?? Infinity;
    const replaced = this.voiceDistortions[t % VOICE_WINDOW] as number;
    this.voiceScored += Number(distortion !== Infinity) - Number(replaced !== Infinity);
    this.voiceDistortions[t % VOICE_WINDOW] = distortion;
    // Minimum statistics: the quietest recent frame is the noise. Until a full window has
    // passed the prior stays in the window, so a stream that opens mid-word still starts.
    let noise = Infinity;
    for (let i = 0; i < this.history.length; i++) noise = Math.min(noise, this.history[i] as number);
    // Digital silence (a microphone's first samples, a muted input) is no room: it would
    // pull the floor far under the room's sound, which then opens an utterance.
    if (energyDb > LOWEST_NOISE_FLOOR) {
      this.history[this.heard++ % this.history.length] = energyDb;
      if (this.heard === this.history.length) this.firstWindowEnd = t + 1;
    }
    noise = Math.max(noise, LOWEST_NOISE_FLOOR);
    this.noiseDb = noise;
    // Nor is it the quietest the room has been: against it, any room would talk.
    if (energyDb > LOWEST_NOISE_FLOOR) this.windowMin = Math.min(this.windowMin, energyDb);
    if ((t + 1) % this.history.length === 0) {
      this.windowMins[((t + 1) / this.history.length) % this.windowMins.length] = this.windowMin;
      this.windowMin = Infinity;
    }
    if (this.levels.length > 0) {
      this.levels[t % this.levels.length] = energyDb;
      this.noiseAt[t % this.levels.length] = noise;
    }
    // The first frame whose floor is the room's own: an utterance opened over the prior
    // with nothing in it that opens one over this floor was the room's sound, not speech
    // (a press to talk in a room louder than the prior, the person slow to begin; 0077).
    // One the person's voice opened over a talking room handed on is theirs (0099).
    if (
      t === this.firstWindowEnd &&
      this.inSpeech &&
      !this.openedByVoice &&
      !this.opensOver(this.start, t, Math.max(noise, this.roomDb))
    ) {
      const cancel: EndpointEvent = { type: 'cancel', startFrame: this.start, steadyRoom: true };
      this.inSpeech = false;
      this.run = 0;
      for (let u = this.start; u < t; u++) this.roomAloneDb = Math.max(this.roomAloneDb, this.level(u));
      return [cancel, ...this.frameEvents(t, energyDb, noise)];
    }
    return this.frameEvents(t, energyDb, noise);
  }

  /** The events of frame `t` once its noise floor is known. */
  private frameEvents(t: number, energyDb: Decibels, noise: Decibels): readonly EndpointEvent[] {
    const event = this.step(t, energyDb, Math.max(noise, this.roomDb));
    // Digital silence does not say the room went quiet either: the app mutes the microphone
    // while it talks, and a talking room judged over that silence was dropped (0124).
    if (!this.inSpeech && this.run === 0 && energyDb > LOWEST_NOISE_FLOOR) {
      this.hearQuiet(t, energyDb, noise);
      if (this.roomDb !== -Infinity) this.hearRoom(energyDb);
    }
    if (this.inSpeech && t + 1 - Math.max(this.start, this.withdrawnAt) >= this.busyFrames()) {
      return this.withdraw(t);
    }
    if (this.roomDb === -Infinity && this.levels.length > 0) {
      // An ended utterance; and now and then an open one, as it would end now, so that a
      // phrase the room keeps open need not wait for `busyAfter`.
      const again =
        event?.type === 'end'
          ? this.roomAround(event.startFrame, event.endFrame, t, this.quietEndsFrames)
          : this.inSpeech && (t + 1 - this.start) % this.openCheckFrames === 0
            ? this.roomAround(
                this.start,
                Math.min(t + 1, this.lastSpeech + 1 + this.padFrames),
                t,
                this.openQuietEndsFrames,
              )
            : undefined;
      if (again !== undefined) return again;
    }
    return event === undefined ? NONE : [event];
  }

  /** How long the open utterance may run before it is taken for the room. */
  private busyFrames(): number {
    const overPrior = !this.priorHeard && this.start < this.firstWindowEnd && this.withdrawnAt === -Infinity;
    return overPrior ? this.busyOverPriorFrames : this.busyAfterFrames;
  }

  /**
   * Whether any of the frames from `from` up to `to` would open an utterance over `floor`.
   * Without kept levels (no `busyAfter`) they cannot be looked at again: true.
   */
  private opensOver(from: number, to: number, floor: Decibels): boolean {
    if (this.levels.length === 0) return true;
    let run = 0;
    for (let u = from; u < to; u++) {
      run = this.rises(this.level(u), floor, this.onsetDb) ? run + 1 : 0;
      if (run >= this.minOnsetFrames) return true;
    }
    return false;
  }

  /**
   * Whether the open utterance may be the room's steady sound alone: opened while the floor
   * is the prior guess, nothing in it rises over the quietest sound heard so far, as the
   * first known floor will judge it (0077), and its level holds as steady as a fan's or a
   * microphone's hiss does. A steady room louder than the guess (a laptop's hiss) opens one
   * as a stream begins. Steadiness keeps a word the stream holds nothing but: a take cut
   * close to its word may lie within 8 dB, but spreads 4.7 dB or more.
   */
  get mayBeSteadyRoom(): boolean {
    return (
      this.inSpeech &&
      !this.floorKnown &&
      !this.openedByVoice &&
      !this.opensOver(this.start, this.frame, this.quietestHeard()) &&
      this.levelSpread(this.start, this.frame) <= STEADY_SPREAD_DB
    );
  }

  /** How far apart the louder and the quieter tenth of the frames from `from` up to `to` lie. */
  private levelSpread(from: number, to: number): Decibels {
    const sorted = this.scratch.subarray(0, to - from);
    for (let u = from; u < to; u++) sorted[u - from] = this.level(u);
    sorted.sort();
    const at = (share: number) => sorted[Math.floor(share * (sorted.length - 1))] as number;
    return at(0.9) - at(0.1);
  }

  /**
   * Close an open utterance at the end of the stream. One that may be the steady room's
   * alone is withdrawn as such: a press shorter than a noise window in a laptop's hiss was
   * answered as if someone had spoken.
   */
  flush(): EndpointEvent | undefined {
    if (!this.inSpeech) return undefined;
    if (this.mayBeSteadyRoom) {
      this.inSpeech = false;
      this.run = 0;
      return { type: 'cancel', startFrame: this.start, steadyRoom: true };
    }
    return this.finish(this.frame);
  }

  /** The quietest sound the stream has heard while its first noise window fills. */
  private quietestHeard(): Decibels {
    let quietest = Infinity;
    for (let i = 0; i < Math.min(this.heard, this.history.length); i++)
      quietest = Math.min(quietest, this.history[i] as number);
    return quietest;
  }

  /** Whether a frame at `energyDb` counts as speech `marginDb` over `floor`. */
  private rises(energyDb: Decibels, floor: Decibels, marginDb: Decibels): boolean {
    return energyDb > this.floorDb && energyDb > floor + marginDb;
  }

  /** One frame of the speech/silence state machine, speech being `onsetDb` over `floor`
   * (then `sustainDb` over it, or over a steady room's swing, and louder than the room was
   * alone). */
  private step(t: number, energyDb: Decibels, floor: Decibels): EndpointEvent | undefined {
    const keepGoing = this.roomDb === -Infinity ? this.keepGoingDb : this.sustainDb;
    const overLevel = !this.inSpeech && this.rises(energyDb, floor, this.onsetDb);
    const loud = this.inSpeech
      ? (this.rises(energyDb, floor, keepGoing) && energyDb > this.roomAloneDb) ||
        this.voiceOverRoom(energyDb, floor, VOICE_KEEP_LINE)
      : overLevel || this.voiceOverRoom(energyDb, floor, VOICE_OPEN_LINE);
    if (!this.inSpeech) {
      if (loud) {
        if (this.run === 0) {
          this.runStart = t;
          this.runByVoice = false;
        }
        this.runByVoice ||= !overLevel;
        this.run++;
        if (this.run >= this.minOnsetFrames) {
          this.openedByVoice = this.runByVoice;
          this.inSpeech = true;
          this.start = Math.max(0, this.runStart - this.padFrames);
          this.lastSpeech = t;
          this.voiced = this.run;
          this.run = 0;
          this.leadInCount = 0;
          return { type: 'start', startFrame: this.start };
        }
      } else {
        this.run = 0;
      }
      return undefined;
    }
    if (loud) {
      this.lastSpeech = t;
      this.voiced++;
    }
    if (t - this.lastSpeech >= this.minSilenceFrames || t + 1 - this.start >= this.maxFrames) {
      return this.finish(t + 1);
    }
    return undefined;
  }

  /**
   * A frame of the talking room outside any utterance: the room's level follows it, once
   * the end-point silence has passed without an onset. The person's soft sounds just before
   * a word that rises over the room (a breath, a soft first syllable, a quiet word before a
   * stressed one) would otherwise lift the level every later word must rise over: with
   * people talking 10 dB under a moderate synthetic speaker, hands-free, 28 % of the phrases
   * were understood, 41 % without them (docs/decisions/0090).
   */
  private hearRoom(energyDb: Decibels): void {
    const size = this.leadIn.length;
    if (this.leadInCount < size) {
      this.leadIn[(this.leadInFirst + this.leadInCount++) % size] = energyDb;
      return;
    }
    const heard = this.leadIn[this.leadInFirst] as number;
    this.leadIn[this.leadInFirst] = energyDb;
    this.leadInFirst = (this.leadInFirst + 1) % size;
    this.room[this.roomNext] = heard;
    this.roomNext = (this.roomNext + 1) % this.room.length;
    this.hearOwnRoom();
    const loud = this.roomLoudEnd();
    this.roomDb = this.talks(loud) ? loud : -Infinity;
  }

  /**
   * A frame outside utterances: what keeps an utterance going follows how far the latest of
   * them reach over the floor (`OVER_STEADY_ROOM_DB`), looked at every `OPEN_CHECK`. A room
   * whose frames reach what opens an utterance talks: that is `roomLevel`'s to follow.
   */
  private hearQuiet(t: number, energyDb: Decibels, noise: Decibels): void {
    if (this.quiet.length === 0) return;
    this.quiet[this.quietNext] = energyDb;
    this.quietNext = (this.quietNext + 1) % this.quiet.length;
    this.quietCount = Math.min(this.quiet.length, this.quietCount + 1);
    if (this.quietCount < this.steadyRoomHeardFrames || t % this.openCheckFrames !== 0) return;
    const reach = this.reachOf(this.quiet.subarray(0, this.quietCount));
    this.keepGoingDb = this.talks(reach)
      ? this.sustainDb
      : Math.min(this.onsetDb, Math.max(this.sustainDb, reach + OVER_STEADY_ROOM_DB - noise));
  }

  /**
   * Whether a frame at `energyDb` over a talking room (`floor` its level) is the person's
   * by their voice: it rises over the room, and the latest frames' loudest read under
   * `line` (see `VOICE_OPEN_LINE`).
   */
  private voiceOverRoom(energyDb: Decibels, floor: Decibels, line: number): boolean {
    // Unscored frames read as unlike as can be: with none scored there is nothing to sort.
    if (this.voiceScored === 0 || !this.roomTalks || !this.rises(energyDb, floor, 0)) return false;
    const order = this.voiceOrder;
    order.sort((a, b) => (this.voiceLevels[b] as number) - (this.voiceLevels[a] as number));
    let sum = 0;
    for (let i = 0; i < VOICE_LOUDEST; i++) sum += this.voiceDistortions[order[i] as number] as number;
    return sum / VOICE_LOUDEST < line;
  }

  /** The level the room's recent frames reach. */
  private roomLoudEnd(): Decibels {
    return this.reachOf(this.room);
  }

  /** The level `ROOM_PERCENTILE` of `levels` lie under, sorted in the scratch space. */
  private reachOf(levels: Float32Array): Decibels {
    const sorted = this.scratch.subarray(0, levels.length);
    sorted.set(levels);
    sorted.sort();
    return sorted[Math.floor(ROOM_PERCENTILE * (sorted.length - 1))] as number;
  }

  /** Whether a room that reaches `level` talks: it could open an utterance over the
   * quietest the stream has been lately. */
  private talks(level: Decibels): boolean {
    return level >= this.quietest() + this.onsetDb;
  }

  /** The quietest frame of the last `QUIET_MEMORY` noise windows. */
  private quietest(): Decibels {
    let quietest = this.windowMin;
    for (const m of this.windowMins) quietest = Math.min(quietest, m);
    return quietest;
  }

  /**
   * The open utterance has run `busyAfter`: it is the room talking. Hear the room in it
   * and hear it again over the room. The user may have spoken for much of it (a slow
   * speaker's phrase bridges the room's pauses), so the room is first glimpsed in its
   * quietest second (the one whose loud end is lowest), and then is every frame of it
   * less than `sustainDb` over that, the latest first.
   */
  private withdraw(t: number): readonly EndpointEvent[] {
    const from = this.start;
    const glimpse = this.scratch.subarray(0, this.glimpseFrames);
    let lowest = Infinity;
    for (let at = from; at + glimpse.length <= t + 1; at += this.stepFrames) {
      for (let i = 0; i < glimpse.length; i++) glimpse[i] = this.level(at + i);
      glimpse.sort();
      lowest = Math.min(lowest, glimpse[Math.floor(ROOM_PERCENTILE * (glimpse.length - 1))] as number);
    }
    let heard = 0;
    for (let u = t; u >= from && heard < this.room.length; u--) {
      if (this.level(u) < lowest + this.sustainDb) this.room[heard++] = this.level(u);
    }
    // Too few (a room that rarely fell that low): they stand for the rest.
    for (let i = heard; i < this.room.length; i++) this.room[i] = this.room[i % heard] as number;
    this.roomNext = 0;
    this.leadInCount = 0;
    this.recalledDb = -Infinity;
    this.withdrawnAt = t;
    return this.hearAgain(from, t, this.roomLoudEnd());
  }

  /**
   * An utterance (its frames `from` up to `to`, ended or still open at `t`) with quiet ends
   * of `minQuiet` frames or more: the frames before the first and after the last within
   * `QUIET_END_DB` of its phrase's loud level (`PHRASE_PEAK`), where a phrase has none
   * longer than a breath. When they sound like talking they are the room, which opened the
   * utterance or kept it open around the phrase; then the utterance is heard again over the
   * room. A steady room that opened it over the prior floor is heard again from the phrase;
   * once the floor is known, quiet ends as long as an open utterance's are the room's even
   * when it does not talk.
   */
  private roomAround(
    from: number,
    to: number,
    t: number,
    minQuiet: number,
  ): readonly EndpointEvent[] | undefined {
    const own = this.scratch.subarray(0, to - from);
    for (let u = from; u < to; u++) own[u - from] = this.level(u);
    const { lead, tail } = quietEndsOf(own, QUIET_END_DB, 1, PHRASE_PEAK);
    const quiet = lead + tail;
    if (quiet < minQuiet) return undefined;
    // Opened while the floor was still the prior, with time enough before the phrase for the
    // room to have been heard there.
    const overPrior = from < this.firstWindowEnd;
    const roomBefore = lead >= this.roomBeforePhraseFrames;
    // The frames the room is heard in: both ends, or the lead alone (below).
    let [head, end] = [lead, tail];
    if (overPrior && quiet < this.openQuietEndsFrames) {
      // Until a noise window has passed the floor is a guess (the prior): an utterance may
      // open on a quiet room's own sound and end on the phrase's soft last word. Ends this
      // short are the room's only when it talked before the phrase (a press begun as a
      // television or people talk, their words opening the utterance; 0079).
      if (!roomBefore) return undefined;
      [head, end] = [lead - this.phraseOnsetFrames, 0];
    }
    for (let i = 0; i < this.room.length; i++) {
      const k = i % (head + end);
      this.room[i] = own[k < head ? k : own.length - end + (k - head)] as number;
    }
    this.roomNext = 0;
    this.leadInCount = 0;
    this.recalledDb = -Infinity;
    const roomDb = this.roomLoudEnd();
    // A room too soft to talk (a voice 20 dB under a quiet speaker, a fan through a telephone
    // line) may still rise `sustainDb` over the floor every few tenths of a second and hold
    // the phrase open until `busyAfter`. Once the floor is known, the open look's quiet ends
    // are more than a phrase's own, whatever the room (docs/decisions/0091).
    if (this.talks(roomDb) || (!overPrior && quiet >= this.openQuietEndsFrames))
      return this.hearAgain(from, t, roomDb);
    // A steady room (a fan) opened the utterance over the prior floor, as a press began:
    // half a second or more of it before the phrase is no part of the phrase either. Heard
    // again from the phrase's onset over the room's level, the utterance starts where the
    // phrase does and ends with it (docs/decisions/0083).
    if (overPrior && roomBefore) return this.hearAgain(from, t, roomDb, from + lead - this.phraseOnsetFrames);
    return undefined;
  }

  /**
   * Withdraw the utterance that began at `from`, and hear its frames up to `t` again over
   * the room's level, so that a phrase said within it still gets an utterance of its own;
   * from `replayFrom` when what comes before it is known to be the room's.
   */
  private hearAgain(from: number, t: number, roomDb: Decibels, replayFrom = from): EndpointEvent[] {
    this.roomDb = roomDb;
    const events: EndpointEvent[] = [{ type: 'cancel', startFrame: from }];
    this.inSpeech = false;
    this.run = 0;
    for (let u = replayFrom; u <= t; u++) {
      const event = this.step(
        u,
        this.level(u),
        Math.max(this.noiseAt[u % this.levels.length] as number, roomDb),
      );
      if (event !== undefined) events.push(event);
    }
    return events;
  }

  private level(u: number): Decibels {
    return this.levels[u % this.levels.length] as number;
  }

  private finish(limit: number): EndpointEvent {
    this.inSpeech = false;
    this.roomAloneDb = -Infinity;
    this.run = 0;
    const startFrame = this.start;
    // Over a room's level, or a steady room's swing, only a word's loudest sounds count as
    // speech (docs/decisions/0087, 0092).
    const overRoom = this.roomDb !== -Infinity || this.keepGoingDb > this.sustainDb;
    const least = overRoom ? this.minSpeechOverRoomFrames : this.minSpeechFrames;
    if (this.voiced < least) return { type: 'cancel', startFrame };
    const endFrame = Math.min(limit, this.lastSpeech + 1 + this.padFrames);
    return { type: 'end', startFrame, endFrame };
  }
}

/**
 * How far an utterance's loud frames (`loudLevelOf`) rise over its quietest frame: over the
 * room heard in its padding and its pauses. Digital silence is left out, as the noise floor
 * leaves it out; undefined when nothing else is left.
 */
export function riseOf(levels: ArrayLike<number>): Decibels | undefined {
  let quietest = Infinity;
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] as number;
    if (level > LOWEST_NOISE_FLOOR && level < quietest) quietest = level;
  }
  return Number.isFinite(quietest) ? loudLevelOf(levels) - quietest : undefined;
}

/** The level an utterance's loud frames reach: the `at` percentile of its `levels`
 * (the 95th unless told). */
export function loudLevelOf(levels: ArrayLike<number>, at = 0.95): Decibels {
  const sorted = Float64Array.from(levels).sort();
  return sorted[Math.floor(at * (sorted.length - 1))] ?? -Infinity;
}

/**
 * The frames (taken `group` at a time) at each end of an utterance's `levels` before its
 * first and after its last within `belowDb` of its loud level (`loudLevelOf` at `loudAt`):
 * another voice in the room, quieter than the user, around their phrase (docs/decisions/0074,
 * 0075).
 */
export function quietEndsOf(
  levels: ArrayLike<number>,
  belowDb: Decibels,
  group = 1,
  loudAt?: number,
): { lead: number; tail: number } {
  if (levels.length === 0) return { lead: 0, tail: 0 };
  const n = Math.max(1, Math.floor(levels.length / group));
  const loud = loudLevelOf(levels, loudAt) - belowDb;
  const isLoud = (t: number): boolean => {
    for (let d = 0; d < group; d++) if ((levels[t * group + d] ?? -Infinity) >= loud) return true;
    return false;
  };
  let lead = 0;
  while (lead < n && !isLoud(lead)) lead++;
  let tail = 0;
  while (tail < n - lead && !isLoud(n - 1 - tail)) tail++;
  return { lead, tail };
}

/** Run the end-pointer over a whole recording and return its speech regions. */
export function findSegments(energiesDb: ArrayLike<number>, options: EndpointerOptions = {}): Segment[] {
  const ep = new Endpointer(options);
  const segments: Segment[] = [];
  const take = (e: EndpointEvent | undefined): void => {
    if (e?.type === 'end') segments.push({ startFrame: e.startFrame, endFrame: e.endFrame });
  };
  for (let i = 0; i < energiesDb.length; i++) ep.process(energiesDb[i] as number).forEach(take);
  take(ep.flush());
  return segments;
}

/**
 * The silences between consecutive segments as a live end-pointer counts them, in frames:
 * from the last speech frame of one to the first of the next. The gap between two
 * segments is shorter by the padding on both sides; an utterance stays whole live only
 * if its `minSilence` is longer than each of these.
 */
export function silencesBetween(segments: readonly Segment[], options: EndpointerOptions = {}): number[] {
  const padding = 2 * new Endpointer(options).padFrames;
  return segments.slice(1).map((s, i) => s.startFrame - (segments[i] as Segment).endFrame + padding);
}
