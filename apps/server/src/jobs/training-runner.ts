import { Worker } from 'node:worker_threads';
import { SpeechError, type SpeechErrorCode } from '@parla/speech';
import { compiledWorkerFile } from '../lib/worker-thread.js';
import { trainAndJudge, type TrainedProfile, type TrainingRequest } from './train-profile.js';

type WorkerReply =
  { ok: true; result: TrainedProfile } | { ok: false; message: string; code?: SpeechErrorCode };

/**
 * How long a training worker that has answered waits for the next training before it goes,
 * and how many it trains before it goes anyway. A person answering "That's right" retrains
 * every few answers, and a new worker loads the generic engine again (0.4 s) and, for six
 * phrases or more, the speech encoder (1.3 s). The engine's WebAssembly memory never
 * shrinks, so a worker neither waits long nor trains without end.
 */
const IDLE_MS = 30_000;
const TRAININGS_PER_WORKER = 20;

/** The compiled worker; from the sources (tests) the build next door is used. */
export function trainingWorkerFile(): string | undefined {
  return compiledWorkerFile(new URL('./train-profile.worker.js', import.meta.url));
}

/** A worker that answered its last training and waits for another. */
interface IdleWorker {
  worker: Worker;
  trained: number;
  timer: NodeJS.Timeout;
  /** Forgets it if it fails or stops while it waits. */
  gone: () => void;
}

/**
 * Trains in worker threads (the memory of a large training goes with its worker), or inline
 * when no compiled worker exists. The last worker to answer is kept a little while for the
 * next training; trainings at once each get their own.
 */
export class TrainingWorkers {
  private idle: IdleWorker | undefined;
  private closed = false;

  constructor(private readonly file: string | undefined = trainingWorkerFile()) {}

  async train(request: TrainingRequest): Promise<TrainedProfile> {
    if (!this.file) return trainAndJudge(request);
    const waiting = this.takeIdle();
    const worker = waiting?.worker ?? new Worker(this.file);
    const trained = (waiting?.trained ?? 0) + 1;
    let reply: WorkerReply;
    try {
      reply = await trainOn(worker, request);
    } catch (error) {
      // A worker that broke or stopped is not used again.
      void worker.terminate();
      throw error;
    }
    this.keepIdle(worker, trained);
    if (reply.ok) return reply.result;
    throw reply.code === undefined ? new Error(reply.message) : new SpeechError(reply.code, reply.message);
  }

  /** The thread id of the worker waiting for the next training, if one waits. */
  get idleThreadId(): number | undefined {
    return this.idle?.worker.threadId;
  }

  /** Stops the waiting worker; later trainings' workers go as soon as they answer. */
  async close(): Promise<void> {
    this.closed = true;
    await this.takeIdle()?.worker.terminate();
  }

  private takeIdle(): IdleWorker | undefined {
    const waiting = this.idle;
    if (!waiting) return undefined;
    this.idle = undefined;
    clearTimeout(waiting.timer);
    waiting.worker.off('error', waiting.gone);
    waiting.worker.off('exit', waiting.gone);
    return waiting;
  }

  /** Keeps a worker for the next training, unless one already waits or it has trained enough. */
  private keepIdle(worker: Worker, trained: number) {
    if (this.closed || this.idle || trained >= TRAININGS_PER_WORKER) {
      void worker.terminate();
      return;
    }
    const gone = () => {
      if (this.idle?.worker === worker) void this.takeIdle()?.worker.terminate();
    };
    const timer = setTimeout(gone, IDLE_MS);
    // Neither the waiting worker nor its timer keeps the process alive.
    timer.unref();
    worker.unref();
    worker.on('error', gone);
    worker.on('exit', gone);
    this.idle = { worker, trained, timer, gone };
  }
}

/** One training's request and reply; rejected when the worker fails or stops first. */
function trainOn(worker: Worker, request: TrainingRequest): Promise<WorkerReply> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      worker.off('message', onReply);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onReply = (reply: WorkerReply) => {
      settle();
      resolve(reply);
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const onExit = (code: number) => {
      settle();
      reject(new Error(`The training worker stopped (exit code ${code}).`));
    };
    worker.on('message', onReply);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.ref();
    // Decoded audio is the job's own and moves to the worker; kept analyses are copied, as
    // storage may hand out views of buffers it shares.
    const audio = [...request.takes, ...(request.judge?.takes ?? [])].flatMap((item) =>
      item.audio === undefined ? [] : [item.audio.buffer as ArrayBuffer],
    );
    worker.postMessage(request, [...new Set(audio)]);
  });
}
