import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Phrase } from '@parla/contract';
import { decodeTakeView, deserializeEncoderViews, isCurrentTakeAnalysis } from '@parla/speech';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIGIT_WORDS, fsddTake, toneWav } from './support/audio.js';
import { signUp, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function upload(
  token: string,
  phraseId: string,
  audio: Uint8Array | null,
  info: unknown = { file_ext: 'wav' },
) {
  const form = new FormData();
  if (info !== undefined) form.append('info', typeof info === 'string' ? info : JSON.stringify(info));
  if (audio) form.append('audiofile', new Blob([new Uint8Array(audio)], { type: 'audio/wav' }), 'take.wav');
  const response = await fetch(`${server.url}/app/casr/upload/training/${phraseId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function addDigitPhrases(token: string, digits: number[]) {
  const phrases: Phrase[] = [];
  for (const digit of digits) {
    const { body } = await server.api.post<Phrase>(
      '/app/casr/customPhrase',
      { text: DIGIT_WORDS[digit], scenario_id: 'conversation' },
      token,
    );
    phrases.push(body);
  }
  return phrases;
}

type ModelsInfo = {
  models: {
    version: number;
    type: string;
    provider: string;
    links: Record<string, string>;
    modelmeta: Record<string, unknown>;
  }[];
  recording_state: string;
};

async function waitForModelVersion(token: string, version: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const info = await server.api.get<ModelsInfo>('/app/modelsInfo', token);
    if (info.body.models[0]?.version === version) return info.body;
    if (Date.now() > deadline) throw new Error(`no model version ${version}: ${JSON.stringify(info.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The user's jobs in these states: by default queued or running. */
function pendingJobs(
  userId: string,
  states: ('queued' | 'running' | 'done' | 'failed')[] = ['queued', 'running'],
) {
  return server.db
    .selectFrom('jobs')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', states)
    .execute();
}

/** A new user with these takes (by default three) of each digit, said by `speaker`, and their
 * first profile built. */
async function userWithFirstProfile(digits: number[], speaker: string, takes = [0, 1, 2]) {
  const user = await signUp(server.api);
  const token = user.access_token;
  const phrases = await addDigitPhrases(token, digits);
  for (const [index, phrase] of phrases.entries())
    for (const take of takes)
      expect((await upload(token, phrase.id, fsddTake(digits[index] ?? 0, speaker, take))).status).toBe(201);
  return { user, token, phrases, first: await waitForModelVersion(token, 1) };
}

describe('training a voice profile from real takes', () => {
  it('builds a model, unlocks recognition once, and versions the next round of takes', async () => {
    const user = await signUp(server.api);
    const token = user.access_token;
    expect((await server.api.get<ModelsInfo>('/app/modelsInfo', token)).body).toEqual({
      models: [],
      recording_state: 'no_records',
    });

    const digits = [1, 4, 7];
    const phrases = await addDigitPhrases(token, digits);
    for (const [index, phrase] of phrases.entries()) {
      for (const take of [0, 1, 2]) {
        const response = await upload(token, phrase.id, fsddTake(digits[index] ?? 0, 'jackson', take), {
          file_ext: 'wav',
          app_build: '0.0.48',
        });
        expect(response.status, JSON.stringify(response.body)).toBe(201);
        expect(response.body).toMatchObject({ phrase_id: phrase.id, takes: take + 1 });
      }
    }
    const state = (await server.api.get<ModelsInfo>('/app/modelsInfo', token)).body.recording_state;
    expect(['waiting_for_model', 'model_built']).toContain(state);

    const first = await waitForModelVersion(token, 1);
    expect(first.recording_state).toBe('model_built');
    expect(first.models[0]).toMatchObject({
      type: 'acoustic',
      provider: 'casr',
      modelmeta: { phrases: 3, takes: 9 },
    });
    expect((await server.api.get('/app/tasks', token)).body).toEqual({
      tasks: ['notify_casr_recognition_unlocked'],
    });
    await server.api.post('/app/complete_task', { task: 'notify_casr_recognition_unlocked' }, token);

    const stats = await server.api.get<{
      scenarios: { scenario_id: string; recorded_phrases: number; takes: number }[];
    }>('/app/casr/scenarios_stats', token);
    expect(stats.body.scenarios.find((s) => s.scenario_id === 'conversation')).toMatchObject({
      recorded_phrases: 3,
      takes: 9,
    });

    // A second round: a new take of each phrase gives version 2, and no second unlock task.
    for (const [index, phrase] of phrases.entries()) {
      expect((await upload(token, phrase.id, fsddTake(digits[index] ?? 0, 'jackson', 3))).status).toBe(201);
    }
    const second = await waitForModelVersion(token, 2);
    expect(second.models[0]?.modelmeta).toMatchObject({ takes: 12 });
    expect((await server.api.get('/app/tasks', token)).body).toEqual({ tasks: [] });

    // The browser downloads the current version: the profile, and the generic recogniser's
    // means adapted to the voice (0128); nobody else may.
    const links = await server.api.get<{
      version: number;
      links: { name: string; url: string; size_bytes: number }[];
    }>('/app/end_user/model_links', token);
    expect(links.body.version).toBe(2);
    expect(links.body.links.map((link) => link.name)).toEqual(['profile', 'voice']);
    const stranger = await signUp(server.api);
    for (const link of links.body.links) {
      expect(link.url).toContain('/v2/');
      const download = await fetch(`${server.url}${link.url}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(download.status).toBe(200);
      expect(download.headers.get('cache-control')).toContain('immutable');
      expect((await download.arrayBuffer()).byteLength).toBe(link.size_bytes);

      const stolen = await fetch(`${server.url}${link.url}`, {
        headers: { authorization: `Bearer ${stranger.access_token}` },
      });
      expect(stolen.status).toBe(404);
      const old = await fetch(`${server.url}${link.url.replace('/v2/', '/v1/')}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(old.status).toBe(404);
    }
    expect(second.models[0]?.modelmeta).toMatchObject({ voice_bytes: links.body.links[1]?.size_bytes });
    // The version before keeps its profile, for a browser that was downloading it, but not its
    // adapted means; only the newest version's are heard with. Among three phrases the speech
    // encoder is never asked, so no views of them are made (docs/decisions/0146).
    const models = path.join(server.config.dataDir, 'blobs', 'users', user.user.id, 'models');
    expect((await readdir(models)).sort()).toEqual(['acoustic-1.bin', 'acoustic-2.bin', 'acoustic-2.voice']);
    expect(second.models[0]?.modelmeta).not.toHaveProperty('encoder_views_bytes');
    const takesFolder = path.join(server.config.dataDir, 'blobs', 'users', user.user.id, 'takes');
    expect((await readdir(takesFolder)).filter((file) => file.endsWith('.view'))).toEqual([]);
    const versionIds = async () =>
      new Map(
        (
          await server.db
            .selectFrom('models')
            .select(['id', 'version'])
            .where('user_id', '=', user.user.id)
            .execute()
        ).map((row) => [row.version, row.id]),
      );
    const firstId = (await versionIds()).get(1);
    const pastFile = (file: string) =>
      fetch(`${server.url}/app/end_user/models/${firstId}/v1/${file}.bin`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await pastFile('profile')).status).toBe(200);
    expect((await pastFile('voice')).status).toBe(404);

    // A third round: version 1 is gone altogether, row and files; version 2 keeps its profile.
    for (const [index, phrase] of phrases.entries()) {
      expect((await upload(token, phrase.id, fsddTake(digits[index] ?? 0, 'jackson', 4))).status).toBe(201);
    }
    await waitForModelVersion(token, 3);
    expect((await readdir(models)).sort()).toEqual(['acoustic-2.bin', 'acoustic-3.bin', 'acoustic-3.voice']);
    expect([...(await versionIds()).keys()].sort()).toEqual([2, 3]);
    expect((await pastFile('profile')).status).toBe(404);
    expect((await server.api.get('/app/end_user/model_links', stranger.access_token)).body).toEqual({
      version: null,
      links: [],
    });
  }, 60_000); // three trainings, each adapting the generic path to the voice
});

describe('a profile trained before the generic path was adapted to voices', () => {
  it('is retrained once, when its owner next opens the app', async () => {
    const { user, token, first } = await userWithFirstProfile([5, 8], 'lucas');
    expect(first.models[0]?.modelmeta).toHaveProperty('voice_knows');
    const queued = () => pendingJobs(user.user.id);
    // A profile up to date is not trained again for being looked at.
    await server.api.get('/app/modelsInfo', token);
    expect(await queued()).toEqual([]);

    // As a profile of before 0128 was kept: no judgement of the adapted means, and none made.
    await server.db
      .updateTable('models')
      .set({ meta: sql`meta - 'voice_knows' - 'voice_bytes' - 'adapt_ms'` })
      .where('user_id', '=', user.user.id)
      .execute();
    const second = await waitForModelVersion(token, 2);
    expect(second.models[0]?.modelmeta).toMatchObject({ takes: 6 });
    expect(typeof second.models[0]?.modelmeta.voice_knows).toBe('number');
    await server.api.get('/app/modelsInfo', token);
    expect(await queued()).toEqual([]);
  }, 60_000); // two trainings, each adapting the generic path to the voice
});

describe('a profile whose every phrase was deleted', () => {
  it('goes with them, rows and files, even one trained before voice adaptation', async () => {
    const { user, token, phrases } = await userWithFirstProfile([5, 8], 'lucas');
    const models = path.join(server.config.dataDir, 'blobs', 'users', user.user.id, 'models');
    expect((await readdir(models)).sort()).toEqual(['acoustic-1.bin', 'acoustic-1.voice']);
    // Kept as a profile of before 0128, which opening the app would retrain while it lasts.
    await server.db
      .updateTable('models')
      .set({ meta: sql`meta - 'voice_knows' - 'voice_bytes' - 'adapt_ms'` })
      .where('user_id', '=', user.user.id)
      .execute();
    for (const phrase of phrases)
      expect((await server.api.post('/app/casr/deletePhrase', { phrase_id: phrase.id }, token)).status).toBe(
        200,
      );
    const deadline = Date.now() + 30_000;
    while ((await pendingJobs(user.user.id)).length > 0) {
      if (Date.now() > deadline) throw new Error('the retrain after the deletions never ran');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    expect(await readdir(models)).toEqual([]);
    expect(
      await server.db.selectFrom('models').select('id').where('user_id', '=', user.user.id).execute(),
    ).toEqual([]);
    expect((await server.api.get<ModelsInfo>('/app/modelsInfo', token)).body).toEqual({
      models: [],
      recording_state: 'no_records',
    });
    expect((await server.api.get('/app/end_user/model_links', token)).body).toEqual({
      version: null,
      links: [],
    });
    // Nothing is left to retrain, so looking queues nothing.
    expect(await pendingJobs(user.user.id)).toEqual([]);
  }, 60_000);
});

describe("each take's analysis and the speech encoder's view of it", () => {
  it('are kept beside its audio, read back by the next training, made again when unreadable, and deleted with its phrase', async () => {
    // One take of each of six digits: enough phrases for views, and the first training starts
    // only once all six are in.
    const digits = [2, 3, 4, 5, 6, 7];
    const { user, token, phrases } = await userWithFirstProfile(digits, 'theo', [0]);
    const folder = path.join(server.config.dataDir, 'blobs', 'users', user.user.id, 'takes');
    const named = async (ending: string) => (await readdir(folder)).filter((f) => f.endsWith(ending)).sort();
    const beside = async (ending: string) => (await named('.wav')).map((f) => f.replace(/\.wav$/, ending));
    const audio = await named('.wav');
    expect(audio).toHaveLength(6);
    const kinds = [
      { ending: '.analysis', current: isCurrentTakeAnalysis },
      { ending: '.view', current: (bytes: Uint8Array) => decodeTakeView(bytes) !== undefined },
    ];
    for (const { ending, current } of kinds) {
      expect(await named(ending)).toEqual(await beside(ending));
      for (const file of await named(ending))
        expect(current(await readFile(path.join(folder, file)))).toBe(true);
    }

    // Of each kind, one damaged and one lost: the next training makes those two again and
    // reads the other four as they are.
    const touched = [];
    for (const kind of kinds) {
      const [damaged = '', lost = '', untouched = ''] = await named(kind.ending);
      await writeFile(path.join(folder, damaged), 'not what it was');
      await rm(path.join(folder, lost));
      const at = (await stat(path.join(folder, untouched))).mtimeMs;
      touched.push({ ...kind, damaged, lost, untouched, at });
    }
    for (const [index, phrase] of phrases.slice(0, 2).entries())
      expect((await upload(token, phrase.id, fsddTake(2 + index, 'theo', 1))).status).toBe(201);
    const second = await waitForModelVersion(token, 2);
    expect(second.models[0]?.modelmeta).toMatchObject({ phrases: 6, takes: 8 });
    for (const { ending, current, damaged, lost, untouched, at } of touched) {
      expect(await named(ending)).toEqual(await beside(ending));
      for (const file of [damaged, lost]) expect(current(await readFile(path.join(folder, file)))).toBe(true);
      expect((await stat(path.join(folder, untouched))).mtimeMs).toBe(at);
    }
    // The profile's views: one a take, each as kept beside it.
    const models = path.join(server.config.dataDir, 'blobs', 'users', user.user.id, 'models');
    const views = deserializeEncoderViews(await readFile(path.join(models, 'acoustic-2.views')));
    const words = digits.flatMap((digit) =>
      Array<string | undefined>(digit < 4 ? 2 : 1).fill(DIGIT_WORDS[digit]),
    );
    expect(views?.map((view) => view.text).sort()).toEqual(words.sort());
    // The browser downloads them beside the profile, for the same opinion (0147); nobody else may.
    const links = await server.api.get<{ links: { name: string; url: string; size_bytes: number }[] }>(
      '/app/end_user/model_links',
      token,
    );
    const link = links.body.links.find((file) => file.name === 'views');
    expect(link?.url).toMatch(/\/v2\/views\.bin$/);
    const download = await fetch(`${server.url}${link?.url}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(Buffer.from(await download.arrayBuffer())).toEqual(
      await readFile(path.join(models, 'acoustic-2.views')),
    );
    expect(link?.size_bytes).toBe((await stat(path.join(models, 'acoustic-2.views'))).size);
    const stranger = await signUp(server.api);
    const stolen = await fetch(`${server.url}${link?.url}`, {
      headers: { authorization: `Bearer ${stranger.access_token}` },
    });
    expect(stolen.status).toBe(404);
    const kept = await Promise.all(
      (await named('.view')).map(async (file) => decodeTakeView(await readFile(path.join(folder, file)))),
    );
    expect(new Set(views?.map((view) => [...view.view.data].join()))).toEqual(
      new Set(kept.map((view) => [...(view?.data ?? [])].join())),
    );

    // A phrase deleted takes its takes' audio, analyses and views with it.
    const gone = (await server.api.post('/app/casr/deletePhrase', { phrase_id: phrases[0]?.id }, token))
      .status;
    expect(gone).toBe(200);
    expect(await named('.wav')).toHaveLength(6);
    for (const { ending } of kinds) expect(await named(ending)).toEqual(await beside(ending));
  }, 60_000); // two trainings, each viewing takes with the speech encoder and adapting the generic path
});

describe('takes whose files cannot be read', () => {
  it('are left out of the next training, which is made from the rest, and stay stored', async () => {
    const { user, token, phrases } = await userWithFirstProfile([2, 3], 'theo');
    const folder = path.join(server.config.dataDir, 'blobs', 'users', user.user.id, 'takes');
    const audio = (await readdir(folder)).filter((f) => f.endsWith('.wav')).sort();
    // One take's audio no longer audio, another's gone, neither with its analysis to fall back on.
    const [damaged = '', lost = ''] = audio;
    await writeFile(path.join(folder, damaged), 'not audio');
    await rm(path.join(folder, lost));
    for (const file of [damaged, lost]) await rm(path.join(folder, file.replace(/\.wav$/, '.analysis')));

    for (const [index, phrase] of phrases.entries())
      expect((await upload(token, phrase.id, fsddTake(2 + index, 'theo', 3))).status).toBe(201);
    const second = await waitForModelVersion(token, 2);
    expect(second.models[0]?.modelmeta).toMatchObject({ phrases: 2, takes: 6 });
    expect(await pendingJobs(user.user.id, ['failed'])).toHaveLength(0);
    // Their rows stay, marked: nothing the person recorded is removed for it.
    const rows = await server.db
      .selectFrom('recordings')
      .select(['storage_key', 'metadata', 'phrase_id'])
      .where('user_id', '=', user.user.id)
      .where('kind', '=', 'training')
      .execute();
    expect(rows).toHaveLength(8);
    const marked = rows.filter(
      (row) => (row.metadata as { unreadable?: boolean } | null)?.unreadable === true,
    );
    expect(marked.map((row) => path.basename(row.storage_key)).sort()).toEqual([damaged, lost].sort());
    // Their phrases count them no more, so the app asks for another take of each.
    const { body } = await server.api.get<{ phrases: Phrase[] }>('/app/casr/phrases', token);
    expect(body.phrases.reduce((sum, phrase) => sum + phrase.takes, 0)).toBe(6);
    // And say how many were lost, for the app to say why it asks again.
    const lostOf = (phrase: Phrase) =>
      rows.filter(
        (row) => row.phrase_id === phrase.id && marked.some((gone) => gone.storage_key === row.storage_key),
      ).length;
    expect(body.phrases.map((phrase) => phrase.lost_takes)).toEqual(body.phrases.map(lostOf));
    expect(body.phrases.reduce((sum, phrase) => sum + phrase.lost_takes, 0)).toBe(2);
    // No training reads them again, even were a file to come back: the phrase asked for a
    // take in its place. One more take makes 7.
    await writeFile(path.join(folder, damaged), fsddTake(2, 'theo', 5));
    expect((await upload(token, phrases[0]?.id ?? '', fsddTake(2, 'theo', 4))).status).toBe(201);
    const third = await waitForModelVersion(token, 3);
    expect(third.models[0]?.modelmeta).toMatchObject({ takes: 7 });

    // Deleting a phrase still deletes a marked take's file with the others.
    const phraseId = rows.find((row) => path.basename(row.storage_key) === damaged)?.phrase_id;
    expect((await server.api.post('/app/casr/deletePhrase', { phrase_id: phraseId }, token)).status).toBe(
      200,
    );
    expect(await readdir(folder)).not.toContain(damaged);
  }, 60_000); // two trainings
});

describe('bad takes', () => {
  it('answers each with a clear 4xx and stores nothing', async () => {
    const user = await signUp(server.api);
    const token = user.access_token;
    const [phrase] = await addDigitPhrases(token, [3]);
    const id = phrase?.id ?? '';
    const stranger = await signUp(server.api);
    const [strangersPhrase] = await addDigitPhrases(stranger.access_token, [3]);

    const cases: [() => Promise<{ status: number; body: Record<string, unknown> }>, number, string][] = [
      [
        () => upload(token, id, new TextEncoder().encode('this is not audio at all, just text')),
        415,
        'AUDIO_NOT_AUDIO',
      ],
      [() => upload(token, id, new Uint8Array(0)), 400, 'AUDIO_EMPTY_AUDIO'],
      [() => upload(token, id, null), 400, 'AUDIO_MISSING'],
      [() => upload(token, id, toneWav(21, 0.3)), 413, 'AUDIO_TOO_LONG'],
      [() => upload(token, id, toneWav(0.1, 0.3)), 400, 'AUDIO_TOO_SHORT'],
      [() => upload(token, id, toneWav(1.5, 0)), 422, 'AUDIO_SILENT'],
      [() => upload(token, id, toneWav(1.5, 1.4)), 422, 'AUDIO_CLIPPED'],
      [() => upload(token, id, fsddTake(3, 'theo', 0), '{not json'), 400, 'BAD_REQUEST'],
      [() => upload(token, id, fsddTake(3, 'theo', 0), { file_ext: 'mp3' }), 400, 'BAD_REQUEST'],
      [() => upload(token, 'no-such-phrase', fsddTake(3, 'theo', 0)), 404, 'NOT_FOUND'],
      [() => upload(token, strangersPhrase?.id ?? '', fsddTake(3, 'theo', 0)), 404, 'NOT_FOUND'],
    ];
    for (const [send, status, code] of cases) {
      const response = await send();
      expect(response.body, code).toMatchObject({ status, code });
      expect(typeof response.body.message).toBe('string');
    }
    const notMultipart = await server.api.post(`/app/casr/upload/training/${id}`, { audio: 'x' }, token);
    expect(notMultipart.body).toMatchObject({ status: 415, code: 'NOT_MULTIPART' });

    const takes = await server.db
      .selectFrom('recordings')
      .select('id')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(takes).toHaveLength(0);
    expect((await server.api.get<Phrase>(`/app/casr/phrase/${id}`, token)).body.takes).toBe(0);
  });
});

describe('a take uploaded again', () => {
  it('is kept once, also when two tries arrive at once; its key names no other take', async () => {
    const user = await signUp(server.api);
    const token = user.access_token;
    const [three, four] = await addDigitPhrases(token, [3, 4]);
    const id = three?.id ?? '';
    const audio = fsddTake(3, 'theo', 1);
    const once = { file_ext: 'wav', upload_key: randomUUID() };
    const first = await upload(token, id, audio, once);
    expect(first).toMatchObject({ status: 201, body: { phrase_id: id, takes: 1 } });
    // The first try's answer was lost on the way: the retry is answered for the same take.
    expect(await upload(token, id, audio, once)).toEqual(first);

    const atOnce = { file_ext: 'wav', upload_key: randomUUID() };
    const [one, two] = await Promise.all([
      upload(token, id, audio, atOnce),
      upload(token, id, audio, atOnce),
    ]);
    expect(one).toMatchObject({ status: 201, body: { takes: 2 } });
    expect(two.body.id).toBe(one.body.id);

    expect((await upload(token, four?.id ?? '', audio, once)).body).toMatchObject({
      status: 409,
      code: 'UPLOAD_KEY_REUSED',
    });
    expect((await upload(token, id, audio, { file_ext: 'wav', upload_key: 'take-1' })).status).toBe(400);

    const takes = await server.db
      .selectFrom('recordings')
      .select(['id', 'storage_key'])
      .where('user_id', '=', user.user.id)
      .execute();
    expect(takes.map((take) => take.id).sort()).toEqual([first.body.id, one.body.id].sort());
    expect((await server.api.get<Phrase>(`/app/casr/phrase/${id}`, token)).body.takes).toBe(2);
    // The audio of the try that lost the race is not left behind.
    const folder = path.join(server.config.dataDir, 'blobs', 'users', user.user.id, 'takes');
    const files = (await readdir(folder)).filter((file) => file.endsWith('.wav'));
    expect(files.sort()).toEqual(takes.map((take) => path.basename(take.storage_key)).sort());
  });
});

describe('the first profile', () => {
  it('waits for two phrases and six takes, so it does not arrive in the middle of the first session', async () => {
    const user = await signUp(server.api);
    const token = user.access_token;
    const [yes, no] = await addDigitPhrases(token, [2, 3]);
    for (const take of [0, 1, 2, 3]) await upload(token, yes?.id ?? '', fsddTake(2, 'theo', take));
    await upload(token, no?.id ?? '', fsddTake(3, 'theo', 0));
    // Time for the queued training to run and decide.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await server.api.get<ModelsInfo>('/app/modelsInfo', token)).body).toEqual({
      models: [],
      recording_state: 'record_in_progress',
    });
    await upload(token, no?.id ?? '', fsddTake(3, 'theo', 1));
    const first = await waitForModelVersion(token, 1);
    expect(first.models[0]?.modelmeta).toMatchObject({ phrases: 2, takes: 6 });
  });
});

describe('account deletion', () => {
  it('removes the takes and models from storage', async () => {
    const { user } = await userWithFirstProfile([5, 6], 'nicolas');
    const folder = path.join(server.config.dataDir, 'blobs', 'users', user.user.id);
    expect((await readdir(folder)).sort()).toEqual(['models', 'takes']);

    await server.api.request('DELETE', '/app/end_user/delete_account', {
      body: { opt_out_audio_recognition: true, opt_out_audio_training: true },
      token: user.access_token,
    });
    await expect(readdir(folder)).rejects.toThrow(/ENOENT/);
    const rows = await server.db
      .selectFrom('recordings')
      .select('id')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(rows).toHaveLength(0);
    expect(
      await server.db.selectFrom('models').select('id').where('user_id', '=', user.user.id).execute(),
    ).toHaveLength(0);
  });
});
