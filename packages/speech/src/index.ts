export * from './units.js';
export * from './errors.js';
export { decodeWav, encodeWavPcm16, type DecodedAudio } from './audio/wav.js';
export { resample, type ResampleOptions } from './audio/resample.js';
export { concatAudio, downmix, toMono16k, wavToMono16k, int16ToFloat32 } from './audio/audio.js';
export { KeptAudio, STREAM_KEPT_SECONDS } from './audio/kept-audio.js';
export { cutOff, holdsItsRoom } from './audio/as-recorded.js';
export {
  createOpusStreamDecoder,
  parseOpusFrames,
  frameOpusPackets,
  MAX_OPUS_PACKET_BYTES,
  type OpusStreamDecoder,
  type OpusStreamDecoderOptions,
  type OpusOutputRate,
} from './audio/opus.js';
export {
  createFrontEnd,
  SpectralAnalyser,
  analyse,
  utteranceFeatures,
  type FrontEnd,
  type FrontEndOptions,
  type FeatureMatrix,
  type SpectralFrame,
} from './features/features.js';
export {
  Endpointer,
  findSegments,
  type EndpointerOptions,
  type EndpointEvent,
  type Segment,
} from './vad/endpointer.js';
export {
  CLEAR_AGAIN_OVER_ROOM_DB,
  CLEAR_OVER_ROOM_DB,
  ListeningRoom,
  RoomNoiseJudge,
  type RoomNoiseCause,
} from './vad/room-noise.js';
export { dtw, type Sequence, type DtwOptions } from './model/dtw.js';
export {
  MODEL_VERSION,
  DEFAULT_SETTINGS,
  normaliseText,
  recordedPhrases,
  type Profile,
  type ModelSettings,
  type Calibration,
  type Template,
} from './model/profile.js';
export { trainProfile, type TrainingItem, type TrainOptions } from './model/train.js';
export { checkProfileFile, serializeProfile, deserializeProfile, sealHolds } from './model/serialize.js';
export {
  takesForTraining,
  CONFIRMED_TAKES_PER_PHRASE,
  CONFIRMED_TAKES_MAX,
  TRAINING_TAKES_BUDGET,
  CONFIRMATIONS_PER_RETRAIN,
  CORRECTION_CHOICES,
  correctionChoices,
  UNKNOWN_TAKES_KEPT,
  type TakeOrigin,
} from './model/learning.js';
export { Matcher, type Recognition, type Alternative } from './decode/matcher.js';
export {
  RecognitionStream,
  type EndedUtterance,
  type StreamEvent,
  type StreamOptions,
} from './decode/streaming.js';
export {
  GenericRecogniser,
  GenericStream,
  phraseGrammar,
  type GenericResult,
  type PhraseGrammar,
} from './generic/generic.js';
export {
  GENERIC_CONTEXT_SECONDS,
  DOUBTED_BELOW,
  GENERIC_KNOWS_THE_VOICE,
  SECONDED_GUESSES,
  SecondOpinion,
  bestGuesses,
  hearsAgain,
  knowsTheVoice,
  takesToJudge,
  withSilenceAround,
  withSecondOpinion,
  type GenericHearing,
  type HeardAgain,
  type Take,
} from './generic/second-opinion.js';
export { HearingAhead, hearingWith, type StreamProgress } from './generic/hearing-ahead.js';
// The generic engine adapted to a person's voice (docs/decisions/0127, 0128).
export { ADAPTATION_SECONDS, takesToAdaptOn } from './generic/voice-adaptation.js';
export { decodeVoiceMeans } from './generic/voice-means.js';
export { AnsweredStream, type AnsweredEvents } from './generic/answered-stream.js';
// What the generic engine says each word as, read once (Node) or sent (a browser's worker).
export { Lexicon, wordsOf, type LexiconEntry } from './generic/lexicon.js';
// A speech model's encoder as a third opinion on rejected finals (docs/decisions/0144-0146).
export {
  encoderHears,
  encoderHearsTake,
  encoderTemplate,
  keptView,
  type EncoderTemplate,
  type SpeechEncoder,
} from './encoder/encoder-view.js';
export {
  decodeTakeView,
  deserializeEncoderViews,
  encodeTakeView,
  serializeEncoderViews,
} from './encoder/kept-views.js';
export {
  ENCODER_MIN_PHRASES,
  encoderHearsAgain,
  encoderJudgesAmong,
  withEncoderOpinion,
} from './encoder/third-opinion.js';
export { EncoderViewAhead, type ExpectedFinal, viewOfFinal } from './encoder/view-ahead.js';
export { encoderLoadedOnce } from './encoder/onnx-encoder.js';
export { takeFeatures, type TakeFeatures } from './model/features-of-take.js';
export {
  analyseTake,
  decodeTakeAnalysis,
  encodeTakeAnalysis,
  isCurrentTakeAnalysis,
} from './model/take-analysis.js';
export {
  createSpeechHandlers,
  handleSpeechRequest,
  type SpeechHandlers,
  type SpeechRequest,
  type SpeechReply,
} from './decode/handlers.js';
