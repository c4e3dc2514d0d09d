import { isFinalRefusal } from '../../lib/api-error';
import { oneTabAtATime } from '../../lib/across-tabs';
import { KeyedStore } from '../../lib/keyed-store';

/** A recorded take waiting for the server to acknowledge it. */
export interface PendingTake {
  id: string;
  /** Whose take it is: another person signing in on this device never uploads it. */
  userId: string;
  phraseId: string;
  phraseText: string;
  /** 16 kHz mono 16-bit WAV. */
  wav: ArrayBuffer;
  info: Record<string, unknown>;
  createdAt: number;
  attempts: number;
}

export interface FlushResult {
  uploaded: PendingTake[];
  /** Takes the server will never accept (too quiet, phrase deleted…), with its reason. */
  refused: { take: PendingTake; message: string }[];
  /** Still waiting: no connection, or the server was unavailable. */
  waiting: number;
}

/**
 * Takes kept in IndexedDB from the moment they are recorded until the server has them,
 * so that a lost connection, a closed tab or a crash never loses a recording.
 */
export class TakeOutbox {
  private readonly store: KeyedStore<PendingTake>;
  private flushing: Promise<FlushResult> | null = null;

  constructor(
    private readonly name = 'parla-take-outbox',
    factory?: IDBFactory,
    private readonly locks?: LockManager,
  ) {
    this.store = new KeyedStore(name, 'takes', factory);
  }

  add(take: PendingTake) {
    return this.store.put(take);
  }

  remove(id: string) {
    return this.store.delete(id);
  }

  /** The person's waiting takes, oldest first. */
  async list(userId: string): Promise<PendingTake[]> {
    const all = await this.store.all();
    return all.filter((take) => take.userId === userId).sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * Uploads the person's waiting takes in order. A take leaves the outbox only when the
   * server has answered for it: accepted, or refused for good (a 4xx). Without a
   * connection, or on a server error, it stays for the next try. One flush at a time, in
   * all of the app's tabs.
   */
  flush(userId: string, upload: (take: PendingTake) => Promise<unknown>): Promise<FlushResult> {
    this.flushing ??= oneTabAtATime(this.name, () => this.flushNow(userId, upload), this.locks).finally(
      () => {
        this.flushing = null;
      },
    );
    return this.flushing;
  }

  private async flushNow(userId: string, upload: (take: PendingTake) => Promise<unknown>) {
    const result: FlushResult = { uploaded: [], refused: [], waiting: 0 };
    const takes = await this.list(userId);
    for (const [index, take] of takes.entries()) {
      try {
        await upload(take);
        await this.remove(take.id);
        result.uploaded.push(take);
      } catch (error) {
        if (isFinalRefusal(error)) {
          await this.remove(take.id);
          result.refused.push({ take, message: error.message });
          continue;
        }
        await this.add({ ...take, attempts: take.attempts + 1 });
        // The rest would meet the same trouble: try them all next time.
        result.waiting = takes.length - index;
        break;
      }
    }
    return result;
  }
}
