import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../lib/api-error';
import { fakeLockManager } from '../../lib/fake-lock-manager';
import { TakeOutbox, type PendingTake } from './take-outbox';

let counter = 0;
function take(userId: string, phraseId = 'p1'): PendingTake {
  counter += 1;
  return {
    id: `take-${counter}`,
    userId,
    phraseId,
    phraseText: 'Yes please',
    wav: new Uint8Array([1, 2, 3]).buffer,
    info: {},
    createdAt: counter,
    attempts: 0,
  };
}

describe('TakeOutbox', () => {
  it('keeps takes across instances until the server has them, in the order recorded', async () => {
    const factory = new IDBFactory();
    const first = new TakeOutbox('outbox', factory);
    const a = take('ann');
    const b = take('ann');
    await first.add(b);
    await first.add(a);
    await first.add(take('bob'));
    // A new page load sees the same takes.
    const again = new TakeOutbox('outbox', factory);
    expect((await again.list('ann')).map((item) => item.id)).toEqual([a.id, b.id]);
    expect(new Uint8Array((await again.list('ann'))[0]?.wav ?? new ArrayBuffer(0))).toEqual(
      new Uint8Array([1, 2, 3]),
    );

    const sent: string[] = [];
    const result = await again.flush('ann', (item) => {
      sent.push(item.id);
      return Promise.resolve();
    });
    expect(sent).toEqual([a.id, b.id]);
    expect(result).toMatchObject({ waiting: 0, refused: [] });
    expect(await again.list('ann')).toEqual([]);
    // Another person's takes are never sent with this person's session.
    expect(await again.list('bob')).toHaveLength(1);
  });

  it('keeps everything when offline or the server fails, and counts the attempt', async () => {
    const outbox = new TakeOutbox('outbox', new IDBFactory());
    await outbox.add(take('ann'));
    await outbox.add(take('ann'));
    expect((await outbox.flush('ann', () => Promise.reject(new NetworkError()))).waiting).toBe(2);
    expect((await outbox.flush('ann', () => Promise.reject(new ApiError(503, 'busy')))).waiting).toBe(2);
    expect((await outbox.list('ann')).map((item) => item.attempts)).toEqual([2, 0]);
  });

  it('drops a take the server refuses for good, and says why', async () => {
    const outbox = new TakeOutbox('outbox', new IDBFactory());
    const quiet = take('ann');
    const good = take('ann');
    await outbox.add(quiet);
    await outbox.add(good);
    const result = await outbox.flush('ann', (item) =>
      item.id === quiet.id
        ? Promise.reject(new ApiError(422, 'We could not hear anything'))
        : Promise.resolve(),
    );
    expect(result.refused).toEqual([{ take: quiet, message: 'We could not hear anything' }]);
    expect(result.uploaded.map((item) => item.id)).toEqual([good.id]);
    expect(await outbox.list('ann')).toEqual([]);
  });

  it('sends each take once when two tabs flush at the same moment', async () => {
    const [factory, locks] = [new IDBFactory(), fakeLockManager()];
    const tabs = [new TakeOutbox('outbox', factory, locks), new TakeOutbox('outbox', factory, locks)];
    await tabs[0]?.add(take('ann'));
    await tabs[0]?.add(take('ann'));
    const sent: string[] = [];
    const upload = async (item: PendingTake) => {
      sent.push(item.id);
      await new Promise((resolve) => setTimeout(resolve, 10));
    };
    await Promise.all(tabs.map((tab) => tab.flush('ann', upload)));
    expect(sent).toHaveLength(2);
    expect(new Set(sent).size).toBe(2);
  });

  it('runs one flush at a time', async () => {
    const outbox = new TakeOutbox('outbox', new IDBFactory());
    await outbox.add(take('ann'));
    let calls = 0;
    const upload = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    };
    await Promise.all([outbox.flush('ann', upload), outbox.flush('ann', upload)]);
    expect(calls).toBe(1);
  });
});
