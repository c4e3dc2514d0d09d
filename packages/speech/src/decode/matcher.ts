import type { PhoneModel } from '../phones/acoustic-model.js';
import { DtwWorkspace, type Sequence } from '../model/dtw.js';
import { phoneViewOf, type PhoneView } from '../model/features-of-take.js';
import { prepare, wordsIn, type Profile, type Template } from '../model/profile.js';
import { whiten } from '../model/whitening.js';
import {
  confidence,
  exactScores,
  misfit,
  prune,
  pruneCount,
  rival,
  type SketchOnly,
} from '../model/scoring.js';

/** One candidate answer. */
export interface Alternative {
  text: string;
  confidence: number;
}

/** What the recogniser decided about one utterance. */
export interface Recognition {
  /** The recognised phrase, or null when the utterance was rejected. */
  text: string | null;
  /** Calibrated probability that the best phrase is right, 0..1. */
  confidence: number;
  /** True when the best phrase scored below the profile's rejection threshold. */
  rejected: boolean;
  /** Best phrases first, the top one included even when rejected. */
  alternatives: Alternative[];
  /**
   * Heard on a live stream while other voices talked in the room (the stream knows): the
   * generic path cannot vouch for it there (`hearsAgain`, docs/decisions/0107).
   */
  overVoices?: true;
}

/** A loaded profile with the indexes decoding needs; one per user, shareable across streams. */
export class Matcher {
  readonly profile: Profile;
  private readonly byPhrase: number[][];
  /** Words in each phrase: the steeper hinge leaves phrases of several to the misfit (`Hinge.leavesPhrasesToMisfit`). */
  private readonly words: number[];
  private readonly ws = new DtwWorkspace();

  /** How the profile matches phones; undefined when it matches cepstra alone. */
  readonly phoneView: PhoneView | undefined;

  /** `phones` is the acoustic model, needed by profiles that match phones too. */
  constructor(profile: Profile, phones?: PhoneModel) {
    this.phoneView = phoneViewOf(profile.settings, phones, () => profile.phoneMean);
    this.profile = profile;
    this.byPhrase = profile.phrases.map(() => []);
    profile.templates.forEach((t, i) => this.byPhrase[t.phrase]?.push(i));
    this.words = profile.phrases.map(wordsIn);
  }

  /** Whether utterances heard in a talking room weigh their frames by their rise over it
   * (profiles that allow for a loud room: docs/decisions/0085, 0086). */
  get weighsRoom(): boolean {
    return this.profile.calibration.loudRoom !== undefined;
  }

  private cepstral: SketchOnly[] | undefined;
  /** The templates' first-pass sketches cut to their first `dim` values (the cepstra). */
  private cepstralSketches(dim: number): SketchOnly[] {
    this.cepstral ??= this.profile.templates.map((t) => {
      const data = new Int8Array(t.sketch.frames * dim);
      for (let f = 0; f < t.sketch.frames; f++)
        data.set(t.sketch.data.subarray(f * t.dim, f * t.dim + dim), f * dim);
      const sketch = { frames: t.sketch.frames, dim, data, step: t.sketch.step };
      return { phrase: t.phrase, frames: t.frames, sketch };
    });
    return this.cepstral;
  }

  /**
   * Recognise a whole utterance's features; `riseDb` is how far it rose over its room when
   * heard live (`RecognitionStream` knows), which a profile may allow for
   * (`calibration.loudRoom`), and `byVoice` whether it was heard over a room too loud to
   * hear the person over in their own voice (`VOICE_OVER_ROOM_ALLOWANCE`).
   */
  recognise(query: Sequence, maxAlternatives = 3, riseDb?: number, byVoice = false): Recognition {
    const p = this.profile;
    const count = pruneCount(p.phrases.length, p.settings);
    const q = prepare(whiten(query, p.whitening), p.settings);
    const candidates = prune(p.templates, p.phrases.length, q, q.sketch, count, this.ws);
    // Quiet ends (another voice in the room before and after the user's) cost what a frame
    // a little worse than the user's repetitions of the phrase would (docs/decisions/0074).
    const endSkip = p.settings.endSkip;
    const skipCost =
      endSkip === undefined ? undefined : (phrase: number) => endSkip.cost * (p.scales[phrase] as number);
    const scores = exactScores(
      p.templates,
      this.byPhrase,
      q,
      candidates,
      p.settings,
      this.ws,
      3,
      undefined,
      skipCost,
    ).filter((s) => Number.isFinite(s.distance));
    const [first] = scores;
    if (first === undefined) return { text: null, confidence: 0, rejected: true, alternatives: [] };
    // Unknown utterances the user marked compete as rivals but are never an answer.
    const alternatives = scores
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => s.phrase !== p.unknownPhrase)
      .slice(0, maxAlternatives)
      .map(({ s, i }) => ({
        text: p.phrases[s.phrase] as string,
        confidence: confidence(p.calibration, {
          distance: s.distance,
          scale: (p.templateScales[s.template] ?? p.scales[s.phrase]) as number,
          rival: rival(scores, i),
          // Only calibrations that weigh it pay for the extra alignment.
          misfit:
            p.calibration.weights[3] === undefined
              ? undefined
              : misfit(q, p.templates[s.template] as Template, p.settings),
          spread: p.scales[s.phrase],
          words: this.words[s.phrase],
          riseDb,
          byVoice,
        }),
      }));
    const [best] = alternatives;
    const conf = best?.confidence ?? 0;
    const rejected = best === undefined || first.phrase === p.unknownPhrase || conf < p.calibration.threshold;
    return {
      text: rejected ? null : best.text,
      confidence: conf,
      rejected,
      alternatives,
    };
  }

  /**
   * A quick guess while the user is still speaking: the first pass alone, on cepstra only
   * (`query` may be the cepstral part alone of a profile that also matches phones).
   */
  guess(query: Sequence): string | null {
    const p = this.profile;
    const q = prepare(whiten(query, p.whitening), p.settings);
    const templates = q.dim === p.templates[0]?.dim ? p.templates : this.cepstralSketches(q.dim);
    const [best] = prune(templates, p.phrases.length, q, q.sketch, 1, this.ws);
    return best === undefined || best === p.unknownPhrase ? null : (p.phrases[best] ?? null);
  }
}
