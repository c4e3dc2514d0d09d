import type { Db } from './database.js';

/** Data every deployment starts with: the default tech partner that sells the accessibility plan. */
export async function seed(db: Db) {
  await db
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
}
