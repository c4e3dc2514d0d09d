import { SpectralAnalyser, type FeatureMatrix, type SpectralFrame } from '../features/features.js';
import { spanFeatures, type PhoneView } from '../model/features-of-take.js';
import { defaultFrontEnd, type Profile } from '../model/profile.js';
import { frameDistortion, VOICE_LIKE_LINE, voiceDistortion } from '../model/voice-print.js';
import type { Decibels, Seconds } from '../units.js';
import { Endpointer, loudLevelOf, type EndpointEvent, type EndpointerOptions } from '../vad/endpointer.js';
import { RoomNoiseJudge, VoiceLevel, type ListeningRoom, type RoomNoiseCause } from '../vad/room-noise.js';
import type { Matcher, Recognition } from './matcher.js';

/** An utterance whose end-point has passed: where its final starts and ends, and what it is. */
export interface EndedUtterance {
  start: Seconds;
  end: Seconds;
  result: Recognition;
}

/** Events a stream emits, in order. */
export type StreamEvent =
  | { type: 'speech-start'; time: Seconds }
  | { type: 'partial'; text: string; time: Seconds }
  /**
   * `generic` marks an answer of the generic path for a phrase not recorded yet (0102),
   * `seconded` a rejected guess (or a guess of an acceptance in doubt, 0123) the generic
   * path named too (0103), `doubted` an acceptance in doubt it did not name (0104).
   */
  | ({
      type: 'final';
      start: Seconds;
      end: Seconds;
      generic?: true;
      seconded?: true;
      doubted?: true;
    } & Recognition)
  /** `steadyRoom`: what was heard was the room's steady sound alone, not speech (0077). */
  | { type: 'speech-cancelled'; time: Seconds; steadyRoom?: true }
  /** The room became too loud for the user to be understood, or stopped being. */
  | {
      type: 'room-noise';
      tooLoud: boolean;
      /** What drowns the user: other voices (a room that talks) or steady noise. */
      cause: RoomNoiseCause;
      marginDb: Decibels | undefined;
      time: Seconds;
    };

/** Stream settings. */
export interface StreamOptions {
  /** Silence that ends an utterance; defaults to the profile's learned value (at least 0.3 s). */
  minSilence?: Seconds;
  /** Emit partial hypotheses this often while speech goes on; 0 turns them off. */
  partialInterval?: Seconds;
  /** Further end-pointer tuning. */
  endpointer?: Omit<EndpointerOptions, 'minSilence'>;
  /** Alternatives reported with each final result. */
  maxAlternatives?: number;
  /**
   * The room as the person's earlier streams of this session left it (see
   * {@link ListeningRoom}); without it the stream learns the room alone and forgets it when
   * it ends.
   */
  room?: ListeningRoom;
  /**
   * A rejected utterance followed by more speech within this much silence is decoded again
   * together with it (see {@link RecognitionStream}); 0 turns this off. Defaults to twice
   * the end-point silence, at most {@link JOIN_WITHIN}.
   */
  joinWithin?: Seconds;
}

/** The longest default join window: the longest end-point silence a profile learns. */
export const JOIN_WITHIN: Seconds = 1.5;

/**
 * How long an utterance may run before the stream takes it for the room talking: twice the
 * user's longest phrase, and never under 5 s (docs/decisions/0075).
 */
export function busyAfter(profile: Profile): Seconds {
  return Math.max(5, 2 * longestPhrase(profile));
}

/**
 * The same for an utterance opened before the stream knew its room's floor, as a press
 * begins: three times the user's longest phrase, as such an utterance holds the wait before
 * the phrase too, and never under 3 s, a second after the first noise window's check has
 * cancelled what a steady room opened (docs/decisions/0077, 0097). A press begun as a
 * television talks 10 dB under a person of single words was held open by it to the press's
 * end, press after press, and the room was never learnt.
 */
export function busyOverPriorAfter(profile: Profile): Seconds {
  return Math.max(3, 3 * longestPhrase(profile));
}

/** The duration of the user's longest template. */
function longestPhrase(profile: Profile): Seconds {
  const fe = defaultFrontEnd();
  const frames = profile.templates.reduce((n, t) => Math.max(n, t.frames), 0);
  return (frames * profile.settings.decimation * fe.hopSamples) / fe.sampleRate;
}

/** What a final result says and where its utterance starts (earlier than its own when joined). */
interface Outcome {
  start: number;
  result: Recognition;
}

/**
 * A live recognition stream. Push 16 kHz mono chunks of any size; each push returns the
 * events it caused. Analysis runs as audio arrives, so at the end-point only matching is
 * left to do. One stream can carry many utterances (dictation): each gets its own final.
 *
 * A hesitation longer than the end-point silence cuts a phrase in two, and each half is
 * rejected. So when an utterance was rejected and the next one starts soon after, the next
 * final is decided on both together: if the joined utterance is recognised (as the same
 * phrase as the new one alone, or more surely), its final covers both (its `start` is the
 * first one's) and stands for the first as well; otherwise the new one is judged alone.
 * A rejected final is therefore held back until the join window has passed in silence,
 * the next final is decided, or the stream ends: the app never tells a user who is only
 * pausing that it did not understand.
 */
export class RecognitionStream {
  private readonly matcher: Matcher;
  private readonly analyser: SpectralAnalyser;
  private readonly endpointer: Endpointer;
  private readonly frameShift: Seconds;
  private readonly partialFrames: number;
  private readonly keepFrames: number;
  private readonly maxAlternatives: number;
  /** Most frames between a rejected utterance's end and the next one's start for them to be joined. */
  private readonly joinFrames: number;
  /** The rejected utterance (or run of them) the next one may be joined to, in frames. */
  private rejected: { start: number; end: number } | undefined;
  /** The rejected final not yet emitted, while the next utterance may still take it in (a
   * `speech-cancelled` when it was the room's). */
  private held: StreamEvent | undefined;
  /** Frames from `bufferStart` on; trimmed while nobody speaks. */
  private buffer: SpectralFrame[] = [];
  private bufferStart = 0;
  private utteranceStart = -1;
  private lastPartialFrame = 0;
  private lastPartial = '';
  /** The matcher's phone view with this stream's own cache of scored frames. */
  private readonly phoneView: PhoneView | undefined;
  /** Result computed while waiting out the end-point silence, keyed by its end frame. */
  private speculative: { start: number; end: number; outcome: Outcome } | undefined;
  private ended: EndedUtterance | undefined;
  /** Whether the room is too loud to hear the user over (docs/decisions/0076). */
  private readonly room: RoomNoiseJudge;
  /** The session's room (`options.room`), whose judgement is left standing at the end. */
  private readonly session: ListeningRoom | undefined;
  /** The person's voice, which the room's utterances lie far under (docs/decisions/0078). */
  private readonly voice: VoiceLevel;
  /** Whether a phrase of the person's has been understood in this stream. */
  private understood = false;
  /** Utterances heard, and whether one was withdrawn (the room opened it): see `steadyFloor`. */
  private utterances = 0;
  private roomOpened = false;

  constructor(matcher: Matcher, options: StreamOptions = {}) {
    this.matcher = matcher;
    this.phoneView =
      matcher.phoneView === undefined
        ? undefined
        : { ...matcher.phoneView, cache: { origin: 0, rows: new Map() } };
    const fe = defaultFrontEnd();
    this.analyser = new SpectralAnalyser(fe, 0, this.phoneView !== undefined);
    this.frameShift = fe.hopSamples / fe.sampleRate;
    this.endpointer = new Endpointer({
      busyAfter: busyAfter(matcher.profile),
      busyOverPriorAfter: busyOverPriorAfter(matcher.profile),
      ...(options.room?.talk === undefined ? {} : { talkingRoom: options.room.talk }),
      ...(options.room?.floor === undefined ? {} : { steadyRoomFloor: options.room.floor }),
      ...options.endpointer,
      frameShift: this.frameShift,
      minSilence: options.minSilence ?? matcher.profile.minSilence,
    });
    this.session = options.room;
    this.room = options.room?.judge ?? new RoomNoiseJudge(this.endpointer.onsetMargin);
    this.voice = options.room?.voice ?? new VoiceLevel();
    this.partialFrames = Math.round((options.partialInterval ?? 0.4) / this.frameShift);
    this.keepFrames = 50;
    this.maxAlternatives = options.maxAlternatives ?? 3;
    const minSilence = this.endpointer.minSilenceFrames * this.frameShift;
    this.joinFrames = Math.round(
      (options.joinWithin ?? Math.min(JOIN_WITHIN, 2 * minSilence)) / this.frameShift,
    );
  }

  /**
   * While an utterance is heard: where its speech has reached so far. Its end is no earlier,
   * so audio up to here belongs to it.
   */
  get speechUntil(): Seconds | undefined {
    return this.endpointer.speaking ? (this.endpointer.lastSpeechFrame + 1) * this.frameShift : undefined;
  }

  /**
   * While the end-point silence is waited out: the final the utterance will get if no more
   * speech comes (decided ahead, {@link push}), and where that final starts and ends.
   */
  get expected(): { start: Seconds; end: Seconds; result: Recognition } | undefined {
    const spec = this.speculative;
    if (spec === undefined || this.endpointer.provisionalEnd !== spec.end) return undefined;
    return {
      start: spec.outcome.start * this.frameShift,
      end: spec.end * this.frameShift,
      result: spec.outcome.result,
    };
  }

  /**
   * The last utterance whose end-point has passed: where its final starts and ends, and what
   * it is. The final may come later (a rejected one is held, to be joined to what follows).
   */
  get lastEnded(): EndedUtterance | undefined {
    return this.ended;
  }

  /** Feed audio; returns speech start, partials and finals caused by it. */
  push(chunk: Float32Array): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const frame of this.analyser.push(chunk)) {
      this.buffer.push(frame);
      for (const event of this.endpointer.process(frame.energyDb, this.unlikeTheVoice(frame)))
        this.handle(event, events);
    }
    // A room that stops (or starts) talking is judged afresh.
    if (this.room.room(this.roomCause())) events.push(this.roomNoise());
    if (
      this.rejected !== undefined &&
      !this.endpointer.speaking &&
      this.endpointer.earliestNextStart - this.rejected.end > this.joinFrames
    ) {
      this.rejected = undefined;
      this.release(events);
    }
    if (!this.endpointer.speaking && this.buffer.length > this.keepFrames * 2) {
      // Frames of a rejected utterance stay while the next one may still be joined to it.
      const keepFrom = this.rejected?.start ?? Infinity;
      const drop = Math.max(0, Math.min(this.buffer.length - this.keepFrames, keepFrom - this.bufferStart));
      this.buffer = this.buffer.slice(drop);
      this.bufferStart += drop;
    }
    const provisional = this.endpointer.provisionalEnd;
    if (provisional !== undefined) {
      // The user has paused: decode now, during the silence the end-pointer must wait out
      // anyway, so the final result is ready the moment the end-point is confirmed.
      const start = this.endpointer.utteranceStart;
      if (this.speculative?.end !== provisional || this.speculative.start !== start) {
        this.speculative = { start, end: provisional, outcome: this.decide(start, provisional) };
      }
    } else if (this.endpointer.speaking && this.partialFrames > 0) {
      const now = this.endpointer.frameIndex;
      if (
        now - this.lastPartialFrame >= this.partialFrames &&
        now - this.utteranceStart >= this.partialFrames &&
        // Asked only when a guess is due: a guess at the room's steady sound alone would
        // flash up as if the person had spoken.
        !this.endpointer.mayBeSteadyRoom
      ) {
        this.lastPartialFrame = now;
        const text = this.matcher.guess(this.features(this.utteranceStart, now, true));
        if (text !== null && text !== this.lastPartial) {
          this.lastPartial = text;
          events.push({ type: 'partial', text, time: now * this.frameShift });
        }
      }
    }
    return events;
  }

  /** The stream is over: finish any open utterance. */
  end(): StreamEvent[] {
    const events: StreamEvent[] = [];
    this.handle(this.endpointer.flush(), events);
    this.rejected = undefined;
    this.release(events);
    // Nobody is listening any more: a notice that the room is too loud no longer holds,
    // unless the session goes on listening in the same room.
    if (this.session === undefined && this.room.forget()) events.push(this.roomNoise());
    // A stream that understood nothing hands no talking room on: a voice that stopped rising
    // over the room's level opens no utterance there, and nothing would show it press after
    // press (docs/decisions/0089). A voice heard by its print where the room is too loud
    // opens utterances over that level all the same; the next press drops the level once
    // it hears the room gone (docs/decisions/0095).
    const byVoice = this.matcher.profile.voice !== undefined;
    const handOn = this.understood || (byVoice && this.room.tooLoudNow);
    this.session?.left(handOn ? this.endpointer.roomTalk : undefined, this.steadyFloor(), byVoice);
    return events;
  }

  /**
   * The floor this stream heard, to hand on, when it is a steady room's: a whole noise
   * window heard (or begun from such a floor), no room talking at the end, and one utterance
   * heard, none withdrawn. A room that opened one of its own (a television's loud syllables)
   * would open the next press's over that floor and end it (docs/decisions/0093).
   */
  private steadyFloor(): Decibels | undefined {
    const e = this.endpointer;
    return e.floorKnown && !e.roomTalks && !this.roomOpened && this.utterances <= 1
      ? e.noiseLevel
      : undefined;
  }

  /** Emit the held rejected final, which nothing will join now. */
  private release(events: StreamEvent[]): void {
    if (this.held !== undefined) events.push(this.held);
    this.held = undefined;
  }

  private features(from: number, to: number, cepstraOnly = false): FeatureMatrix {
    if (this.phoneView?.cache !== undefined) this.phoneView.cache.origin = Math.max(this.bufferStart, from);
    return spanFeatures(
      this.framesOf(from, to),
      this.matcher.profile.settings,
      cepstraOnly ? undefined : this.phoneView,
      cepstraOnly ? undefined : this.talkingRoom(),
    );
  }

  private recognise(from: number, to: number): Recognition {
    const result = this.matcher.recognise(
      this.features(from, to),
      this.maxAlternatives,
      this.riseOver(from, to),
      this.heardByVoice(from, to),
    );
    return this.endpointer.roomTalks ? { ...result, overVoices: true } : result;
  }

  /**
   * Whether an utterance was heard over a room talking too loud to hear the person over,
   * in their own voice: the matcher allows for it (docs/decisions/0096).
   */
  private heardByVoice(from: number, to: number): boolean {
    const print = this.matcher.profile.voice;
    if (print === undefined || !this.room.tooLoudNow || this.talkingRoom() === undefined) return false;
    const distortion = voiceDistortion(print, this.framesOf(from, to));
    return distortion !== undefined && distortion < VOICE_LIKE_LINE;
  }

  /** The rejected utterance an utterance starting at `start` may be joined to. */
  private joinable(start: number): { start: number; end: number } | undefined {
    const r = this.rejected;
    return r !== undefined && this.joinFrames > 0 && start - r.end <= this.joinFrames ? r : undefined;
  }

  /**
   * The final for an utterance: on its own, or joined to the rejected one before it when
   * that is recognised as the same phrase or more surely (the end of a phrase can pass
   * for the whole; the joined final then also stands for the rejected start).
   */
  private decide(start: number, end: number): Outcome {
    const own = this.recognise(start, end);
    const before = this.joinable(start);
    if (before === undefined) return { start, result: own };
    const joined = this.recognise(before.start, end);
    const better =
      !joined.rejected && (own.rejected || joined.text === own.text || joined.confidence >= own.confidence);
    return better ? { start: before.start, result: joined } : { start, result: own };
  }

  /**
   * How unlike the person's voice a frame sounds, for the end-pointer to hear them by while
   * the room is too loud to hear them over (docs/decisions/0094); undefined otherwise, or
   * for a profile without a voice print. Where the person is clear of the room, their
   * level alone opens their utterances, and a voice-like syllable of the room's would
   * only move them.
   */
  private unlikeTheVoice(frame: SpectralFrame): number | undefined {
    const print = this.matcher.profile.voice;
    return print === undefined || !this.room.tooLoudNow ? undefined : frameDistortion(print, frame);
  }

  /** The level an utterance's loud frames reach (`loudLevelOf`, as its quiet ends are judged). */
  private loudLevel(from: number, to: number): Decibels {
    return loudLevelOf(this.framesOf(from, to).map((f) => f.energyDb));
  }

  /** The buffered analysis frames from `from` up to `to` (stream frame indices). */
  private framesOf(from: number, to: number): SpectralFrame[] {
    return this.buffer.slice(Math.max(0, from - this.bufferStart), Math.max(0, to - this.bufferStart));
  }

  /**
   * The room's level as far as the stream has heard it: the level a talking room reaches,
   * or a whole noise window's floor; undefined before either is known.
   */
  private roomHeard(): Decibels | undefined {
    const e = this.endpointer;
    return e.roomLevel ?? (e.floorKnown ? e.noiseLevel : undefined);
  }

  /**
   * How far an utterance rose over its room as the stream has heard it (docs/decisions/0085).
   * An utterance's own quietest frame would say it too, but a word cut close in a file has
   * none of the room in it.
   */
  private riseOver(from: number, to: number): Decibels | undefined {
    const room = this.roomHeard();
    return room === undefined ? undefined : this.loudLevel(from, to) - room;
  }

  /**
   * The level of a room talking around the user, which the profile weighs frames by
   * (docs/decisions/0086). Not a steady room's: a fan's frames under a word are the word's
   * as much as any, and weighing them let unknown words pass.
   */
  private talkingRoom(): Decibels | undefined {
    const e = this.endpointer;
    return this.matcher.weighsRoom && e.roomTalks ? e.roomLevel : undefined;
  }

  private roomCause(): RoomNoiseCause {
    return this.endpointer.roomLevel === undefined ? 'noise' : 'voices';
  }

  private roomNoise(): StreamEvent {
    const { tooLoud, cause, marginDb } = this.room;
    const time = this.endpointer.frameIndex * this.frameShift;
    return { type: 'room-noise', tooLoud, cause, marginDb, time };
  }

  private handle(event: EndpointEvent | undefined, events: StreamEvent[]): void {
    if (event === undefined) return;
    switch (event.type) {
      case 'start':
        this.utterances++;
        this.utteranceStart = event.startFrame;
        this.lastPartialFrame = event.startFrame;
        this.lastPartial = '';
        events.push({ type: 'speech-start', time: event.startFrame * this.frameShift });
        return;
      case 'cancel':
        this.roomOpened = true;
        this.phoneView?.cache?.rows.clear();
        events.push({
          type: 'speech-cancelled',
          time: this.endpointer.frameIndex * this.frameShift,
          ...(event.steadyRoom === true ? { steadyRoom: true } : {}),
        });
        return;
      case 'end': {
        const spec = this.speculative;
        const { start, result } =
          spec?.start === event.startFrame && spec.end === event.endFrame
            ? spec.outcome
            : this.decide(event.startFrame, event.endFrame);
        this.speculative = undefined;
        this.phoneView?.cache?.rows.clear();
        // A rejected run keeps growing from its first utterance, up to the longest utterance.
        const runStart = this.joinable(event.startFrame)?.start ?? event.startFrame;
        const from = event.endFrame - runStart <= this.endpointer.maxFrames ? runStart : event.startFrame;
        this.rejected = result.rejected ? { start: from, end: event.endFrame } : undefined;
        // A joined final stands for the held one; otherwise the held one stands on its own.
        if (start === event.startFrame) this.release(events);
        this.held = undefined;
        const loud = this.loudLevel(event.startFrame, event.endFrame);
        // Far under the person's voice: the room said it, not the person, even when it is
        // one of their words (docs/decisions/0078, 0084).
        const roomsOwn = result.rejected ? this.voice.isUnder(loud) : this.voice.understood(loud);
        const final: StreamEvent = roomsOwn
          ? { type: 'speech-cancelled', time: event.endFrame * this.frameShift }
          : {
              type: 'final',
              start: start * this.frameShift,
              end: event.endFrame * this.frameShift,
              ...result,
            };
        if (final.type === 'final') this.ended = { start: final.start, end: final.end, result };
        if (final.type === 'final' && !result.rejected) this.understood = true;
        if (result.rejected && this.joinFrames > 0) this.held = final;
        else events.push(final);
        // How far the utterance rose over the room: over its talk, or over its noise floor
        // once that is known (a short press ends before: it says nothing of the room).
        if (this.room.room(this.roomCause())) events.push(this.roomNoise());
        const room = this.roomHeard();
        if (room !== undefined && this.room.heard(loud - room)) events.push(this.roomNoise());
        return;
      }
    }
  }
}
