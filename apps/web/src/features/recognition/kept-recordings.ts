import type { RecognitionResult } from '@parla/contract';
import { ResultOutbox, type AnswerOutcome, type ResultAnswer, type ResultUpload } from './result-outbox';

/** A result recognised in the browser: its record in the outbox, and the first try to send it. */
interface LocalResult {
  recordId: string;
  userId: string;
  firstTry: Promise<unknown>;
}

/**
 * The recordings results are answered about. A result from the server names its kept
 * recording (`recording_id`). A result recognised in the browser has none: its utterance is
 * put in the outbox and sent, and an answer to it waits for the server's id, or, without a
 * connection, for the outbox to send them both.
 */
export class KeptRecordings {
  private readonly local = new WeakMap<RecognitionResult, LocalResult>();

  constructor(readonly outbox: ResultOutbox) {}

  /**
   * Keeps the utterance of a result recognised in the browser until the server has it, and
   * starts sending it. Resolves once it is safe in the outbox; where IndexedDB cannot keep it,
   * it is sent without it, once.
   */
  keepLocal(result: RecognitionResult, userId: string, upload: ResultUpload): Promise<void> {
    const recordId = crypto.randomUUID();
    const stored = this.outbox.add({ id: recordId, userId, createdAt: Date.now(), attempts: 0, upload });
    // Known at once, so the result is asked about as soon as it is shown.
    this.local.set(result, {
      recordId,
      userId,
      firstTry: stored.then(
        () => this.outbox.flush(userId),
        () => this.outbox.uploadNow(recordId, upload),
      ),
    });
    return stored;
  }

  /** Whether `result` has, or may soon have, a kept recording an answer can teach from. */
  mayBeKept(result: RecognitionResult): boolean {
    return Boolean(result.recording_id) || this.local.has(result);
  }

  /**
   * Tells the server what the person said of `result`, now or once it can be reached.
   * Rejects only on a refusal trying again would not change (other than the recording
   * being gone).
   */
  async answer(result: RecognitionResult, userId: string, answer: ResultAnswer): Promise<AnswerOutcome> {
    if (result.recording_id) return this.outbox.answer(userId, result.recording_id, answer);
    const local = this.local.get(result);
    if (local === undefined) return 'gone';
    await local.firstTry.catch(() => undefined);
    const attached = await this.outbox.attachAnswer(local.recordId, answer).catch(() => false);
    if (attached) {
      const outcomes = await this.outbox.flush(local.userId);
      const outcome = outcomes.get(local.recordId);
      if (outcome === undefined) return 'waiting';
      // Sent, but kept by nobody: the person opted out of keeping recognition audio meanwhile.
      return outcome === 'sent' && this.outbox.uploadedAs(local.recordId) !== null ? 'sent' : 'gone';
    }
    // A flush took the utterance to the server before the answer came (or it went without the outbox).
    const id = this.outbox.uploadedAs(local.recordId);
    return id ? this.outbox.answer(local.userId, id, answer) : 'gone';
  }
}
