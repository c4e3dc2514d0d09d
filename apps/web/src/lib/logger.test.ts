import { describe, expect, it, vi } from 'vitest';
import { MAX_LOG_ENTRIES } from '@parla/contract';
import { ClientLogger, MAX_BATCH_ENTRIES, isReportable } from './logger';

const now = () => new Date('2026-01-02T03:04:05.000Z');

describe('ClientLogger', () => {
  it('normalises errors to status and message and sends them in one batch', async () => {
    const send = vi.fn(() => Promise.resolve());
    const logger = new ClientLogger({ send, now });
    logger.setInfo({ user_id: 'u1' });
    logger.error({ status: 500, message: 'Database down' });
    logger.error(new Error(''));
    logger.warn('slow page', { page: '/record' });
    await logger.flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]).toEqual([
      [
        {
          level: 'error',
          message: 'Database down',
          status: 500,
          timestamp: '2026-01-02T03:04:05.000Z',
          context: { user_id: 'u1' },
        },
        {
          level: 'error',
          message: 'Something went wrong',
          timestamp: '2026-01-02T03:04:05.000Z',
          context: { user_id: 'u1' },
        },
        {
          level: 'warn',
          message: 'slow page',
          timestamp: '2026-01-02T03:04:05.000Z',
          context: { user_id: 'u1', page: '/record' },
        },
      ],
      { keepalive: false },
    ]);
    expect(logger.pending).toBe(0);
  });

  it('never reports the expected messages of the spec', () => {
    for (const message of [
      'Token expired',
      'Shortcut with this input already exists',
      'Unauthorized',
      'Email address is in use',
      'Streaming already active',
      'text should not be empty',
    ]) {
      expect(isReportable(message)).toBe(false);
    }
    expect(isReportable('Database down')).toBe(true);
  });

  it('keeps entries when sending fails, and forgets user info on clear', async () => {
    const send = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(undefined);
    const logger = new ClientLogger({ send, now });
    logger.setInfo({ user_id: 'u1' });
    logger.error(new Error('boom'));
    await logger.flush();
    expect(logger.pending).toBe(1);
    logger.clearInfo();
    logger.error(new Error('after logout'));
    await logger.flush({ keepalive: true });
    expect(logger.pending).toBe(0);
    const batch = (send.mock.calls[1] as unknown[])[0] as { context?: Record<string, unknown> }[];
    expect(batch[1]?.context).toEqual({});
  });

  it('sends batches no larger than the server accepts', () => {
    expect(MAX_BATCH_ENTRIES).toBe(MAX_LOG_ENTRIES);
  });

  it('does not send an empty batch', async () => {
    const send = vi.fn(() => Promise.resolve());
    await new ClientLogger({ send }).flush();
    expect(send).not.toHaveBeenCalled();
  });
});
