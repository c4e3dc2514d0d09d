import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openMigratedPglite } from '../../test/support/migrated-pglite.js';
import type { Db } from '../db/database.js';
import { JobQueue, type Job } from './job-queue.js';

const log = pino({ level: 'silent' });

describe('JobQueue', { timeout: 20_000 }, () => {
  let db: Db | undefined;
  let queue: JobQueue | undefined;
  afterEach(async () => {
    await queue?.stop();
    await db?.destroy();
  });

  async function setUp(pollMs = 20) {
    db = await openMigratedPglite();
    queue = new JobQueue(db, log, { pollMs, maxAttempts: 2 });
    return { db, queue };
  }

  it('runs queued jobs, one waiting job per kind and user at a time', async () => {
    const { queue } = await setUp();
    const seen: Job[] = [];
    queue.register('work', (job) => {
      seen.push(job);
      return Promise.resolve();
    });
    await queue.enqueue('work', null, { n: 1 }, 50);
    await queue.enqueue('work', null, { n: 2 }, 50);
    await queue.start();
    await expect.poll(() => seen.length, { timeout: 2000 }).toBe(1);
    expect(seen[0]?.payload).toEqual({ n: 1 });
  });

  it('retries a failing job, then marks it failed with the reason', async () => {
    const { db, queue } = await setUp();
    let calls = 0;
    queue.register('flaky', () => {
      calls += 1;
      return Promise.reject(new Error('disk on fire'));
    });
    await queue.enqueue('flaky', null);
    await queue.start();
    await expect
      .poll(() => db.selectFrom('jobs').select(['status', 'attempts', 'last_error']).executeTakeFirst(), {
        timeout: 5000,
      })
      .toEqual({ status: 'failed', attempts: 2, last_error: 'disk on fire' });
    expect(calls).toBe(2);
  });

  it('waits without piling up listeners while idle', async () => {
    const { queue } = await setUp(5);
    queue.register('idle', () => Promise.resolve());
    await queue.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((queue as unknown as { wake: NodeJS.EventEmitter }).wake.listenerCount('job')).toBeLessThanOrEqual(
      1,
    );
  });
});
