// Node-only helpers: files on disk and SoundSwallower loaded from node_modules.
export { loadSoundSwallower, soundSwallowerLexicon, soundSwallowerModelDir } from './soundswallower.node.js';
export { loadPhoneModel } from './phones.node.js';
export { loadManifest, ManifestError, type ManifestEntry } from './files.node.js';
// The generic engine adapted to a person's voice (docs/decisions/0127).
export {
  adaptedAndJudged,
  adaptToVoice,
  placeVoiceMeans,
  voiceMeansFile,
  withMeansAdaptedTo,
  withVoiceMeans,
} from './voice-adaptation.node.js';
// The speech encoder, run as WebAssembly from node_modules (docs/decisions/0144).
export { loadSpeechEncoder, speechEncoderModelFile } from './encoder.node.js';
