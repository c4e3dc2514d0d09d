import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ModelsTable, RecordingsTable } from '../db/schema.js';

/**
 * A training take whose file could not be read when training last tried (`metadata.unreadable`):
 * it is no longer trained on nor counted among its phrase's takes, so the phrase asks for
 * another. Its row stays.
 */
export const READABLE_TAKE = sql<boolean>`(recordings.metadata->>'unreadable') is null`;

/** A row to insert, with its JSON column given as a value rather than as text. */
type NewRow<Table, JsonColumn extends keyof Table> = Omit<Insertable<Table>, JsonColumn | 'created_at'>;

/** Counts of kept utterances and of what became of them ({@link RecordingsRepository.recognitionOutcomes}). */
export interface RecognitionOutcomes {
  kept: number;
  /** Recognised in the browser. */
  local: number;
  /** Shown a phrase; the rest were turned away as none of the person's phrases. */
  given_an_answer: number;
  /** Answered by the person in any way. */
  answered: number;
  /** "That's right": the phrase shown. */
  right: number;
  /** Another of their phrases than the one shown. */
  put_right: number;
  /** A phrase named for an utterance that was turned away. */
  named_after_turned_away: number;
  /** "Not one of my phrases". */
  none_of_mine: number;
  people: number;
  people_answering: number;
}

/** Stored takes and the voice profiles (models) trained from them. */
export class RecordingsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts a recording; false, inserting nothing, when the user already has one of its
   * `upload_key` (a retried upload: see {@link findByUploadKey}).
   */
  async insert(row: NewRow<RecordingsTable, 'metadata'> & { metadata: Record<string, unknown> | null }) {
    const inserted = await this.db
      .insertInto('recordings')
      .values({ ...row, metadata: row.metadata ? JSON.stringify(row.metadata) : null })
      .onConflict((oc) => oc.columns(['user_id', 'upload_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** The user's recording made by the upload of this key, if one was. */
  findByUploadKey(userId: string, uploadKey: string) {
    return this.db
      .selectFrom('recordings')
      .selectAll()
      .where('user_id', '=', userId)
      .where('upload_key', '=', uploadKey)
      .executeTakeFirst();
  }

  /**
   * Every training take of the user, with its phrase's current words; with `readable`, only
   * those training can still read.
   */
  trainingTakes(userId: string, options: { readable?: boolean } = {}) {
    // Utterances marked as none of the user's phrases are takes without a phrase.
    const query = this.db
      .selectFrom('recordings')
      .leftJoin('phrases', 'phrases.id', 'recordings.phrase_id')
      .select([
        'recordings.id',
        'recordings.storage_key',
        'recordings.metadata',
        'phrases.text',
        'recordings.phrase_id',
      ])
      .where('recordings.user_id', '=', userId)
      .where('recordings.kind', '=', 'training')
      .orderBy('recordings.created_at');
    return (options.readable === true ? query.where(READABLE_TAKE) : query).execute();
  }

  /** One of the user's recordings of a kind; another user's is never found. */
  findOwn(userId: string, id: string, kind: 'training' | 'recognition') {
    return this.db
      .selectFrom('recordings')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .where('kind', '=', kind)
      .executeTakeFirst();
  }

  async updateMetadata(id: string, metadata: Record<string, unknown>) {
    await this.db
      .updateTable('recordings')
      .set({ metadata: JSON.stringify(metadata) })
      .where('id', '=', id)
      .execute();
  }

  /** Training takes from confirmed utterances made after a moment (the current model). */
  async countConfirmedTakesSince(userId: string, since: Date | undefined) {
    let query = this.db
      .selectFrom('recordings')
      .select((eb) => eb.fn.countAll<string | number | bigint>().as('count'))
      .where('user_id', '=', userId)
      .where('kind', '=', 'training')
      .where(sql<string>`metadata->>'source'`, 'in', ['confirmed', 'unknown']);
    if (since) query = query.where('created_at', '>', since);
    return Number((await query.executeTakeFirstOrThrow()).count);
  }

  /** How many training takes the user has, and of how many phrases. */
  async trainingSummary(userId: string) {
    const row = await this.db
      .selectFrom('recordings')
      .select((eb) => [
        eb.fn.countAll<string | number | bigint>().as('takes'),
        eb.fn.count<string | number | bigint>('phrase_id').distinct().as('phrases'),
      ])
      .where('user_id', '=', userId)
      .where('kind', '=', 'training')
      .where('phrase_id', 'is not', null)
      .executeTakeFirstOrThrow();
    return { takes: Number(row.takes), phrases: Number(row.phrases) };
  }

  /**
   * What became of the utterances kept since a moment, over every account but test ones:
   * how many got an answer, and how the people answered (spec: confirm and
   * none_of_my_phrases). Counts only; nobody's words leave the database.
   */
  async recognitionOutcomes(since: Date): Promise<RecognitionOutcomes> {
    const text = sql`lower(recordings.metadata->>'text')`;
    const confirmed = sql`lower(recordings.metadata->>'confirmed_text')`;
    const answered = sql`recordings.metadata->>'confirmed_take_id' is not null`;
    const { rows } = await sql<Record<keyof RecognitionOutcomes, string | number | bigint>>`
      select
        count(*) as kept,
        count(*) filter (where recordings.metadata->>'local' = 'true') as local,
        count(*) filter (where ${text} is not null) as given_an_answer,
        count(*) filter (where ${answered}) as answered,
        count(*) filter (where ${confirmed} = ${text}) as right,
        count(*) filter (where ${confirmed} <> ${text}) as put_right,
        count(*) filter (where ${confirmed} is not null and ${text} is null) as named_after_turned_away,
        count(*) filter (where recordings.metadata->>'marked_unknown' = 'true') as none_of_mine,
        count(distinct recordings.user_id) as people,
        count(distinct recordings.user_id) filter (where ${answered}) as people_answering
      from recordings
      join users on users.id = recordings.user_id
      where recordings.kind = 'recognition' and recordings.created_at >= ${since} and not users.is_test_user
    `.execute(this.db);
    const row = rows[0];
    if (row === undefined) throw new Error('An aggregate returns one row');
    return Object.fromEntries(
      Object.entries(row).map(([name, count]) => [name, Number(count)]),
    ) as unknown as RecognitionOutcomes;
  }

  storageKeysOf(userId: string) {
    return this.db.selectFrom('recordings').select('storage_key').where('user_id', '=', userId).execute();
  }

  latestModel(userId: string, type: string) {
    return this.db
      .selectFrom('models')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', '=', type)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  findModel(userId: string, id: string) {
    return this.db
      .selectFrom('models')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Deletes a user's models of `type` older than `version`, returning where their files are. */
  deleteModelsBefore(userId: string, type: string, version: number) {
    return this.db
      .deleteFrom('models')
      .where('user_id', '=', userId)
      .where('type', '=', type)
      .where('version', '<', version)
      .returning('storage_key')
      .execute();
  }

  async insertModel(row: NewRow<ModelsTable, 'meta'> & { meta: Record<string, unknown> }) {
    await this.db
      .insertInto('models')
      .values({ ...row, meta: JSON.stringify(row.meta) })
      .execute();
  }
}
