import type { Config } from '../config/env.js';
import { newId } from '../lib/crypto.js';
import type { Mailer } from '../mail/mailer.js';
import { supportRequestEmail } from '../mail/templates.js';
import type { FeedbackRepository } from '../repositories/feedback.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { notFound } from '../errors.js';

interface ClientLogEntry {
  level: string;
  message: string;
  status?: number | undefined;
  timestamp: string;
  context?: Record<string, unknown> | undefined;
}

/** Support requests (stored and mailed to the support address) and client log batches. */
export class FeedbackService {
  constructor(
    private readonly config: Config,
    private readonly feedback: FeedbackRepository,
    private readonly users: UsersRepository,
    private readonly mailer: Mailer,
  ) {}

  async createSupportRequest(
    userId: string,
    request: { type: string; text: string; metadata?: Record<string, unknown> | undefined },
  ) {
    const user = await this.users.findById(userId);
    if (!user) throw notFound('User');
    const id = newId();
    await this.feedback.insertSupportRequest({
      id,
      user_id: userId,
      type: request.type,
      text: request.text,
      metadata: request.metadata ?? null,
    });
    await this.mailer.send({
      ...supportRequestEmail(this.config.supportEmail, this.config.productName, { id, ...request }),
      replyTo: user.email,
    });
    return { id };
  }

  async storeClientLogs(userId: string | null, appName: string, logs: ClientLogEntry[]) {
    await this.feedback.insertClientLogs(
      logs.map((entry) => ({
        user_id: userId,
        app_name: appName,
        level: entry.level,
        message: entry.message,
        status: entry.status ?? null,
        context: entry.context ?? null,
        logged_at: new Date(entry.timestamp),
      })),
    );
    return { accepted: logs.length };
  }
}
