import type { Phrase, Scenario, ShortcutPhrase } from '@parla/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Scenarios = { availableScenarios: Scenario[] };
type Phrases = { phrases: Phrase[] };

describe('scenarios', () => {
  it('offers six scenarios of at least 40 phrases, starting in basic needs with its core phrases', async () => {
    const user = await signUp(server.api);
    const { body } = await server.api.get<Scenarios>('/app/scenarios', user.access_token);
    expect(body.availableScenarios).toHaveLength(6);
    for (const scenario of body.availableScenarios) expect(scenario.dataset_size).toBeGreaterThanOrEqual(40);
    expect(body.availableScenarios.filter((s) => s.isActive).map((s) => s.scenario_id)).toEqual([
      'basic_needs',
    ]);

    const phrases = await server.api.get<Phrases>(
      '/app/casr/phrases?scenario_id=basic_needs',
      user.access_token,
    );
    expect(phrases.body.phrases.map((p) => p.text).slice(0, 3)).toEqual(['Yes', 'No', 'Help me, please']);
    expect(phrases.body.phrases.every((p) => p.source === 'static' && p.takes === 0)).toBe(true);
  });

  it('switches the active scenario and adds its core phrases once', async () => {
    const user = await signUp(server.api);
    const activated = await server.api.request<Scenarios>('PUT', '/app/scenarios/activate/health', {
      token: user.access_token,
    });
    expect(activated.body.availableScenarios.find((s) => s.isActive)?.scenario_id).toBe('health');
    await server.api.request('PUT', '/app/scenarios/activate/health', { token: user.access_token });
    const health = await server.api.get<Phrases>(
      '/app/casr/phrases?scenario_id=health&sources=static',
      user.access_token,
    );
    expect(health.body.phrases).toHaveLength(8);
    const stats = await server.api.get<{
      scenarios: { scenario_id: string; phrases: number; takes: number }[];
    }>('/app/casr/scenarios_stats?provider=casr', user.access_token);
    expect(stats.body.scenarios).toEqual(
      expect.arrayContaining([{ scenario_id: 'health', phrases: 8, recorded_phrases: 0, takes: 0 }]),
    );
    const unknown = await server.api.request('PUT', '/app/scenarios/activate/space_travel', {
      token: user.access_token,
    });
    expect(unknown.body).toEqual({ status: 404, message: 'Scenario not found', code: 'NOT_FOUND' });
  });
});

describe('dataset phrases', () => {
  it('lists the catalogue with a limit and adds a phrase once', async () => {
    const user = await signUp(server.api);
    const dataset = await server.api.get<{ phrases: { id: string; text: string; added: boolean }[] }>(
      '/app/casr/scenario_train_set/home/dataset?limit=12',
      user.access_token,
    );
    expect(dataset.body.phrases).toHaveLength(12);
    const item = dataset.body.phrases[10];
    if (!item) throw new Error('catalogue too short');
    expect(item.added).toBe(false);

    const added = await server.api.post<Phrase>(
      '/app/casr/datasetPhrase',
      { id: item.id, scenario_id: 'home' },
      user.access_token,
    );
    expect(added.body).toMatchObject({
      text: item.text,
      source: 'dataset',
      scenario_id: 'home',
      language: 'en-US',
    });
    const again = await server.api.post<Phrase>(
      '/app/casr/datasetPhrase',
      { id: item.id, scenario_id: 'home' },
      user.access_token,
    );
    expect(again.body.id).toBe(added.body.id);
    const after = await server.api.get<{ phrases: { id: string; added: boolean }[] }>(
      '/app/casr/scenario_train_set/home/dataset',
      user.access_token,
    );
    expect(after.body.phrases.length).toBeGreaterThanOrEqual(40);
    expect(after.body.phrases.find((p) => p.id === item.id)?.added).toBe(true);

    const wrongScenario = await server.api.post(
      '/app/casr/datasetPhrase',
      { id: item.id, scenario_id: 'health' },
      user.access_token,
    );
    expect(wrongScenario.status).toBe(404);
    const badLimit = await server.api.get(
      '/app/casr/scenario_train_set/home/dataset?limit=0',
      user.access_token,
    );
    expect(badLimit.status).toBe(400);
  });
});

describe('custom phrases', () => {
  it('adds, reads, edits (marking it edited) and deletes a phrase of the user’s own', async () => {
    const user = await signUp(server.api);
    const created = await server.api.post<Phrase>(
      '/app/casr/customPhrase',
      { text: 'Please call Maria', language: 'en-US', scenario_id: 'conversation' },
      user.access_token,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ source: 'custom', takes: 0 });
    const id = created.body.id;

    expect((await server.api.get<Phrase>(`/app/casr/phrase/${id}`, user.access_token)).body.text).toBe(
      'Please call Maria',
    );
    const custom = await server.api.get<Phrases>(
      '/app/casr/scenario_train_set/conversation/custom',
      user.access_token,
    );
    expect(custom.body.phrases.map((p) => p.id)).toEqual([id]);

    const edited = await server.api.request<Phrase>('PUT', '/app/casr/editPhrase', {
      body: { phrase_id: id, text: 'Please call Maria now' },
      token: user.access_token,
    });
    expect(edited.body).toMatchObject({ text: 'Please call Maria now', source: 'edited' });

    const bySource = await server.api.get<Phrases>(
      '/app/casr/phrases?sources=edited,custom',
      user.access_token,
    );
    expect(bySource.body.phrases.map((p) => p.id)).toEqual([id]);

    expect(
      (await server.api.post('/app/casr/deletePhrase', { phrase_id: id }, user.access_token)).body,
    ).toEqual({ ok: true });
    expect((await server.api.get(`/app/casr/phrase/${id}`, user.access_token)).status).toBe(404);
    expect(
      (await server.api.post('/app/casr/deletePhrase', { phrase_id: id }, user.access_token)).status,
    ).toBe(404);
  });

  it('refuses a duplicate, an empty text, an unknown scenario and a bad source filter', async () => {
    const user = await signUp(server.api);
    await server.api.get('/app/scenarios', user.access_token);
    const duplicate = await server.api.post(
      '/app/casr/customPhrase',
      { text: 'YES', scenario_id: 'basic_needs' },
      user.access_token,
    );
    expect(duplicate.body).toEqual({
      status: 409,
      message: 'This phrase is already in your list',
      code: 'PHRASE_EXISTS',
    });
    const empty = await server.api.post(
      '/app/casr/customPhrase',
      { text: '  ', scenario_id: 'basic_needs' },
      user.access_token,
    );
    expect(empty.body).toMatchObject({ status: 400, message: 'text should not be empty' });
    const scenario = await server.api.post(
      '/app/casr/customPhrase',
      { text: 'Hi', scenario_id: 'nope' },
      user.access_token,
    );
    expect(scenario.status).toBe(404);
    const filter = await server.api.get('/app/casr/phrases?sources=dataset,stolen', user.access_token);
    expect(filter.status).toBe(400);
    expect(filter.body.message).toMatch(/^sources/);
  });

  it("keeps each user's phrases to themselves", async () => {
    const owner = await signUp(server.api);
    const other = await signUp(server.api);
    const phrase = await server.api.post<Phrase>(
      '/app/casr/customPhrase',
      { text: 'My secret phrase', scenario_id: 'feelings' },
      owner.access_token,
    );
    const id = phrase.body.id;
    expect((await server.api.get(`/app/casr/phrase/${id}`, other.access_token)).body).toEqual({
      status: 404,
      message: 'Phrase not found',
      code: 'NOT_FOUND',
    });
    const edit = await server.api.request('PUT', '/app/casr/editPhrase', {
      body: { phrase_id: id, text: 'Mine now' },
      token: other.access_token,
    });
    expect(edit.status).toBe(404);
    expect(
      (await server.api.post('/app/casr/deletePhrase', { phrase_id: id }, other.access_token)).status,
    ).toBe(404);
    const list = await server.api.get<Phrases>('/app/casr/phrases', other.access_token);
    expect(list.body.phrases.map((p) => p.id)).not.toContain(id);
    expect((await server.api.get<Phrase>(`/app/casr/phrase/${id}`, owner.access_token)).body.text).toBe(
      'My secret phrase',
    );
    // Another user may have the same words.
    const same = await server.api.post(
      '/app/casr/customPhrase',
      { text: 'My secret phrase', scenario_id: 'feelings' },
      other.access_token,
    );
    expect(same.status).toBe(201);
  });
});

describe('pronunciations', () => {
  type Pronunciations = { pronunciations: [string, string][] };

  it("gives how the generic recogniser says the words of the user's phrases, and of no one else's", async () => {
    const user = await signUp(server.api);
    const other = await signUp(server.api);
    await server.api.post(
      '/app/casr/customPhrase',
      { text: 'Read my zorblax, Read it', scenario_id: 'conversation' },
      user.access_token,
    );
    const { status, body } = await server.api.get<Pronunciations>(
      '/app/casr/pronunciations',
      user.access_token,
    );
    expect(status).toBe(200);
    const names = body.pronunciations.map(([name]) => name);
    // Every way to say a word, each once; a word the dictionary lacks is left out.
    expect(body.pronunciations).toEqual(
      expect.arrayContaining([
        ['read', 'R EH D'],
        ['read(2)', 'R IY D'],
        ['yes', 'Y EH S'],
      ]),
    );
    expect(names.filter((name) => name === 'read')).toHaveLength(1);
    expect(names.some((name) => name.startsWith('zorblax'))).toBe(false);
    // The words of every scenario's phrases the user has, as their phrase list gives them.
    const phrases = await server.api.get<Phrases>('/app/casr/phrases', user.access_token);
    const words = new Set(phrases.body.phrases.flatMap((p) => p.text.toLowerCase().match(/[a-z']+/g) ?? []));
    expect(new Set(names.map((name) => name.replace(/\(\d+\)$/, '')))).toEqual(
      new Set([...words].filter((word) => word !== 'zorblax')),
    );

    const theirs = await server.api.get<Pronunciations>('/app/casr/pronunciations', other.access_token);
    expect(theirs.body.pronunciations.map(([name]) => name)).not.toContain('read');
    expect((await server.api.get('/app/casr/pronunciations')).status).toBe(401);
  });
});

describe('shortcut phrases', () => {
  it('adds, reads, edits and deletes, with inputs unique case-insensitively', async () => {
    const user = await signUp(server.api);
    const created = await server.api.post<ShortcutPhrase>(
      '/app/casr/shortcut_phrases',
      { input: 'Coffee', output: 'Could I have a coffee with milk and no sugar, please?' },
      user.access_token,
    );
    expect(created.status).toBe(201);
    const second = await server.api.post<ShortcutPhrase>(
      '/app/casr/shortcut_phrases',
      { input: 'Home', output: 'Please take me home.' },
      user.access_token,
    );

    const conflict = await server.api.post(
      '/app/casr/shortcut_phrases',
      { input: '  coffee ', output: 'Tea' },
      user.access_token,
    );
    expect(conflict.body).toEqual({
      status: 409,
      message: 'Shortcut with this input already exists',
      code: 'SHORTCUT_EXISTS',
    });

    // Editing may keep its own input, but not take another's.
    const path = `/app/casr/shortcut_phrases/${created.body.id}`;
    const keep = await server.api.request<ShortcutPhrase>('PUT', path, {
      body: { input: 'COFFEE', output: 'A coffee, please.' },
      token: user.access_token,
    });
    expect(keep.body).toEqual({ id: created.body.id, input: 'COFFEE', output: 'A coffee, please.' });
    const take = await server.api.request('PUT', path, {
      body: { input: 'home', output: 'x' },
      token: user.access_token,
    });
    expect(take.body).toMatchObject({ status: 409, message: 'Shortcut with this input already exists' });

    const list = await server.api.get<{ shortcut_phrases: ShortcutPhrase[] }>(
      '/app/casr/shortcut_phrases',
      user.access_token,
    );
    expect(list.body.shortcut_phrases.map((s) => s.input)).toEqual(['COFFEE', 'Home']);
    expect((await server.api.get(path, user.access_token)).body).toMatchObject({
      output: 'A coffee, please.',
    });

    expect(
      (
        await server.api.request('DELETE', `/app/casr/shortcut_phrases/${second.body.id}`, {
          token: user.access_token,
        })
      ).body,
    ).toEqual({ ok: true });
    expect(
      (await server.api.get(`/app/casr/shortcut_phrases/${second.body.id}`, user.access_token)).status,
    ).toBe(404);
  });

  it('refuses bad input and other users’ shortcuts', async () => {
    const owner = await signUp(server.api);
    const other = await signUp(server.api);
    const created = await server.api.post<ShortcutPhrase>(
      '/app/casr/shortcut_phrases',
      { input: 'bye', output: 'Goodbye, see you soon.' },
      owner.access_token,
    );
    const path = `/app/casr/shortcut_phrases/${created.body.id}`;
    expect((await server.api.get(path, other.access_token)).status).toBe(404);
    expect(
      (
        await server.api.request('PUT', path, {
          body: { input: 'x', output: 'y' },
          token: other.access_token,
        })
      ).status,
    ).toBe(404);
    expect((await server.api.request('DELETE', path, { token: other.access_token })).status).toBe(404);
    // The same input is fine for another user.
    expect(
      (
        await server.api.post(
          '/app/casr/shortcut_phrases',
          { input: 'bye', output: 'Bye!' },
          other.access_token,
        )
      ).status,
    ).toBe(201);

    const empty = await server.api.post(
      '/app/casr/shortcut_phrases',
      { input: '', output: 'x' },
      owner.access_token,
    );
    expect(empty.body).toMatchObject({ status: 400, message: 'input should not be empty' });
    const extra = await server.api.post(
      '/app/casr/shortcut_phrases',
      { input: 'a', output: 'b', colour: 'red' },
      owner.access_token,
    );
    expect(extra.body.message).toBe('Unknown field: colour');
  });
});
