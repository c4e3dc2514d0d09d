import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface Email {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

export interface Mailer {
  send(email: Email): Promise<void>;
  close(): void;
}

/** The embedded default: each email becomes a file in the outbox folder, and a log line says where. */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly outboxDir: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(email: Email) {
    await mkdir(this.outboxDir, { recursive: true, mode: 0o700 });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`;
    const file = path.join(this.outboxDir, name);
    const headers = [`From: ${this.from}`, `To: ${email.to}`, `Subject: ${email.subject}`];
    if (email.replyTo) headers.push(`Reply-To: ${email.replyTo}`);
    const message = [...headers, '', email.text, ''].join('\r\n');
    await writeFile(file, message, { mode: 0o600 });
    // The address and the body stay out of the log: they are personal data.
    this.log.info({ outboxFile: file, subject: email.subject }, 'email written to the outbox');
  }

  close() {
    // Nothing to close.
  }
}

/** Delivery through an SMTP server (SMTP_URL). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(email: Email) {
    await this.transport.sendMail({
      from: this.from,
      to: email.to,
      subject: email.subject,
      text: email.text,
      ...(email.replyTo ? { replyTo: email.replyTo } : {}),
    });
  }

  close() {
    this.transport.close();
  }
}
