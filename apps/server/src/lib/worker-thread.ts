import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';

/**
 * The compiled worker at `url` (beside the module that asks); running from the sources
 * (tests), the build next door. Undefined when neither exists.
 */
export function compiledWorkerFile(url: URL): string | undefined {
  const here = fileURLToPath(url);
  // The last `src` folder is the server's own: a checkout may sit under another named `src`.
  const built = here.replace(/([/\\])src([/\\])(?!.*[/\\]src[/\\])/, '$1dist$2');
  return [here, built].find((file) => existsSync(file));
}

interface Request<T> {
  id: number;
  body: T;
}

/** A reply; `retire` when the worker asks to be replaced once it has answered what it holds. */
type Reply<R> =
  | { id: number; ok: true; result: R; retire?: boolean }
  | { id: number; ok: false; message: string; retire?: boolean };

interface Pending<R> {
  resolve: (result: R) => void;
  reject: (error: Error) => void;
  worker: Worker;
}

/** How a {@link WorkerThread} starts its workers. */
export interface WorkerThreadOptions<T> {
  /** Handed to every worker as `workerData`. */
  workerData?: unknown;
  /** Requests sent to every new worker before any other: the state a worker before it held. */
  replay?: () => T[];
}

/**
 * One long-lived worker thread answering requests, started on first use. A worker that
 * dies fails the requests it held and is started afresh by the next one; so is one that asks
 * to retire (a reply's `retire`), which answers what it was sent before it goes. An idle
 * worker does not keep the process alive.
 */
export class WorkerThread<T, R> {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending<R>>();
  /** Workers asked to retire that still owe replies. */
  private readonly retiring = new Set<Worker>();
  private nextId = 1;
  private startedCount = 0;

  constructor(
    private readonly workerFile: string,
    private readonly name: string,
    private readonly options: WorkerThreadOptions<T> = {},
  ) {}

  /** Workers started so far. */
  get started(): number {
    return this.startedCount;
  }

  /** Sends a request; `transfer` lists buffers that move to the worker with it. */
  call(body: T, transfer: ArrayBuffer[] = []): Promise<R> {
    return this.send(this.ensureWorker(), body, transfer);
  }

  async close() {
    const workers = [...(this.worker ? [this.worker] : []), ...this.retiring];
    this.worker = undefined;
    this.retiring.clear();
    this.fail(() => true, new Error(`${this.name} closed`));
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private send(worker: Worker, body: T, transfer: ArrayBuffer[] = []): Promise<R> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker });
      worker.ref();
      worker.postMessage({ id, body } satisfies Request<T>, transfer);
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerFile, { workerData: this.options.workerData });
    this.startedCount++;
    worker.on('message', (reply: Reply<R>) => {
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.retire === true && this.worker === worker) {
        this.worker = undefined;
        this.retiring.add(worker);
      }
      if (!this.owes(worker)) {
        worker.unref();
        if (this.retiring.delete(worker)) void worker.terminate();
      }
      if (!pending) return;
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(new Error(reply.message));
    });
    worker.on('error', (error) => this.gone(worker, error));
    worker.on('exit', () => this.gone(worker, new Error(`${this.name} stopped`)));
    worker.unref();
    this.worker = worker;
    // What the worker before held, ahead of anything else it is sent.
    for (const body of this.options.replay?.() ?? []) this.send(worker, body).catch(() => undefined);
    return worker;
  }

  private owes(worker: Worker): boolean {
    return [...this.pending.values()].some((pending) => pending.worker === worker);
  }

  private gone(worker: Worker, error: Error) {
    if (this.worker === worker) this.worker = undefined;
    this.retiring.delete(worker);
    this.fail((pending) => pending.worker === worker, error);
  }

  private fail(which: (pending: Pending<R>) => boolean, error: Error) {
    for (const [id, pending] of this.pending) {
      if (!which(pending)) continue;
      this.pending.delete(id);
      pending.reject(error);
    }
  }
}

/**
 * The worker's side: answers each request with `handle`'s result (its `transfer` buffers
 * moved, not copied), or with the message of what it threw; with `retire`, it asks to be
 * replaced (see {@link WorkerThread}). `handle` takes the request body its module's client sends.
 */
export function answerRequests(
  handle: (body: never) => Promise<{ result: unknown; transfer?: ArrayBuffer[]; retire?: boolean }>,
) {
  parentPort?.on('message', (request: Request<never>) => {
    handle(request.body)
      .then(({ result, transfer, retire }) => {
        parentPort?.postMessage(
          {
            id: request.id,
            ok: true,
            result,
            ...(retire === true ? { retire } : {}),
          } satisfies Reply<unknown>,
          transfer ?? [],
        );
      })
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        parentPort?.postMessage({ id: request.id, ok: false, message } satisfies Reply<unknown>);
      });
  });
}
