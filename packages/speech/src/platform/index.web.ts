// Browser and Web Worker helpers: SoundSwallower loaded from a served model folder.
export { loadSoundSwallower } from './soundswallower.web.js';
export { loadSpeechEncoderFrom } from './encoder.web.js';
export { serveSpeechWorker, type WorkerScope } from './worker.web.js';
export { placeVoiceMeans } from './voice-means.web.js';
