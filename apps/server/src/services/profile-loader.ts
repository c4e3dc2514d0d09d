import { deserializeProfile, SpeechError, type Profile, type SpeechErrorCode } from '@parla/speech';
import { compiledWorkerFile, WorkerThread } from '../lib/worker-thread.js';

/** A loader's reply: the profile, or why its file was refused (the code travels too). */
export type LoadReply = { profile: Profile } | { refused: { code: SpeechErrorCode; message: string } };

/** The compiled worker beside this module; running from the sources, the build next door. */
export function profileLoaderWorkerFile(): string | undefined {
  return compiledWorkerFile(new URL('./profile-loader.worker.js', import.meta.url));
}

/**
 * Loads profile files in a worker thread of its own: a 200-phrase profile takes 50-100 ms
 * to load (`speech:bench`), which on the thread that serves every stream would hold up
 * everyone's results; the profile comes back with its arrays moved, not copied. Inline when
 * no compiled worker exists.
 */
export class ProfileLoader {
  private readonly thread: WorkerThread<Uint8Array, LoadReply> | undefined;

  /** `workerFile`: {@link profileLoaderWorkerFile}; undefined loads inline. */
  constructor(workerFile: string | undefined) {
    this.thread = workerFile === undefined ? undefined : new WorkerThread(workerFile, 'profile loader');
  }

  /** The profile in `bytes`; a `bad_model` SpeechError as `deserializeProfile` throws it. */
  async load(bytes: Uint8Array): Promise<Profile> {
    if (this.thread === undefined) return deserializeProfile(bytes);
    // Copied, not moved: storage may hand out views of buffers it shares.
    const reply = await this.thread.call(bytes);
    if ('refused' in reply) throw new SpeechError(reply.refused.code, reply.refused.message);
    return reply.profile;
  }

  async close(): Promise<void> {
    await this.thread?.close();
  }
}

/** Every buffer under `value`'s typed arrays, once each: what a reply can move instead of copy. */
export function buffersUnder(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) buffersUnder(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) buffersUnder(item, found);
  }
  return [...found];
}
