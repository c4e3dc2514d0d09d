import type { Db } from './database.js';
import { SCENARIOS } from './content/scenarios.js';

/** A stable id for a catalogue phrase: the scenario and the words of the text. */
export function datasetPhraseId(scenarioId: string, text: string) {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${scenarioId}/${slug}`;
}

/**
 * Data every deployment starts with, brought up to date on each start: the default
 * tech partner and the scenario catalogue.
 */
export async function seed(db: Db) {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('tech_partners')
      .values({
        id: 'parla-access',
        seller: 'Parla',
        name: 'Parla Access',
        url: null,
        description: 'The accessibility subscription: personal recognition, speak and dictate modes.',
        is_default: true,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();

    await trx
      .insertInto('scenarios')
      .values(SCENARIOS.map(({ id, name, description }, position) => ({ id, name, description, position })))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          description: eb.ref('excluded.description'),
          position: eb.ref('excluded.position'),
        })),
      )
      .execute();

    const phrases = SCENARIOS.flatMap((scenario) =>
      scenario.phrases.map((text, position) => ({
        id: datasetPhraseId(scenario.id, text),
        scenario_id: scenario.id,
        text,
        language: 'en-US',
        position,
        is_core: position < scenario.core,
      })),
    );
    await trx
      .insertInto('dataset_phrases')
      .values(phrases)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          text: eb.ref('excluded.text'),
          position: eb.ref('excluded.position'),
          is_core: eb.ref('excluded.is_core'),
        })),
      )
      .execute();
  });
}
