import captureWorkletUrl from './capture.worklet.ts?worker&url';
import type { CaptureBlock, CaptureCommand } from './capture-messages';
import { ChunkAssembler } from './chunk-assembler';
import { TARGET_RATE } from './downsampler';

export type MicrophoneErrorCode = 'permission_denied' | 'no_device' | 'unsupported' | 'failed';

/** Why the microphone could not be opened, with a code the screens turn into advice. */
export class MicrophoneError extends Error {
  constructor(
    readonly code: MicrophoneErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MicrophoneError';
  }
}

export interface MicrophoneLevel {
  /** Root mean square of the last 50 ms, 0..1. */
  rms: number;
  /** Largest absolute sample of the last 50 ms, 0..1 (1 means clipping). */
  peak: number;
}

export interface MicrophoneOptions {
  /** The chosen input (browser state `audioOptions.deviceId`); the default device when absent. */
  deviceId?: string | null;
  /** Samples per chunk; the socket protocol uses 3200 (0.2 s). */
  chunkSamples?: number;
  /** 16 kHz mono 16-bit PCM, `chunkSamples` long, in order. */
  onChunk: (samples: Int16Array) => void;
  /** The level of every 50 ms, for meters and voice activity. */
  onLevel?: (level: MicrophoneLevel) => void;
  /** Leave out the digital silence before the device's first sound (see `ChunkAssembler`). */
  skipLeadingSilence?: boolean;
}

export interface MicrophoneSession {
  readonly sampleRate: typeof TARGET_RATE;
  /** Stops capture and releases the device; resolves with the samples that did not fill a chunk. */
  stop(): Promise<Int16Array>;
}

const FLUSH_TIMEOUT_MS = 500;

/**
 * Opens the microphone and delivers 16 kHz mono 16-bit chunks. Resampling happens in an
 * AudioWorklet at the device's own rate, so it behaves the same in every browser.
 */
export async function openMicrophone(options: MicrophoneOptions): Promise<MicrophoneSession> {
  // Older or locked-down browsers (and insecure origins) lack these at run time.
  const media = navigator.mediaDevices as MediaDevices | undefined;
  if (!media || typeof AudioWorkletNode === 'undefined') {
    throw new MicrophoneError('unsupported', 'This browser cannot record audio.');
  }
  const stream = await requestStream(options.deviceId ?? null);
  const context = new AudioContext({ latencyHint: 'interactive' });
  try {
    await context.audioWorklet.addModule(captureWorkletUrl);
    if (context.state === 'suspended') await context.resume();
  } catch (error) {
    stream.getTracks().forEach((track) => track.stop());
    await context.close();
    throw new MicrophoneError('failed', `The microphone could not be started: ${describe(error)}`);
  }

  const source = context.createMediaStreamSource(stream);
  const capture = new AudioWorkletNode(context, 'parla-capture', {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    channelCount: 1,
    channelCountMode: 'explicit',
  });
  // Rendering only pulls nodes that lead to the speakers; a muted gain keeps capture alive silently.
  const mute = context.createGain();
  mute.gain.value = 0;
  source.connect(capture).connect(mute).connect(context.destination);

  const assembler = new ChunkAssembler(options.chunkSamples ?? 3200, options.onChunk, {
    skipLeadingSilence: options.skipLeadingSilence ?? false,
  });
  let flushed: (() => void) | null = null;
  capture.port.onmessage = (event: MessageEvent<CaptureBlock>) => {
    if (event.data.type === 'flushed') {
      flushed?.();
      return;
    }
    assembler.push(event.data.pcm);
    options.onLevel?.({ rms: event.data.rms, peak: event.data.peak });
  };

  let stopping: Promise<Int16Array> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      await new Promise<void>((resolve) => {
        flushed = resolve;
        capture.port.postMessage({ type: 'flush' } satisfies CaptureCommand);
        setTimeout(resolve, FLUSH_TIMEOUT_MS);
      });
      source.disconnect();
      capture.disconnect();
      capture.port.onmessage = null;
      stream.getTracks().forEach((track) => track.stop());
      await context.close();
      return assembler.takeRest();
    })();
    return stopping;
  };
  return { sampleRate: TARGET_RATE, stop };
}

async function requestStream(deviceId: string | null): Promise<MediaStream> {
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: {
        ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
        channelCount: 1,
        // No processing: training takes and live speech must be the same signal. Automatic
        // gain visibly changes the level, noise suppression fades steady sounds (prolonged
        // vowels are common in dysarthric speech), and echo cancellation reshapes the voice.
        // Speak mode pauses listening while it talks instead.
        echoCancellation: false,
        noiseSuppression: false,
        autoGainControl: false,
      },
    });
  } catch (error) {
    const name = error instanceof DOMException ? error.name : '';
    if (name === 'NotAllowedError' || name === 'SecurityError') {
      throw new MicrophoneError('permission_denied', 'Microphone access was not allowed.');
    }
    if (name === 'NotFoundError' || name === 'OverconstrainedError') {
      throw new MicrophoneError('no_device', 'No microphone was found.');
    }
    throw new MicrophoneError('failed', `The microphone could not be opened: ${describe(error)}`);
  }
}

function describe(error: unknown) {
  return error instanceof Error ? error.message : String(error);
}
