import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';

/**
 * The compiled worker at `url` (beside the module that asks); running from the sources
 * (tests), the build next door. Undefined when neither exists.
 */
export function compiledWorkerFile(url: URL): string | undefined {
  const here = fileURLToPath(url);
  const built = here.replace(/([/\\])src([/\\])/, '$1dist$2');
  return [here, built].find((file) => existsSync(file));
}

interface Request<T> {
  id: number;
  body: T;
}

type Reply<R> = { id: number; ok: true; result: R } | { id: number; ok: false; message: string };

interface Pending<R> {
  resolve: (result: R) => void;
  reject: (error: Error) => void;
}

/**
 * One long-lived worker thread answering requests, started on first use. A worker that
 * dies fails the requests it held and is started afresh by the next one; an idle worker
 * does not keep the process alive.
 */
export class WorkerThread<T, R> {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending<R>>();
  private nextId = 1;

  constructor(
    private readonly workerFile: string,
    private readonly name: string,
  ) {}

  /** Sends a request; `transfer` lists buffers that move to the worker with it. */
  call(body: T, transfer: ArrayBuffer[] = []): Promise<R> {
    const id = this.nextId++;
    const worker = this.ensureWorker();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, body } satisfies Request<T>, transfer);
    });
  }

  async close() {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error(`${this.name} closed`));
    await worker?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerFile);
    worker.on('message', (reply: Reply<R>) => {
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (!pending) return;
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(new Error(reply.message));
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(error);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error(`${this.name} stopped`));
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error) {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

/**
 * The worker's side: answers each request with `handle`'s result (its `transfer` buffers
 * moved, not copied), or with the message of what it threw. `handle` takes the request
 * body its module's client sends.
 */
export function answerRequests(
  handle: (body: never) => Promise<{ result: unknown; transfer?: ArrayBuffer[] }>,
) {
  parentPort?.on('message', (request: Request<never>) => {
    handle(request.body)
      .then(({ result, transfer }) => {
        parentPort?.postMessage(
          { id: request.id, ok: true, result } satisfies Reply<unknown>,
          transfer ?? [],
        );
      })
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        parentPort?.postMessage({ id: request.id, ok: false, message } satisfies Reply<unknown>);
      });
  });
}
