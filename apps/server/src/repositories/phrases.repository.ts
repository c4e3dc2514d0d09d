import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { PhraseRow, PhrasesTable } from '../db/schema.js';
import { READABLE_TAKE } from './recordings.repository.js';

/** A count as the drivers return it: pg gives bigint as a string, PGlite as a number or bigint. */
type DbCount = string | number | bigint;

export type PhraseWithTakes = PhraseRow & { takes: number; lost_takes: number };

/** Scenarios, the phrase catalogue and each user's phrases. */
export class PhrasesRepository {
  constructor(private readonly db: Db) {}

  listScenarios() {
    return this.db
      .selectFrom('scenarios')
      .leftJoin('dataset_phrases', 'dataset_phrases.scenario_id', 'scenarios.id')
      .select(['scenarios.id', 'scenarios.name', 'scenarios.description'])
      .select((eb) => eb.fn.count<DbCount>('dataset_phrases.id').as('dataset_size'))
      .groupBy(['scenarios.id', 'scenarios.name', 'scenarios.description', 'scenarios.position'])
      .orderBy('scenarios.position')
      .execute()
      .then((rows) => rows.map((row) => ({ ...row, dataset_size: Number(row.dataset_size) })));
  }

  scenarioExists(id: string) {
    return this.db.selectFrom('scenarios').select('id').where('id', '=', id).executeTakeFirst().then(Boolean);
  }

  /** The scenario activated last, which is the active one. */
  async activeScenario(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('user_scenarios')
      .select('scenario_id')
      .where('user_id', '=', userId)
      .orderBy('activated_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.scenario_id;
  }

  /** Activates a scenario and gives the user its core phrases (those they lack). */
  async activate(userId: string, scenarioId: string, newId: () => string) {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('user_scenarios')
        .values({ user_id: userId, scenario_id: scenarioId, activated_at: new Date() })
        .onConflict((oc) => oc.columns(['user_id', 'scenario_id']).doUpdateSet({ activated_at: new Date() }))
        .execute();
      const core = await trx
        .selectFrom('dataset_phrases')
        .selectAll()
        .where('scenario_id', '=', scenarioId)
        .where('is_core', '=', true)
        .orderBy('position')
        .execute();
      if (core.length === 0) return;
      // One millisecond apart, so that the list keeps the catalogue's order.
      const start = Date.now();
      await trx
        .insertInto('phrases')
        .values(
          core.map((item, index) => ({
            id: newId(),
            created_at: new Date(start + index),
            user_id: userId,
            text: item.text,
            language: item.language,
            scenario_id: scenarioId,
            source: 'static' as const,
            dataset_phrase_id: item.id,
            updated_at: new Date(),
          })),
        )
        .onConflict((oc) => oc.expression(sql`user_id, lower(text)`).doNothing())
        .execute();
    });
  }

  async stats(userId: string) {
    const rows = await this.db
      .selectFrom('phrases')
      .leftJoin('recordings', (join) =>
        join
          .onRef('recordings.phrase_id', '=', 'phrases.id')
          .on('recordings.kind', '=', 'training')
          .on(READABLE_TAKE),
      )
      .select('phrases.scenario_id')
      .select((eb) => [
        eb.fn.count<DbCount>('phrases.id').distinct().as('phrases'),
        eb.fn.count<DbCount>('recordings.phrase_id').distinct().as('recorded_phrases'),
        eb.fn.count<DbCount>('recordings.id').as('takes'),
      ])
      .where('phrases.user_id', '=', userId)
      .groupBy('phrases.scenario_id')
      .execute();
    return rows.map((row) => ({
      scenario_id: row.scenario_id,
      phrases: Number(row.phrases),
      recorded_phrases: Number(row.recorded_phrases),
      takes: Number(row.takes),
    }));
  }

  /** The catalogue of a scenario, marking what the user already has. */
  async dataset(userId: string, scenarioId: string, limit: number) {
    const rows = await this.db
      .selectFrom('dataset_phrases')
      .leftJoin('phrases', (join) =>
        join
          .on('phrases.user_id', '=', userId)
          .on(sql`lower(phrases.text)`, '=', sql`lower(dataset_phrases.text)`),
      )
      .select([
        'dataset_phrases.id',
        'dataset_phrases.text',
        'dataset_phrases.language',
        'dataset_phrases.scenario_id',
        'phrases.id as phrase_id',
      ])
      .where('dataset_phrases.scenario_id', '=', scenarioId)
      .orderBy('dataset_phrases.position')
      .limit(limit)
      .execute();
    return rows.map(({ phrase_id, ...row }) => ({ ...row, added: phrase_id !== null }));
  }

  findDatasetPhrase(id: string) {
    return this.db.selectFrom('dataset_phrases').selectAll().where('id', '=', id).executeTakeFirst();
  }

  list(
    userId: string,
    filter: { scenarioId?: string | undefined; sources?: PhraseRow['source'][] | undefined; id?: string },
  ) {
    let query = this.db
      .selectFrom('phrases')
      .leftJoin('recordings', (join) =>
        join.onRef('recordings.phrase_id', '=', 'phrases.id').on('recordings.kind', '=', 'training'),
      )
      .selectAll('phrases')
      .select((eb) => [
        eb.fn.count<DbCount>('recordings.id').filterWhere(READABLE_TAKE).as('takes'),
        eb.fn.count<DbCount>('recordings.id').filterWhere(eb.not(READABLE_TAKE)).as('lost_takes'),
      ])
      .where('phrases.user_id', '=', userId)
      .groupBy('phrases.id')
      .orderBy('phrases.created_at')
      .orderBy('phrases.id');
    if (filter.scenarioId) query = query.where('phrases.scenario_id', '=', filter.scenarioId);
    if (filter.sources?.length) query = query.where('phrases.source', 'in', filter.sources);
    if (filter.id) query = query.where('phrases.id', '=', filter.id);
    return query
      .execute()
      .then((rows) =>
        rows.map((row) => ({ ...row, takes: Number(row.takes), lost_takes: Number(row.lost_takes) })),
      );
  }

  async find(userId: string, id: string): Promise<PhraseWithTakes | undefined> {
    const [row] = await this.list(userId, { id });
    return row;
  }

  async findByText(userId: string, text: string) {
    return this.db
      .selectFrom('phrases')
      .select('id')
      .where('user_id', '=', userId)
      .where(sql<string>`lower(text)`, '=', text.toLowerCase())
      .executeTakeFirst();
  }

  async insert(row: Omit<PhrasesTable, 'created_at' | 'updated_at'>) {
    await this.db
      .insertInto('phrases')
      .values({ ...row, updated_at: new Date() })
      .execute();
  }

  async updateText(userId: string, id: string, text: string) {
    await this.db
      .updateTable('phrases')
      .set({ text, source: 'edited', updated_at: new Date() })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .execute();
  }

  /** Deletes a phrase with its takes; false when the user has no such phrase. */
  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('phrases')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
