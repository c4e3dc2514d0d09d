import type { ImportReport, Phrase } from '@parla/contract';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fsddTake } from './support/audio.js';
import { signUp, startTestServer, type TestServer } from './support/test-server.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`./fixtures/audio/${name}`, import.meta.url)));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function importTakes(
  token: string,
  parts: { info?: unknown; files?: [string, Uint8Array][]; archive?: Uint8Array },
) {
  const form = new FormData();
  if (parts.info !== undefined) form.append('info', JSON.stringify(parts.info));
  for (const [name, bytes] of parts.files ?? [])
    form.append('audiofile', new Blob([new Uint8Array(bytes)]), name);
  if (parts.archive) form.append('archive', new Blob([new Uint8Array(parts.archive)]), 'recordings.zip');
  const response = await fetch(`${server.url}/app/casr/import/training`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as ImportReport & Record<string, unknown> };
}

describe('importing existing recordings', () => {
  it('imports audio files with their transcripts as takes of new or existing phrases', async () => {
    const user = await signUp(server.api);
    const response = await importTakes(user.access_token, {
      info: {
        source: 'manual',
        scenario_id: 'conversation',
        transcripts: { 'a.wav': 'Nine', 'b.wav': 'nine', 'c.wav': 'Two' },
      },
      files: [
        ['a.wav', fsddTake(9, 'lucas', 0)],
        ['b.wav', fsddTake(9, 'lucas', 1)],
        ['c.wav', fsddTake(2, 'lucas', 0)],
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.refused).toEqual([]);
    expect(response.body.imported.map((item) => item.file)).toEqual(['a.wav', 'b.wav', 'c.wav']);
    // FSDD's files are cut close at the word: the report says so, for the app to ask for a
    // take recorded in it (docs/decisions/0116).
    expect(response.body.imported.map((item) => item.cut_close)).toEqual([true, true, true]);
    // Transcripts that differ only in case are one phrase.
    expect(response.body.imported[0]?.phrase_id).toBe(response.body.imported[1]?.phrase_id);
    const phrases = await server.api.get<{ phrases: Phrase[] }>(
      '/app/casr/phrases?scenario_id=conversation',
      user.access_token,
    );
    expect(phrases.body.phrases.map((p) => [p.text, p.takes, p.source])).toEqual([
      ['Nine', 2, 'custom'],
      ['Two', 1, 'custom'],
    ]);
  });

  it('reports what a partial archive held: imported, and refused with why', async () => {
    const user = await signUp(server.api);
    const archive = zipSync({
      'my recordings/yes-1.wav': fsddTake(1, 'george', 0),
      'my recordings/yes-2.wav': fsddTake(1, 'george', 1),
      'my recordings/notes.txt': new TextEncoder().encode('not audio'),
      'my recordings/mystery.wav': fsddTake(3, 'george', 0),
      'my recordings/cover.jpg': new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]),
      'transcripts.csv': new TextEncoder().encode(
        'file,text\nyes-1.wav,Yes please\nyes-2,Yes please\nnotes.txt,Hello\n',
      ),
    });
    const response = await importTakes(user.access_token, { info: { source: 'manual' }, archive });
    expect(response.status).toBe(200);
    expect(response.body.imported.map((item) => [item.file, item.text])).toEqual([
      ['yes-1.wav', 'Yes please'],
      ['yes-2.wav', 'Yes please'],
    ]);
    expect(response.body.refused).toEqual([
      {
        file: 'notes.txt',
        reason:
          'This file is not audio we can read. Send WAV, M4A (AAC or Apple Lossless), CAF, MP3, Ogg (Opus or Vorbis), WebM, FLAC, AIFF or AMR.',
      },
      { file: 'mystery.wav', reason: 'No transcript names this file.' },
      // Not audio, and no transcript either: what is wrong with it first.
      {
        file: 'cover.jpg',
        reason:
          'This file is not audio we can read. Send WAV, M4A (AAC or Apple Lossless), CAF, MP3, Ogg (Opus or Vorbis), WebM, FLAC, AIFF or AMR.',
      },
    ]);
  });

  it('keeps each recording once: an archive imported again, or a file it holds twice', async () => {
    const user = await signUp(server.api);
    const archive = zipSync({
      'yes-1.wav': fsddTake(1, 'theo', 0),
      'yes-2.wav': fsddTake(1, 'theo', 1),
      'yes-2 copy.wav': fsddTake(1, 'theo', 1),
      'transcripts.csv': new TextEncoder().encode(
        'file,text\nyes-1.wav,Yes please\nyes-2.wav,Yes please\nyes-2 copy.wav,Yes please\n',
      ),
    });
    const already = { reason: 'This recording is among your takes already.', code: 'ALREADY_IMPORTED' };
    const first = await importTakes(user.access_token, { info: { source: 'manual' }, archive });
    expect(first.body.imported.map((item) => item.file)).toEqual(['yes-1.wav', 'yes-2.wav']);
    expect(first.body.refused).toEqual([{ file: 'yes-2 copy.wav', ...already }]);
    // Sent again (its report never arrived, say): nothing more is kept.
    const again = await importTakes(user.access_token, { info: { source: 'manual' }, archive });
    expect(again.body).toEqual({
      imported: [],
      refused: ['yes-1.wav', 'yes-2.wav', 'yes-2 copy.wav'].map((file) => ({ file, ...already })),
    });
    // Under another transcript too: one recording is a take of one phrase.
    const renamed = await importTakes(user.access_token, {
      info: { source: 'manual', transcripts: { 'yes.wav': 'Yes' } },
      files: [['yes.wav', fsddTake(1, 'theo', 0)]],
    });
    expect(renamed.body.refused).toEqual([{ file: 'yes.wav', ...already }]);
    const phrases = await server.api.get<{ phrases: Phrase[] }>('/app/casr/phrases', user.access_token);
    const recorded = phrases.body.phrases.filter((p) => p.takes > 0);
    expect(recorded.map((p) => [p.text, p.takes])).toEqual([['Yes please', 2]]);
  });

  it('imports Voice Memos under their titles, and compressed audio of any common format', async () => {
    const user = await signUp(server.api);
    const memo = fixture('Yes please.m4a');
    const archive = zipSync({
      'Voice Memos/Yes please.m4a': memo,
      'Voice Memos/New Recording 3.m4a': memo,
      'Voice Memos/Yes please 2.caf': fixture('take.caf'),
    });
    const apple = await importTakes(user.access_token, {
      info: { source: 'apple', transcripts: { 'Yes please 2.caf': 'Yes please' } },
      archive,
    });
    expect(apple.status).toBe(200);
    expect(apple.body.imported.map((item) => [item.file, item.text])).toEqual([
      ['Yes please.m4a', 'Yes please'],
      ['Yes please 2.caf', 'Yes please'],
    ]);
    expect(apple.body.refused).toEqual([
      {
        file: 'New Recording 3.m4a',
        reason:
          'This memo still has its default title: rename it to the words you say, or add a transcripts file.',
      },
    ]);

    // Titles name phrases only for Voice Memos: other sources need a transcript.
    const manual = await importTakes(user.access_token, {
      info: {
        source: 'manual',
        transcripts: { 'b.mp3': 'Thank you', 'c.ogg': 'Thank you', 'voicemail.wav': 'Thank you' },
      },
      files: [
        ['Thank you.webm', fixture('take.webm')],
        ['b.mp3', fixture('take.mp3')],
        ['c.ogg', fixture('take.ogg')],
        // A telephone's 8 kHz mu-law, as voicemail is exported.
        ['voicemail.wav', fixture('take-mulaw.wav')],
      ],
    });
    expect(manual.body.imported.map((item) => item.file)).toEqual(['b.mp3', 'c.ogg', 'voicemail.wav']);
    // The voicemail holds the room around its words (0.2 s before, 0.5 s after).
    expect(manual.body.imported.find((item) => item.file === 'voicemail.wav')?.cut_close).toBe(false);
    expect(manual.body.refused).toEqual([
      { file: 'Thank you.webm', reason: 'No transcript names this file.' },
    ]);
    const takes = await server.db
      .selectFrom('recordings')
      .select(['duration_ms', 'storage_key'])
      .where('user_id', '=', user.user.id)
      .execute();
    expect(takes).toHaveLength(5);
    // Whatever came in is kept as the 16 kHz WAV that training reads.
    expect(takes.every((take) => take.storage_key.endsWith('.wav') && take.duration_ms > 1400)).toBe(true);
  });

  it('refuses an empty import, a broken archive and an unknown scenario, storing nothing', async () => {
    const user = await signUp(server.api);
    expect((await importTakes(user.access_token, { info: { source: 'manual' } })).body).toMatchObject({
      status: 400,
      code: 'IMPORT_EMPTY',
    });
    expect(
      (await importTakes(user.access_token, { archive: new TextEncoder().encode('zip? no') })).body,
    ).toMatchObject({
      status: 400,
      code: 'ARCHIVE_UNREADABLE',
    });
    const unknown = await importTakes(user.access_token, {
      info: { scenario_id: 'moon', transcripts: { 'a.wav': 'One' } },
      files: [['a.wav', fsddTake(1, 'theo', 0)]],
    });
    expect(unknown.status).toBe(404);
    expect(
      (
        await importTakes(user.access_token, {
          info: { source: 'tape' },
          files: [['a.wav', fsddTake(1, 'theo', 0)]],
        })
      ).status,
    ).toBe(400);
    const rows = await server.db
      .selectFrom('recordings')
      .select('id')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(rows).toHaveLength(0);
  });
});
