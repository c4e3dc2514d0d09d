import { Endpointer } from '@parla/speech';

const FRAME = 160; // 10 ms at 16 kHz, the end-pointer's frame shift

/**
 * Voice activity on the microphone while a take is recorded: the recogniser's own
 * end-pointer, fed 10 ms levels. Says when speech started and when it has ended.
 */
export class SpeechActivity {
  private readonly endpointer: Endpointer;
  private carry = new Int16Array(0);
  private speechFrames = 0;
  started = false;
  ended = false;

  /** `endSilence`: seconds of quiet after speech that end the take. */
  constructor(endSilence: number) {
    this.endpointer = new Endpointer({ minSilence: endSilence, frameShift: 0.01 });
  }

  /** Seconds of speech heard so far. */
  get speechSeconds() {
    return this.speechFrames / 100;
  }

  push(chunk: Int16Array) {
    const samples = new Int16Array(this.carry.length + chunk.length);
    samples.set(this.carry);
    samples.set(chunk, this.carry.length);
    let offset = 0;
    for (; offset + FRAME <= samples.length; offset += FRAME) {
      let energy = 0;
      for (let i = offset; i < offset + FRAME; i += 1) {
        const value = (samples[i] as number) / 32768;
        energy += value * value;
      }
      const events = this.endpointer.process(10 * Math.log10(energy / FRAME + 1e-12));
      if (this.endpointer.speaking) this.speechFrames += 1;
      for (const event of events) {
        if (event.type === 'start') this.started = true;
        if (event.type === 'end') this.ended = true;
      }
    }
    this.carry = samples.slice(offset);
  }
}

/** Peaks of a take in `buckets` columns, 0..1, for drawing its waveform. */
export function waveformPeaks(samples: Int16Array, buckets: number): number[] {
  const peaks: number[] = [];
  const size = Math.max(1, Math.floor(samples.length / buckets));
  for (let start = 0; start < samples.length && peaks.length < buckets; start += size) {
    let peak = 0;
    const end = Math.min(samples.length, start + size);
    for (let i = start; i < end; i += 1) peak = Math.max(peak, Math.abs(samples[i] as number));
    peaks.push(peak / 32768);
  }
  return peaks;
}
