// What recording channels do to a signal, to measure how the recogniser copes with them.
import { resample } from '../audio/resample.js';
import { SAMPLE_RATE } from '../units.js';

/** A signal as an 8 kHz recording of it holds it (a telephone, a Bluetooth headset in its
 * narrow-band mode), back at 16 kHz. */
export const narrowBand = (audio: Float32Array): Float32Array =>
  resample(resample(audio, SAMPLE_RATE, 8000), 8000, SAMPLE_RATE);
