import type { Phrase, ShortcutPhrase } from '@parla/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, saveScreenshots, seriousViolations } from './support/browser.js';
import { usePagePerTest } from './support/harness.js';
import type { TestServer, TestUser } from './support/server.js';
import { recordRequests, seedSession } from './support/session.js';

// The person's own library under /record: shortcut phrases (a short input said, a long
// output spoken or written) and personal vocabulary (their own words to record), added,
// changed and deleted through the real screens against the real server.

const CONFLICT = 'Shortcut with this input already exists';

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness));

/** axe finds nothing serious on the screen as it is now, and a phone needs no sideways scrolling. */
async function checkAccessibility() {
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize(PHONE);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  await page.setViewportSize(DESKTOP);
  expect(overflow).toBe(0);
}

/** A call to the server as the user, outside the browser; resolves to the parsed JSON body. */
async function apiAs(user: TestUser, path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${user.session.access_token}`,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  return (await response.json()) as unknown;
}

const shortcutsOf = async (user: TestUser) =>
  ((await apiAs(user, '/app/casr/shortcut_phrases')) as { shortcut_phrases: ShortcutPhrase[] })
    .shortcut_phrases;

const phrasesOf = async (user: TestUser, query = '') =>
  ((await apiAs(user, `/app/casr/phrases${query}`)) as { phrases: Phrase[] }).phrases;

const pathname = () => new URL(page.url()).pathname;

describe('shortcut phrases', () => {
  it('adds, refuses a taken input in any case, edits and deletes a shortcut', async () => {
    const user = await server.signUp();
    await seedSession(context, user);
    const requests = recordRequests(page);

    // Nothing yet: the tab says what a shortcut is and offers to add one.
    await page.goto('/record/shortcut_phrases');
    await page.getByRole('heading', { name: 'No shortcuts yet' }).waitFor();
    await page.getByText(/When you say the input in Speak/).waitFor();
    await saveScreenshots(page, 'library-shortcuts-empty');
    await checkAccessibility();

    await page.getByRole('link', { name: 'Add a shortcut' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add a shortcut' }).waitFor();
    const input = page.getByRole('textbox', { name: 'Short input: what you say' });
    const output = page.getByRole('textbox', { name: 'Output: what is spoken or written' });
    await saveScreenshots(page, 'library-shortcut-add');
    await checkAccessibility();

    // Both are required; the first wrong field gets the focus, and nothing is sent.
    await page.getByRole('button', { name: 'Add shortcut' }).click();
    await page.getByText('Write the short input').waitFor();
    await page.getByText('Write the text the shortcut stands for').waitFor();
    expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await saveScreenshots(page, 'library-shortcut-add-errors');
    await checkAccessibility();

    await input.fill('  Coffee ');
    await output.fill('Could I have a coffee with milk, please?  ');
    await page.getByRole('button', { name: 'Add shortcut' }).click();
    await page.getByRole('heading', { name: 'Shortcut phrases' }).waitFor();
    expect(pathname()).toBe('/record/shortcut_phrases');
    const list = page.getByRole('list', { name: 'Your shortcut phrases' });
    await list
      .getByRole('link', { name: 'Coffee becomes Could I have a coffee with milk, please?' })
      .waitFor();
    expect(await list.getByText('→').isVisible()).toBe(true);
    expect((await shortcutsOf(user)).map(({ input, output }) => ({ input, output }))).toEqual([
      { input: 'Coffee', output: 'Could I have a coffee with milk, please?' },
    ]);
    await saveScreenshots(page, 'library-shortcuts-list');
    await checkAccessibility();
    // The success toast sits below the header, so the Menu button stays usable on a phone.
    await page.setViewportSize(PHONE);
    const toast = await page.getByText('Shortcut added').boundingBox();
    const menu = await page.getByRole('link', { name: 'Menu' }).boundingBox();
    await page.setViewportSize(DESKTOP);
    expect(toast?.y).toBeGreaterThanOrEqual((menu?.y ?? Infinity) + (menu?.height ?? 0));

    // The same input in other case: refused in the form, before anything is sent.
    await page.getByRole('link', { name: 'Add a shortcut' }).click();
    await input.fill('COFFEE');
    await output.fill('Tea, please.');
    const posts = () =>
      requests.filter((r) => r.method === 'POST' && r.path === '/app/casr/shortcut_phrases').length;
    expect(posts()).toBe(1);
    await page.getByRole('button', { name: 'Add shortcut' }).click();
    await page.getByText(CONFLICT).waitFor();
    expect(posts()).toBe(1);
    await saveScreenshots(page, 'library-shortcut-add-conflict');
    await checkAccessibility();

    // Taken meanwhile elsewhere (this screen's list does not know it): the server's 409,
    // the same message, the form kept as typed and nothing added.
    await apiAs(user, '/app/casr/shortcut_phrases', {
      method: 'POST',
      body: { input: 'Tea', output: 'A cup of tea with lemon, please.' },
    });
    await input.fill(' tEA ');
    await output.fill('Another tea');
    await page.getByRole('button', { name: 'Add shortcut' }).click();
    await expect.poll(posts).toBe(2);
    await page.getByText(CONFLICT).waitFor();
    expect(await input.inputValue()).toBe(' tEA ');
    expect(pathname()).toBe('/record/shortcut_phrases/add');
    expect((await shortcutsOf(user)).map((s) => s.input)).toEqual(['Coffee', 'Tea']);

    // The 409 refreshed the list, so the list shows the other shortcut too.
    await page.getByRole('link', { name: 'Cancel' }).click();
    await list.getByRole('link', { name: /^Tea becomes/ }).waitFor();

    // The item page shows both halves, and edits keep their own input in any case.
    await list.getByRole('link', { name: /^Coffee becomes/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Shortcut phrase' }).waitFor();
    await page.getByText('Could I have a coffee with milk, please?').waitFor();
    await saveScreenshots(page, 'library-shortcut-item');
    await checkAccessibility();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit shortcut' }).waitFor();
    expect(await input.inputValue()).toBe('Coffee');
    await input.fill('tea');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(CONFLICT).waitFor();
    await saveScreenshots(page, 'library-shortcut-edit-conflict');
    await checkAccessibility();
    await input.fill('COFFEE');
    await output.fill('A coffee, please.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await list.getByRole('link', { name: 'COFFEE becomes A coffee, please.' }).waitFor();
    expect((await shortcutsOf(user)).find((s) => s.input === 'COFFEE')?.output).toBe('A coffee, please.');

    // Deleting asks first; Cancel keeps it.
    await list.getByRole('link', { name: /^COFFEE becomes/ }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this shortcut?' });
    await dialog.getByText('Saying “COFFEE” will no longer become “A coffee, please.”').waitFor();
    await saveScreenshots(page, 'library-shortcut-delete-dialog');
    await checkAccessibility();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await shortcutsOf(user)).toHaveLength(2);
    await page.getByRole('button', { name: 'Delete…' }).click();
    await dialog.getByRole('button', { name: 'Delete shortcut' }).click();
    await page.getByRole('heading', { name: 'Shortcut phrases' }).waitFor();
    await list.getByRole('link', { name: /^Tea becomes/ }).waitFor();
    expect(await list.getByRole('link', { name: /^COFFEE/ }).count()).toBe(0);
    expect((await shortcutsOf(user)).map((s) => s.input)).toEqual(['Tea']);
    // The deleted shortcut was not asked for again while its page closed.
    const deletion = requests.findIndex((r) => r.method === 'DELETE');
    const deleted = requests[deletion]?.path;
    expect(requests.slice(deletion + 1).filter((r) => r.method === 'GET' && r.path === deleted)).toEqual([]);

    // An address of a shortcut that does not exist says so.
    await page.goto('/record/shortcut_phrases/nothing-here');
    await page.getByRole('heading', { name: 'This shortcut does not exist' }).waitFor();
    await checkAccessibility();
  }, 90_000);
});

describe('personal vocabulary', () => {
  it('adds, edits, records and deletes a phrase of the person’s own', async () => {
    const user = await server.signUp();
    await seedSession(context, user);

    await page.goto('/record/personal_vocabulary');
    await page.getByRole('heading', { name: 'No words of your own yet' }).waitFor();
    await saveScreenshots(page, 'library-vocabulary-empty');
    await checkAccessibility();

    await page.getByRole('link', { name: 'Add a word or phrase' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add to your vocabulary' }).waitFor();
    const text = page.getByRole('textbox', { name: 'Word or phrase' });
    await page.getByText(/^It joins your phrases for “/).waitFor();
    await page.getByRole('button', { name: 'Add to vocabulary' }).click();
    await page.getByText('Write the word or phrase').waitFor();
    await saveScreenshots(page, 'library-vocabulary-add-errors');
    await checkAccessibility();

    // A phrase the person already has (from the scenario), in other case: the server's 409.
    const known = (await phrasesOf(user))[0];
    if (!known) throw new Error('the active scenario has no phrases');
    await text.fill(known.text.toUpperCase());
    await page.getByRole('button', { name: 'Add to vocabulary' }).click();
    await page.getByText('This phrase is already in your list').waitFor();
    expect(pathname()).toBe('/record/personal_vocabulary/add');

    await text.fill(' Aunt Margarethe ');
    await page.getByRole('button', { name: 'Add to vocabulary' }).click();
    const list = page.getByRole('list', { name: 'Your personal vocabulary' });
    await list.getByRole('link', { name: /^Aunt Margarethe/ }).waitFor();
    await list.getByText('0 of 3 takes recorded').waitFor();
    await saveScreenshots(page, 'library-vocabulary-list');
    await checkAccessibility();

    // It is one of the scenario's phrases on the Phrases tab too (its queries were refreshed).
    await page.getByRole('link', { name: 'Phrases', exact: true }).click();
    await page
      .getByRole('list', { name: /^Your phrases: / })
      .getByText('Aunt Margarethe')
      .waitFor();
    await page.getByRole('link', { name: 'Personal vocabulary' }).click();

    await list.getByRole('link', { name: /^Aunt Margarethe/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Vocabulary phrase' }).waitFor();
    await page.getByText('0 of 3 takes').waitFor();
    await saveScreenshots(page, 'library-vocabulary-item');
    await checkAccessibility();

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit phrase' }).waitFor();
    expect(await text.inputValue()).toBe('Aunt Margarethe');
    await saveScreenshots(page, 'library-vocabulary-edit');
    await checkAccessibility();
    await text.fill('Aunt Margaret');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await list.getByRole('link', { name: /^Aunt Margaret\b/ }).waitFor();
    const own = await phrasesOf(user, '?sources=custom,edited');
    expect(own.map((phrase) => phrase.text)).toEqual(['Aunt Margaret']);

    // Record opens the recorder on this phrase.
    await list.getByRole('link', { name: 'Record “Aunt Margaret”' }).click();
    await page.getByLabel('Say: Aunt Margaret').waitFor();
    expect(pathname()).toMatch(/^\/record\/training\/.+/);
    await page.goBack();
    await list.getByRole('link', { name: /^Aunt Margaret/ }).click();
    await page.getByRole('link', { name: 'Record it' }).click();
    await page.getByLabel('Say: Aunt Margaret').waitFor();
    await page.goBack();

    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this phrase?' });
    await dialog.getByText('“Aunt Margaret” is removed from your vocabulary.').waitFor();
    await saveScreenshots(page, 'library-vocabulary-delete-dialog');
    await checkAccessibility();
    await dialog.getByRole('button', { name: 'Delete phrase' }).click();
    await page.getByRole('heading', { name: 'No words of your own yet' }).waitFor();
    expect(await phrasesOf(user, '?sources=custom,edited')).toEqual([]);
  }, 90_000);
});
