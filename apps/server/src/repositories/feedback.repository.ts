import type { Db } from '../db/database.js';

/** What users and their apps send us: support requests and client logs. */
export class FeedbackRepository {
  constructor(private readonly db: Db) {}

  async insertSupportRequest(row: {
    id: string;
    user_id: string;
    type: string;
    text: string;
    metadata: Record<string, unknown> | null;
  }) {
    await this.db
      .insertInto('support_requests')
      .values({ ...row, metadata: row.metadata ? JSON.stringify(row.metadata) : null })
      .execute();
  }

  async insertClientLogs(
    rows: {
      user_id: string | null;
      app_name: string;
      level: string;
      message: string;
      status: number | null;
      context: Record<string, unknown> | null;
      logged_at: Date;
    }[],
  ) {
    await this.db
      .insertInto('client_logs')
      .values(rows.map((row) => ({ ...row, context: row.context ? JSON.stringify(row.context) : null })))
      .execute();
  }

  async recordAccountDeletion(optOutRecognition: boolean, optOutTraining: boolean) {
    await this.db
      .insertInto('account_deletions')
      .values({ opt_out_audio_recognition: optOutRecognition, opt_out_audio_training: optOutTraining })
      .execute();
  }
}
