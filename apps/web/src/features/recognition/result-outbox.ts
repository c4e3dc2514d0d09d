import { ApiError, isFinalRefusal } from '../../lib/api-error';
import { oneTabAtATime } from '../../lib/across-tabs';
import { KeyedStore } from '../../lib/keyed-store';

/** What the person said of a result: it was this phrase, or none of theirs. */
export type ResultAnswer = { confirm: string } | { noneOfMyPhrases: true };

/** An utterance recognised in the browser, as the server is sent it to keep. */
export interface ResultUpload {
  /** The multipart `info` JSON. */
  info: Record<string, unknown>;
  /** 16 kHz mono 16-bit WAV. */
  wav: ArrayBuffer;
}

/** An utterance or an answer to one, waiting for the server. */
export interface PendingResult {
  id: string;
  /** Whose it is: another person signing in on this device never sends it. */
  userId: string;
  createdAt: number;
  attempts: number;
  /** Recognised in the browser and not yet kept by the server. */
  upload?: ResultUpload;
  /** The server's id of the kept utterance, once it has one. */
  recordingId?: string;
  /** The person's answer, sent once the utterance is kept. */
  answer?: ResultAnswer;
}

/** The calls an outbox makes. */
export interface ResultServer {
  /**
   * Keeps an utterance; resolves with its id, or null when the server keeps nothing (an
   * opt-out). `key` is the same on every try, so a retry of an upload kept is not kept twice.
   */
  upload(upload: ResultUpload, key: string): Promise<string | null>;
  answer(recordingId: string, answer: ResultAnswer): Promise<unknown>;
}

/** How an answer fared: taught the profile, kept here until the server can have it, or too late. */
export type AnswerOutcome = 'sent' | 'waiting' | 'gone';

/** What a flush did with each record it finished: sent, or refused for good. */
export type FlushOutcomes = Map<string, 'sent' | 'refused'>;

/**
 * Utterances recognised in the browser and answers to results, kept in IndexedDB until the
 * server has them: without a connection an utterance and what the person said of it wait
 * here, and teach the profile once the server is back. A record leaves only when the server
 * has answered for it, accepting it or refusing it for good (a 4xx).
 */
export class ResultOutbox {
  private readonly store: KeyedStore<PendingResult>;
  private flushing: Promise<FlushOutcomes> | null = null;
  /** Records a flush of this page uploaded and let go: the id the server gave (null: not kept). */
  private readonly uploaded = new Map<string, string | null>();

  constructor(
    private readonly server: ResultServer,
    private readonly name = 'parla-result-outbox',
    factory?: IDBFactory,
    private readonly locks?: LockManager,
  ) {
    this.store = new KeyedStore(name, 'results', factory);
  }

  add(record: PendingResult): Promise<void> {
    return this.store.put(record);
  }

  /** The person's waiting records, oldest first. */
  async list(userId: string): Promise<PendingResult[]> {
    const all = await this.store.all();
    return all.filter((record) => record.userId === userId).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** The server's id of a record's utterance once a flush of this page uploaded it; null when it kept nothing. */
  uploadedAs(id: string): string | null | undefined {
    return this.uploaded.get(id);
  }

  /** Uploads an utterance that could not be kept here, once (see {@link uploadedAs}). */
  async uploadNow(id: string, upload: ResultUpload): Promise<void> {
    this.uploaded.set(id, await this.server.upload(upload, id));
  }

  /**
   * Adds the person's answer to a record still waiting; false when the record has gone (a
   * flush uploaded it meanwhile: see {@link uploadedAs}).
   */
  async attachAnswer(id: string, answer: ResultAnswer): Promise<boolean> {
    const kept = await this.store.update(id, (current) => current && { ...current, answer });
    return kept !== undefined;
  }

  /** Sends an answer now, or keeps it for a later flush when the server cannot be reached. */
  async answer(userId: string, recordingId: string, answer: ResultAnswer): Promise<AnswerOutcome> {
    try {
      await this.server.answer(recordingId, answer);
      return 'sent';
    } catch (error) {
      if (isGone(error)) return 'gone';
      if (isFinalRefusal(error)) throw error;
      await this.add({
        id: crypto.randomUUID(),
        userId,
        createdAt: Date.now(),
        attempts: 1,
        recordingId,
        answer,
      });
      return 'waiting';
    }
  }

  /** Sends the person's waiting records in order, one flush at a time in all of the app's tabs. */
  flush(userId: string): Promise<FlushOutcomes> {
    this.flushing ??= oneTabAtATime(this.name, () => this.flushNow(userId), this.locks).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async flushNow(userId: string): Promise<FlushOutcomes> {
    const outcomes: FlushOutcomes = new Map();
    for (const record of await this.list(userId)) {
      try {
        outcomes.set(record.id, await this.send(record));
      } catch (error) {
        if (isFinalRefusal(error)) {
          await this.store.delete(record.id);
          outcomes.set(record.id, 'refused');
          continue;
        }
        await this.store.update(
          record.id,
          (current) => current && { ...current, attempts: current.attempts + 1 },
        );
        // The rest would meet the same trouble: they all wait for the next flush.
        break;
      }
    }
    return outcomes;
  }

  private async send(record: PendingResult): Promise<'sent' | 'refused'> {
    let { recordingId, answer } = record;
    if (recordingId === undefined) {
      if (record.upload === undefined) {
        await this.store.delete(record.id);
        return 'refused';
      }
      const id = await this.server.upload(record.upload, record.id);
      this.uploaded.set(record.id, id);
      // An answer given while the upload was on its way is in the store, not in `record`.
      const kept = await this.store.update(record.id, (current) =>
        id !== null && current?.answer !== undefined
          ? { ...current, upload: undefined, recordingId: id }
          : undefined,
      );
      if (kept === undefined || id === null) return 'sent';
      recordingId = id;
      answer = kept.answer;
    }
    // A 4xx here (the utterance no longer kept, say) is a refusal for good: see flushNow.
    if (answer !== undefined) await this.server.answer(recordingId, answer);
    await this.store.delete(record.id);
    return 'sent';
  }
}

function isGone(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'RECORDING_GONE';
}
