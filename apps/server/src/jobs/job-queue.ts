import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { newId } from '../lib/crypto.js';
import { isUniqueViolation } from '../lib/database-errors.js';

export interface Job {
  id: string;
  kind: string;
  userId: string | null;
  payload: Record<string, unknown>;
  attempts: number;
}

export type JobHandler = (job: Job) => Promise<void>;

export interface JobQueueOptions {
  /** How often to look for due jobs when nothing wakes the queue. */
  pollMs?: number;
  maxAttempts?: number;
}

/**
 * The job queue kept in the database: jobs survive a restart, and several processes can
 * share one table (a job is claimed with FOR UPDATE SKIP LOCKED). At most one job of a
 * kind waits per user, so a burst of new takes leads to one retrain.
 */
export class JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly wake = new EventEmitter();
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly pollMs: number;
  private readonly maxAttempts: number;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: JobQueueOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  register(kind: string, handler: JobHandler) {
    this.handlers.set(kind, handler);
  }

  /** Queues a job unless one of this kind already waits for the user. */
  async enqueue(kind: string, userId: string | null, payload: Record<string, unknown> = {}, delayMs = 0) {
    await this.db
      .insertInto('jobs')
      .values({
        id: newId(),
        kind,
        user_id: userId,
        payload: JSON.stringify(payload),
        run_after: new Date(Date.now() + delayMs),
      })
      .onConflict((oc) => oc.columns(['kind', 'user_id']).where('status', '=', 'queued').doNothing())
      .execute();
    this.wake.emit('job');
  }

  /** Whether a job of this kind is waiting or running for the user. */
  async isPending(kind: string, userId: string) {
    const row = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', kind)
      .where('user_id', '=', userId)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Starts working; jobs left running by a stopped process are queued again first. */
  async start() {
    if (this.running) return;
    const stale = await this.db.selectFrom('jobs').select('id').where('status', '=', 'running').execute();
    for (const { id } of stale) await this.requeueOrRetire(id, 'interrupted by a restart', 0);
    this.running = true;
    this.loop = this.work();
  }

  async stop() {
    this.running = false;
    this.wake.emit('job');
    await this.loop;
  }

  private async work() {
    while (this.running) {
      const job = await this.claim().catch((error: unknown) => {
        this.log.error({ err: error }, 'could not claim a job');
        return undefined;
      });
      if (job) {
        await this.run(job);
        continue;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wake.off('job', done);
          resolve();
        };
        const timer = setTimeout(done, this.pollMs);
        this.wake.once('job', done);
      });
    }
  }

  private async claim(): Promise<Job | undefined> {
    const kinds = [...this.handlers.keys()];
    if (kinds.length === 0) return undefined;
    const { rows } = await sql<{
      id: string;
      kind: string;
      user_id: string | null;
      payload: Record<string, unknown>;
      attempts: number;
    }>`
      update jobs set status = 'running', locked_at = now(), attempts = attempts + 1, updated_at = now()
      where id = (
        select id from jobs
        where status = 'queued' and run_after <= now() and kind in (${sql.join(kinds)})
        order by run_after, created_at
        for update skip locked
        limit 1
      )
      returning id, kind, user_id, payload, attempts`.execute(this.db);
    const row = rows[0];
    return (
      row && { id: row.id, kind: row.kind, userId: row.user_id, payload: row.payload, attempts: row.attempts }
    );
  }

  private async run(job: Job) {
    const handler = this.handlers.get(job.kind);
    const started = Date.now();
    try {
      if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
      await handler(job);
      await this.db
        .updateTable('jobs')
        .set({ status: 'done', updated_at: new Date(), last_error: null })
        .where('id', '=', job.id)
        .execute();
      this.log.info({ job: job.id, kind: job.kind, ms: Date.now() - started }, 'job done');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.error({ job: job.id, kind: job.kind, err: error }, 'job failed');
      if (job.attempts >= this.maxAttempts) {
        await this.db
          .updateTable('jobs')
          .set({ status: 'failed', last_error: message, updated_at: new Date() })
          .where('id', '=', job.id)
          .execute();
      } else {
        await this.requeueOrRetire(job.id, message, 2 ** job.attempts * 1000);
      }
    }
  }

  /** Puts a job back in the queue; if a newer one of its kind already waits, that one covers it. */
  private async requeueOrRetire(id: string, reason: string, delayMs: number) {
    try {
      await this.db
        .updateTable('jobs')
        .set({
          status: 'queued',
          last_error: reason,
          run_after: new Date(Date.now() + delayMs),
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await this.db
        .updateTable('jobs')
        .set({ status: 'done', last_error: `${reason}; superseded`, updated_at: new Date() })
        .where('id', '=', id)
        .execute();
    }
  }
}
