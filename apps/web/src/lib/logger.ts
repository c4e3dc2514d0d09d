import type { z } from 'zod';
import type { ClientLogEntrySchema } from '@parla/contract';
import { normalizeError } from './api-error';

/** Most entries in one batch: the server's MAX_LOG_ENTRIES (a test keeps the two equal). */
export const MAX_BATCH_ENTRIES = 200;

type LogEntry = z.input<typeof ClientLogEntrySchema>;
type Level = LogEntry['level'];

/**
 * Messages that describe an expected situation, not a fault, and so are never reported
 * (spec section 8), matched case-insensitively within the message.
 */
export const UNREPORTED_MESSAGES = [
  'token expired',
  'already exists',
  'unauthorized',
  'email address is in use',
  'streaming already active',
  'text should not be empty',
  'invalid email or password',
  'session has ended',
] as const;

export function isReportable(message: string): boolean {
  const lower = message.toLowerCase();
  return !UNREPORTED_MESSAGES.some((unreported) => lower.includes(unreported));
}

export interface LoggerOptions {
  /** Sends one batch; rejects when it could not. */
  send: (logs: LogEntry[], options: { keepalive: boolean }) => Promise<void>;
  now?: () => Date;
  maxQueue?: number;
}

/**
 * Client logger: keeps entries in memory and sends them in batches (every 60 s and
 * when the page is hidden, wired by the app). Context holds ids, never personal data.
 */
export class ClientLogger {
  private queue: LogEntry[] = [];
  private info: Record<string, string> = {};
  private flushing: Promise<void> | null = null;

  constructor(private readonly options: LoggerOptions) {}

  /** Ids attached to every entry (user id, app version); cleared on logout. */
  setInfo(info: Record<string, string>) {
    this.info = { ...this.info, ...info };
  }

  clearInfo() {
    this.info = {};
  }

  debug(message: string, context?: Record<string, unknown>) {
    this.add('debug', message, undefined, context);
  }

  warn(message: string, context?: Record<string, unknown>) {
    this.add('warn', message, undefined, context);
  }

  /** Logs an error of any kind, normalised to status and message. */
  error(error: unknown, context?: Record<string, unknown>) {
    const { status, message } = normalizeError(error);
    this.add('error', message, status || undefined, context);
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Sends what is queued; entries stay queued when sending fails. */
  flush({ keepalive = false } = {}): Promise<void> {
    if (this.flushing || this.queue.length === 0) return this.flushing ?? Promise.resolve();
    const batch = this.queue.slice(0, MAX_BATCH_ENTRIES);
    this.flushing = this.options
      .send(batch, { keepalive })
      .then(
        () => {
          this.queue = this.queue.slice(batch.length);
        },
        () => undefined,
      )
      .finally(() => {
        this.flushing = null;
      });
    return this.flushing;
  }

  private add(level: Level, message: string, status: number | undefined, context?: Record<string, unknown>) {
    if (level !== 'debug' && !isReportable(message)) return;
    if (level === 'debug' && !import.meta.env.DEV) return;
    const entry: LogEntry = {
      level,
      message: message.slice(0, 2000),
      timestamp: (this.options.now?.() ?? new Date()).toISOString(),
      context: { ...this.info, ...context },
    };
    if (status !== undefined) entry.status = status;
    this.queue.push(entry);
    const max = this.options.maxQueue ?? MAX_BATCH_ENTRIES * 5;
    if (this.queue.length > max) this.queue.splice(0, this.queue.length - max);
  }
}
