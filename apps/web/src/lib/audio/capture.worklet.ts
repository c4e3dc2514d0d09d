// Runs on the audio rendering thread: turns the microphone into 16 kHz 16-bit blocks of
// 50 ms with their level, so the main thread never touches raw device-rate audio.
import { Downsampler, floatToInt16, measureLevel, TARGET_RATE } from './downsampler';
import type { CaptureBlock, CaptureCommand } from './capture-messages';

// The AudioWorkletGlobalScope's names; TypeScript's DOM library does not declare them.
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;

const BLOCK_SAMPLES = TARGET_RATE / 20;

class CaptureProcessor extends AudioWorkletProcessor {
  private readonly downsampler = new Downsampler(sampleRate);
  private block = new Float32Array(BLOCK_SAMPLES);
  private filled = 0;
  private stopped = false;

  constructor() {
    super();
    // The only command is a flush.
    this.port.onmessage = (_event: MessageEvent<CaptureCommand>) => {
      this.append(this.downsampler.flush());
      this.post(this.block.subarray(0, this.filled));
      this.filled = 0;
      this.stopped = true;
      this.port.postMessage({ type: 'flushed' } satisfies CaptureBlock);
    };
  }

  process(inputs: Float32Array[][]): boolean {
    if (this.stopped) return false;
    // The first channel is enough: the stream is requested mono, and a stereo device's
    // second channel carries the same voice.
    const channel = inputs[0]?.[0];
    if (channel) this.append(this.downsampler.process(channel));
    return true;
  }

  private append(samples: Float32Array) {
    let offset = 0;
    while (offset < samples.length) {
      const count = Math.min(BLOCK_SAMPLES - this.filled, samples.length - offset);
      this.block.set(samples.subarray(offset, offset + count), this.filled);
      this.filled += count;
      offset += count;
      if (this.filled === BLOCK_SAMPLES) {
        this.post(this.block);
        this.block = new Float32Array(BLOCK_SAMPLES);
        this.filled = 0;
      }
    }
  }

  private post(samples: Float32Array) {
    const pcm = floatToInt16(samples);
    const message: CaptureBlock = { type: 'block', pcm, ...measureLevel(samples) };
    this.port.postMessage(message, [pcm.buffer]);
  }
}

registerProcessor('parla-capture', CaptureProcessor);
