import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { DictationNote } from '@parla/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fsddTake } from './support/audio.js';
import { signUp, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type NotesPage = { notes: DictationNote[]; page: number; perPage: number; total: number };

describe('dictation notes', () => {
  it('creates, pages (25 by default, newest change first), edits and deletes', async () => {
    const user = await signUp(server.api);
    const token = user.access_token;
    for (let i = 1; i <= 27; i += 1) {
      const created = await server.api.post<DictationNote>(
        '/app/dictation_notes',
        { text: `Note ${i}` },
        token,
      );
      expect(created.status).toBe(201);
    }
    const first = await server.api.get<NotesPage>('/app/dictation_notes', token);
    expect(first.body).toMatchObject({ page: 1, perPage: 25, total: 27 });
    expect(first.body.notes).toHaveLength(25);
    expect(first.body.notes[0]?.text).toBe('Note 27');
    const second = await server.api.get<NotesPage>('/app/dictation_notes?page=2&perPage=25', token);
    expect(second.body.notes.map((note) => note.text)).toEqual(['Note 2', 'Note 1']);

    const oldest = second.body.notes[1];
    const edited = await server.api.request<DictationNote>(
      'PATCH',
      `/app/dictation_notes/${oldest?.id ?? ''}`,
      {
        body: { text: 'Note 1, corrected by keyboard' },
        token,
      },
    );
    expect(edited.body.text).toBe('Note 1, corrected by keyboard');
    expect((await server.api.get<NotesPage>('/app/dictation_notes?perPage=1', token)).body.notes[0]?.id).toBe(
      oldest?.id,
    );

    const removed = await server.api.request('DELETE', `/app/dictation_notes/${oldest?.id ?? ''}`, { token });
    expect(removed.body).toEqual({ ok: true });
    expect((await server.api.get<NotesPage>('/app/dictation_notes', token)).body.total).toBe(26);
  });

  it("refuses bad input and other people's notes", async () => {
    const owner = await signUp(server.api);
    const other = await signUp(server.api);
    const note = await server.api.post<DictationNote>(
      '/app/dictation_notes',
      { text: 'Private' },
      owner.access_token,
    );
    const path = `/app/dictation_notes/${note.body.id}`;
    expect(
      (await server.api.request('PATCH', path, { body: { text: 'Mine' }, token: other.access_token })).status,
    ).toBe(404);
    expect((await server.api.request('DELETE', path, { token: other.access_token })).status).toBe(404);
    expect((await server.api.get<NotesPage>('/app/dictation_notes', other.access_token)).body.total).toBe(0);
    expect((await server.api.post('/app/dictation_notes', { text: 5 }, owner.access_token)).status).toBe(400);
    expect((await server.api.get('/app/dictation_notes?page=0', owner.access_token)).status).toBe(400);
    expect((await server.api.get('/app/dictation_notes?perPage=1000', owner.access_token)).status).toBe(400);
  });
});

describe('POST /app/recording/recognition', () => {
  async function send(token: string, info: unknown, audio: Uint8Array | null) {
    const form = new FormData();
    form.append('info', JSON.stringify(info));
    if (audio) form.append('audio', new Blob([new Uint8Array(audio)]), 'utterance.wav');
    const response = await fetch(`${server.url}/app/recording/recognition`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const info = {
    file_ext: 'wav',
    result: {
      text: 'four',
      type: 'speak',
      confidence: 0.93,
      recognition_mode: 'speak',
      acoustic_model_id: 3,
    },
  };

  it('keeps a locally recognised result with its audio', async () => {
    const user = await signUp(server.api);
    const response = await send(user.access_token, info, fsddTake(4, 'theo', 12));
    expect(response).toMatchObject({ status: 201, body: { stored: true } });
    const row = await server.db
      .selectFrom('recordings')
      .selectAll()
      .where('user_id', '=', user.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      kind: 'recognition',
      metadata: { text: 'four', local: true, confidence: 0.93 },
    });
    // An answer of the generic recogniser, for a phrase not recorded yet, says so; so does a
    // guess of the profile that the generic recogniser seconded, and an answer in doubt it
    // withdrew.
    const generic = { ...info, result: { ...info.result, text: 'three', generic: true } };
    expect((await send(user.access_token, generic, fsddTake(3, 'theo', 12))).status).toBe(201);
    const seconded = { ...info, result: { ...info.result, text: 'five', confidence: 0.2, seconded: true } };
    expect((await send(user.access_token, seconded, fsddTake(5, 'theo', 12))).status).toBe(201);
    const doubted = { ...info, result: { ...info.result, text: null, confidence: 0.6, doubted: true } };
    expect((await send(user.access_token, doubted, fsddTake(6, 'theo', 12))).status).toBe(201);
    const kept = await server.db
      .selectFrom('recordings')
      .select('metadata')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(kept.map((k) => k.metadata)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ text: 'three', generic: true }),
        expect.objectContaining({ text: 'five', seconded: true, confidence: 0.2 }),
        expect.objectContaining({ text: null, doubted: true, confidence: 0.6 }),
      ]),
    );
  });

  it('keeps an upload tried again once, also when two tries arrive at once', async () => {
    const user = await signUp(server.api);
    const other = await signUp(server.api);
    const audio = fsddTake(4, 'theo', 13);
    const once = { ...info, upload_key: randomUUID() };
    const first = await send(user.access_token, once, audio);
    expect(first).toMatchObject({ status: 201, body: { stored: true } });
    // The first try's answer was lost on the way: the retry is answered for the same recording.
    expect(await send(user.access_token, once, audio)).toEqual(first);
    const atOnce = { ...info, upload_key: randomUUID() };
    const [one, two] = await Promise.all([
      send(user.access_token, atOnce, audio),
      send(user.access_token, atOnce, audio),
    ]);
    expect(one).toMatchObject({ status: 201, body: { stored: true } });
    expect(two).toEqual(one);
    // Keys are each person's own: another's upload under the same key is kept as theirs.
    const others = await send(other.access_token, once, audio);
    expect(others).toMatchObject({ status: 201, body: { stored: true } });
    expect(others.body.id).not.toBe(first.body.id);

    const rows = await server.db
      .selectFrom('recordings')
      .select(['id', 'storage_key'])
      .where('user_id', '=', user.user.id)
      .execute();
    expect(rows.map((row) => row.id).sort()).toEqual([first.body.id, one.body.id].sort());
    // The audio of the try that lost the race is not left behind.
    const folder = path.join(server.config.dataDir, 'blobs', 'users', user.user.id, 'recognitions');
    expect((await readdir(folder)).sort()).toEqual(rows.map((row) => path.basename(row.storage_key)).sort());
  });

  it('refuses an upload key that is no key, or that named another recording', async () => {
    const user = await signUp(server.api);
    const phrase = await server.api.post<{ id: string }>(
      '/app/casr/customPhrase',
      { text: 'Four', scenario_id: 'conversation' },
      user.access_token,
    );
    const key = randomUUID();
    const take = new FormData();
    take.append('info', JSON.stringify({ file_ext: 'wav', upload_key: key }));
    take.append('audiofile', new Blob([new Uint8Array(fsddTake(4, 'theo', 14))]), 'take.wav');
    const uploaded = await fetch(`${server.url}/app/casr/upload/training/${phrase.body.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.access_token}` },
      body: take,
    });
    expect(uploaded.status).toBe(201);

    expect(
      (await send(user.access_token, { ...info, upload_key: key }, fsddTake(4, 'theo', 15))).body,
    ).toMatchObject({
      status: 409,
      code: 'UPLOAD_KEY_REUSED',
    });
    expect(
      (await send(user.access_token, { ...info, upload_key: 'again' }, fsddTake(4, 'theo', 15))).status,
    ).toBe(400);
    const kinds = await server.db
      .selectFrom('recordings')
      .select('kind')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(kinds).toEqual([{ kind: 'training' }]);
  });

  it('keeps nothing for a person who opted out, and refuses bad uploads', async () => {
    const user = await signUp(server.api, { opt_out_audio_recognition: true });
    expect(await send(user.access_token, info, fsddTake(4, 'theo', 12))).toMatchObject({
      status: 201,
      body: { stored: false, id: null },
    });
    expect((await send(user.access_token, info, null)).body).toMatchObject({
      status: 400,
      code: 'AUDIO_MISSING',
    });
    expect((await send(user.access_token, info, new TextEncoder().encode('nope'))).status).toBe(415);
    expect(
      (await send(user.access_token, { result: { text: 'x', colour: 'red' } }, fsddTake(4, 'theo', 12)))
        .status,
    ).toBe(400);
    const rows = await server.db
      .selectFrom('recordings')
      .select('id')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(rows).toHaveLength(0);
  });
});
