import { IDBFactory } from 'fake-indexeddb';
import type { RecognitionResult } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../lib/api-error';
import { fakeLockManager } from '../../lib/fake-lock-manager';
import { KeptRecordings } from './kept-recordings';
import { ResultOutbox, type ResultAnswer, type ResultServer, type ResultUpload } from './result-outbox';

/**
 * A server that can be taken offline, keep nothing (an opt-out), hold an upload back, or
 * keep an upload and lose its reply. Like the real one, it keeps an upload key once.
 */
class FakeResultServer implements ResultServer {
  online = true;
  keeps = true;
  loseReply = false;
  /** Set: the next upload waits for it before it answers. */
  holdUpload: Promise<void> | undefined;
  answerError: Error | undefined;
  readonly uploads: ResultUpload[] = [];
  readonly answers: { recordingId: string; answer: ResultAnswer }[] = [];
  readonly keys: string[] = [];
  private readonly kept = new Map<string, string>();

  async upload(upload: ResultUpload, key: string): Promise<string | null> {
    if (!this.online) throw new NetworkError();
    const held = this.holdUpload;
    this.holdUpload = undefined;
    await held;
    this.keys.push(key);
    let id = this.kept.get(key);
    if (id === undefined) {
      this.uploads.push(upload);
      id = `rec-${this.uploads.length}`;
      this.kept.set(key, id);
    }
    if (this.loseReply) throw new NetworkError();
    return this.keeps ? id : null;
  }

  answer(recordingId: string, answer: ResultAnswer): Promise<unknown> {
    if (!this.online) return Promise.reject(new NetworkError());
    if (this.answerError) return Promise.reject(this.answerError);
    this.answers.push({ recordingId, answer });
    return Promise.resolve({});
  }
}

const utterance = (text: string): ResultUpload => ({
  info: { file_ext: 'wav', result: { text } },
  wav: new Uint8Array([1, 2, 3]).buffer,
});

let counter = 0;
function record(userId: string, text = 'good morning') {
  counter += 1;
  return {
    id: `r-${counter}`,
    userId,
    createdAt: Date.now() + counter,
    attempts: 0,
    upload: utterance(text),
  };
}

describe('ResultOutbox', () => {
  it('keeps an utterance and its answer without a connection, and sends both once back', async () => {
    const server = new FakeResultServer();
    const factory = new IDBFactory();
    const outbox = new ResultOutbox(server, 'results', factory);
    const said = record('ann');
    await outbox.add(said);
    server.online = false;
    expect(await outbox.flush('ann')).toEqual(new Map());
    expect(await outbox.attachAnswer(said.id, { confirm: 'good morning' })).toBe(true);
    expect(await outbox.flush('ann')).toEqual(new Map());
    expect((await outbox.list('ann')).map((item) => item.attempts)).toEqual([2]);

    // A new page load finds both, and sends the answer to the id the upload was given.
    server.online = true;
    const again = new ResultOutbox(server, 'results', factory);
    expect(await again.flush('ann')).toEqual(new Map([[said.id, 'sent']]));
    expect(server.uploads.map((upload) => upload.info)).toEqual([said.upload.info]);
    expect(new Uint8Array(server.uploads[0]?.wav ?? new ArrayBuffer(0))).toEqual(new Uint8Array([1, 2, 3]));
    expect(server.answers).toEqual([{ recordingId: 'rec-1', answer: { confirm: 'good morning' } }]);
    expect(await again.list('ann')).toEqual([]);
  });

  it('sends an answer given while its utterance was on its way, to the id it was given', async () => {
    const server = new FakeResultServer();
    const outbox = new ResultOutbox(server, 'results', new IDBFactory());
    const said = record('ann');
    await outbox.add(said);
    let arrive: () => void = () => undefined;
    server.holdUpload = new Promise((resolve) => {
      arrive = resolve;
    });
    const flushing = outbox.flush('ann');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await outbox.attachAnswer(said.id, { noneOfMyPhrases: true })).toBe(true);
    arrive();
    expect(await flushing).toEqual(new Map([[said.id, 'sent']]));
    expect(server.answers).toEqual([{ recordingId: 'rec-1', answer: { noneOfMyPhrases: true } }]);
  });

  it('sends every try of an upload under one key, so a retry of one kept is kept once', async () => {
    const server = new FakeResultServer();
    const outbox = new ResultOutbox(server, 'results', new IDBFactory());
    const said = record('ann');
    await outbox.add(said);
    await outbox.attachAnswer(said.id, { confirm: 'good morning' });
    server.loseReply = true;
    expect(await outbox.flush('ann')).toEqual(new Map());
    server.loseReply = false;
    expect(await outbox.flush('ann')).toEqual(new Map([[said.id, 'sent']]));
    expect(server.keys).toEqual([said.id, said.id]);
    expect(server.uploads).toHaveLength(1);
    expect(server.answers).toEqual([{ recordingId: 'rec-1', answer: { confirm: 'good morning' } }]);

    // The same for an utterance IndexedDB could not keep, sent once without the outbox.
    await outbox.uploadNow('r-alone', utterance('thank you'));
    expect(server.keys.at(-1)).toBe('r-alone');
  });

  it('lets an utterance go once uploaded, and remembers its id for an answer that comes later', async () => {
    const server = new FakeResultServer();
    const outbox = new ResultOutbox(server, 'results', new IDBFactory());
    const said = record('ann');
    await outbox.add(said);
    await outbox.flush('ann');
    expect(await outbox.list('ann')).toEqual([]);
    expect(outbox.uploadedAs(said.id)).toBe('rec-1');
    expect(await outbox.attachAnswer(said.id, { confirm: 'good morning' })).toBe(false);
    expect(server.answers).toEqual([]);
  });

  it('drops an utterance the server keeps nothing of, with its answer', async () => {
    const server = new FakeResultServer();
    server.keeps = false;
    const outbox = new ResultOutbox(server, 'results', new IDBFactory());
    const said = record('ann');
    await outbox.add(said);
    await outbox.attachAnswer(said.id, { confirm: 'good morning' });
    expect(await outbox.flush('ann')).toEqual(new Map([[said.id, 'sent']]));
    expect(outbox.uploadedAs(said.id)).toBeNull();
    expect(server.answers).toEqual([]);
    expect(await outbox.list('ann')).toEqual([]);
  });

  it('keeps an answer to a kept recording that cannot be sent now, and sends it later', async () => {
    const server = new FakeResultServer();
    const outbox = new ResultOutbox(server, 'results', new IDBFactory());
    expect(await outbox.answer('ann', 'rec-9', { confirm: 'thank you' })).toBe('sent');
    server.online = false;
    expect(await outbox.answer('ann', 'rec-9', { confirm: 'thank you' })).toBe('waiting');
    expect(await outbox.list('ann')).toMatchObject([
      { recordingId: 'rec-9', answer: { confirm: 'thank you' } },
    ]);
    server.online = true;
    await outbox.flush('ann');
    expect(server.answers).toHaveLength(2);
    expect(await outbox.list('ann')).toEqual([]);
  });

  it('says when the recording is gone, and passes on other refusals', async () => {
    const server = new FakeResultServer();
    const outbox = new ResultOutbox(server, 'results', new IDBFactory());
    server.answerError = new ApiError(410, 'This recording is no longer kept', 'RECORDING_GONE');
    expect(await outbox.answer('ann', 'rec-9', { confirm: 'thank you' })).toBe('gone');
    server.answerError = new ApiError(422, 'Not one of your phrases');
    await expect(outbox.answer('ann', 'rec-9', { confirm: 'thank you' })).rejects.toThrow('Not one of');
    expect(await outbox.list('ann')).toEqual([]);

    // Waiting, then gone by the time it can be sent: it leaves, and the rest still go.
    server.answerError = undefined;
    server.online = false;
    await outbox.answer('ann', 'rec-9', { confirm: 'thank you' });
    const later = record('ann');
    await outbox.add(later);
    server.online = true;
    server.answerError = new ApiError(410, 'This recording is no longer kept', 'RECORDING_GONE');
    const outcomes = await outbox.flush('ann');
    expect([...outcomes.values()]).toEqual(['refused', 'sent']);
    expect(await outbox.list('ann')).toEqual([]);
  });

  it('sends each record once when two tabs flush at the same moment', async () => {
    const server = new FakeResultServer();
    const [factory, locks] = [new IDBFactory(), fakeLockManager()];
    const tabs = [
      new ResultOutbox(server, 'results', factory, locks),
      new ResultOutbox(server, 'results', factory, locks),
    ];
    await tabs[0]?.add(record('ann'));
    await tabs[1]?.add(record('ann'));
    await Promise.all(tabs.map((tab) => tab.flush('ann')));
    expect(server.uploads).toHaveLength(2);
  });

  it("never sends another person's records", async () => {
    const server = new FakeResultServer();
    const outbox = new ResultOutbox(server, 'results', new IDBFactory());
    await outbox.add(record('bob'));
    await outbox.flush('ann');
    expect(server.uploads).toEqual([]);
    expect(await outbox.list('bob')).toHaveLength(1);
  });
});

const result = (recordingId?: string): RecognitionResult => ({
  text: 'good morning',
  confidence: 0.9,
  rejected: false,
  alternatives: [],
  recognition_mode: 'speak',
  duration: 1,
  acoustic_model_id: 1,
  confidence_threshold: 0.5,
  ...(recordingId === undefined ? {} : { recording_id: recordingId }),
});

describe('KeptRecordings', () => {
  it("answers a server's result about the recording it names", async () => {
    const server = new FakeResultServer();
    const kept = new KeptRecordings(new ResultOutbox(server, 'results', new IDBFactory()));
    const fromServer = result('rec-7');
    expect(kept.mayBeKept(fromServer)).toBe(true);
    expect(await kept.answer(fromServer, 'ann', { confirm: 'good morning' })).toBe('sent');
    expect(server.answers).toEqual([{ recordingId: 'rec-7', answer: { confirm: 'good morning' } }]);
  });

  it('asks about a local result at once, and answers it once its utterance is kept', async () => {
    const server = new FakeResultServer();
    const kept = new KeptRecordings(new ResultOutbox(server, 'results', new IDBFactory()));
    const local = result();
    expect(kept.mayBeKept(local)).toBe(false);
    const stored = kept.keepLocal(local, 'ann', utterance('good morning'));
    expect(kept.mayBeKept(local)).toBe(true);
    await stored;
    expect(await kept.answer(local, 'ann', { noneOfMyPhrases: true })).toBe('sent');
    expect(server.answers).toEqual([{ recordingId: 'rec-1', answer: { noneOfMyPhrases: true } }]);
  });

  it('keeps a local result and its answer offline, and teaches the profile once back', async () => {
    const server = new FakeResultServer();
    server.online = false;
    const outbox = new ResultOutbox(server, 'results', new IDBFactory());
    const kept = new KeptRecordings(outbox);
    const local = result();
    await kept.keepLocal(local, 'ann', utterance('good morning'));
    expect(await kept.answer(local, 'ann', { confirm: 'thank you' })).toBe('waiting');
    server.online = true;
    await outbox.flush('ann');
    expect(server.answers).toEqual([{ recordingId: 'rec-1', answer: { confirm: 'thank you' } }]);
  });

  it('sends a local result without the outbox where IndexedDB cannot keep it', async () => {
    const server = new FakeResultServer();
    const broken = {
      open: () => {
        throw new Error('IndexedDB is disabled');
      },
    } as unknown as IDBFactory;
    const kept = new KeptRecordings(new ResultOutbox(server, 'results', broken));
    const local = result();
    await expect(kept.keepLocal(local, 'ann', utterance('good morning'))).rejects.toThrow('disabled');
    expect(await kept.answer(local, 'ann', { confirm: 'good morning' })).toBe('sent');
    expect(server.answers).toEqual([{ recordingId: 'rec-1', answer: { confirm: 'good morning' } }]);
  });

  it('says an answer comes too late for a result whose utterance was not kept', async () => {
    const server = new FakeResultServer();
    server.keeps = false;
    const kept = new KeptRecordings(new ResultOutbox(server, 'results', new IDBFactory()));
    const local = result();
    await kept.keepLocal(local, 'ann', utterance('good morning'));
    expect(await kept.answer(local, 'ann', { confirm: 'good morning' })).toBe('gone');
    // The same when the answer waited for the upload.
    server.online = false;
    const waited = result();
    await kept.keepLocal(waited, 'ann', utterance('good morning'));
    server.online = true;
    expect(await kept.answer(waited, 'ann', { confirm: 'good morning' })).toBe('gone');
    expect(await kept.answer(result(), 'ann', { confirm: 'good morning' })).toBe('gone');
    expect(server.answers).toEqual([]);
  });
});
