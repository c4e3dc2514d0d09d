import { ApiError, NetworkError } from '../../lib/api-error';

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

const STORE = 'takes';

/**
 * Takes kept in IndexedDB from the moment they are recorded until the server has them,
 * so that a lost connection, a closed tab or a crash never loses a recording.
 */
export class TakeOutbox {
  private db: Promise<IDBDatabase> | null = null;
  private flushing: Promise<FlushResult> | null = null;

  constructor(
    private readonly name = 'parla-take-outbox',
    private readonly factory: IDBFactory = indexedDB,
  ) {}

  async add(take: PendingTake) {
    await this.run('readwrite', (store) => store.put(take));
  }

  async remove(id: string) {
    await this.run('readwrite', (store) => store.delete(id));
  }

  /** The person's waiting takes, oldest first. */
  async list(userId: string): Promise<PendingTake[]> {
    const all = await this.run<PendingTake[]>('readonly', (store) => store.getAll());
    return all.filter((take) => take.userId === userId).sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * Uploads the person's waiting takes in order. A take leaves the outbox only when the
   * server has answered for it: accepted, or refused for good (a 4xx). Without a
   * connection, or on a server error, it stays for the next try. One flush at a time.
   */
  flush(userId: string, upload: (take: PendingTake) => Promise<unknown>): Promise<FlushResult> {
    this.flushing ??= this.flushNow(userId, upload).finally(() => {
      this.flushing = null;
    });
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
          result.refused.push({ take, message: (error as ApiError).message });
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

  private async run<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest): Promise<T> {
    const db = await this.open();
    return new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = action(transaction.objectStore(STORE));
      // Resolve on commit, not on the request, so a write is durable when we say it is.
      transaction.oncomplete = () => resolve(request.result as T);
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
      transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
    });
  }

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise((resolve, reject) => {
      const request = this.factory.open(this.name, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'id' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB is not available'));
    });
    return this.db;
  }
}

/** A refusal that trying again will not change: the take is bad or its phrase is gone. */
function isFinalRefusal(error: unknown): boolean {
  if (error instanceof NetworkError || !(error instanceof ApiError)) return false;
  if (error.status === 401 || error.status === 408 || error.status === 429) return false;
  return error.status >= 400 && error.status < 500;
}
