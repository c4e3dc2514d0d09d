import { readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestServer } from './support/test-server.js';

interface Received {
  to: string[];
  raw: string;
}

describe('password reset email', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it('is delivered over SMTP when SMTP_URL is set, and its code works', async () => {
    const server = await startTestServer(
      { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Parla <no-reply@parla.test>' },
      { configuredMailer: true },
    );
    try {
      const user = await signUp(server.api);
      await server.api.post('/forgotPassword', { email: user.email });
      const message = received.find((item) => item.to.includes(user.email));
      expect(message).toBeDefined();
      const raw = message?.raw ?? '';
      expect(raw).toMatch(/^From: Parla <no-reply@parla\.test>/m);
      const code = /code is: (\d{6})/.exec(raw)?.[1] ?? '';
      const valid = await server.api.post('/validateResetCode', { email: user.email, code });
      expect(valid.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('is written to the outbox folder by default', async () => {
    const server = await startTestServer({}, { configuredMailer: true });
    const outbox = path.join(server.config.dataDir, 'outbox');
    try {
      const user = await signUp(server.api);
      await server.api.post('/forgotPassword', { email: user.email });
      const files = await readdir(outbox);
      expect(files).toHaveLength(1);
      const text = await readFile(path.join(outbox, files[0] ?? ''), 'utf8');
      expect(text).toContain(`To: ${user.email}`);
      expect(text).toMatch(/Your code is: \d{6}/);
    } finally {
      await server.close();
      await rm(server.config.dataDir, { recursive: true, force: true });
    }
  });
});
