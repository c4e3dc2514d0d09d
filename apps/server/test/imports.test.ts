import type { ImportReport, Phrase } from '@parla/contract';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  decodeWav,
  deserializeProfile,
  downmix,
  IMPORTED_THRESHOLD,
  RECORDED_LEAD,
  RECORDED_TAIL,
  thresholdForImported,
  wavToMono16k,
} from '@parla/speech';
import { fsddTake } from './support/audio.js';
import { signUp, startTestServer, type TestServer } from './support/test-server.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`./fixtures/audio/${name}`, import.meta.url)));
const rms = (x: Float32Array) => Math.sqrt(x.reduce((n, v) => n + v * v, 0) / x.length);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** A user's stored takes, each with its metadata and the audio training reads. */
async function storedTakes(userId: string) {
  const rows = await server.db
    .selectFrom('recordings')
    .select(['storage_key', 'duration_ms', 'metadata'])
    .where('user_id', '=', userId)
    .execute();
  return rows.map((row) => ({
    ...row,
    audio: downmix(
      decodeWav(
        new Uint8Array(
          readFileSync(path.join(server.config.dataDir, 'blobs', ...row.storage_key.split('/'))),
        ),
      ),
    ),
  }));
}

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

    // FSDD's files are cut close at the word: each is kept as the app records a phrase, the
    // room before, after and under it, and marked so for training (docs/decisions/0115).
    const files: Record<string, Uint8Array> = {
      'a.wav': fsddTake(9, 'lucas', 0),
      'b.wav': fsddTake(9, 'lucas', 1),
      'c.wav': fsddTake(2, 'lucas', 0),
    };
    const stored = await storedTakes(user.user.id);
    expect(stored).toHaveLength(3);
    for (const take of stored) {
      const word = wavToMono16k(files[String(take.metadata?.file)] as Uint8Array);
      const lead = Math.round(RECORDED_LEAD * 16_000);
      expect(take.metadata?.kept_as_recorded).toBe(true);
      expect(take.audio.length).toBe(lead + word.length + Math.round(RECORDED_TAIL * 16_000));
      expect(take.duration_ms).toBe(Math.round(take.audio.length / 16));
      // Before the word, a quiet room: far under the word itself, but not silence.
      expect(rms(take.audio.subarray(0, lead))).toBeLessThan(rms(word) / 10);
      expect(rms(take.audio.subarray(0, lead))).toBeGreaterThan(0);
    }
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
    expect(manual.body.refused).toEqual([
      { file: 'Thank you.webm', reason: 'No transcript names this file.' },
    ]);
    const takes = await storedTakes(user.user.id);
    expect(takes).toHaveLength(5);
    // Whatever came in is kept as the 16 kHz WAV that training reads.
    expect(takes.every((take) => take.storage_key.endsWith('.wav') && take.duration_ms > 1400)).toBe(true);
    // The voicemail holds its room around the phrase (0.2 s before, 0.5 s after): kept as it is.
    const voicemail = takes.find((take) => take.metadata?.file === 'voicemail.wav');
    expect(voicemail?.metadata?.kept_as_recorded).toBeUndefined();
    expect(voicemail?.audio.length).toBe(wavToMono16k(fixture('take-mulaw.wav')).length);
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

  describe('a profile of imported takes', () => {
    /** The user's profile once it reaches `version`, as the browser downloads it. */
    async function profileAt(token: string, version: number) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const links = await server.api.get<{ version: number | null; links: { url: string }[] }>(
          '/app/end_user/model_links',
          token,
        );
        if (links.body.version === version) {
          const response = await fetch(`${server.url}${links.body.links[0]?.url ?? ''}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          return deserializeProfile(new Uint8Array(await response.arrayBuffer()));
        }
        if (Date.now() > deadline) throw new Error(`no model version ${version}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    it('rejects at the cut of imported takes, and nearer the usual one as takes recorded in the app join them', async () => {
      const user = await signUp(server.api);
      const files: [string, Uint8Array][] = [1, 2].flatMap((digit) =>
        [0, 1, 2].map((take): [string, Uint8Array] => [
          `${digit}-${take}.wav`,
          fsddTake(digit, 'theo', take),
        ]),
      );
      const imported = await importTakes(user.access_token, {
        info: {
          source: 'manual',
          transcripts: Object.fromEntries(
            files.map(([name]) => [name, name.startsWith('1') ? 'One' : 'Two']),
          ),
        },
        files,
      });
      expect(imported.body.imported).toHaveLength(6);
      expect((await profileAt(user.access_token, 1)).calibration.threshold).toBeCloseTo(
        IMPORTED_THRESHOLD,
        9,
      );

      // A take recorded in the app holds its room: one of seven takes now is not imported.
      const form = new FormData();
      form.append('info', JSON.stringify({ file_ext: 'wav' }));
      form.append(
        'audiofile',
        new Blob([new Uint8Array(fixture('take.wav'))], { type: 'audio/wav' }),
        'take.wav',
      );
      const phraseId = imported.body.imported[0]?.phrase_id ?? '';
      const upload = await fetch(`${server.url}/app/casr/upload/training/${phraseId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.access_token}` },
        body: form,
      });
      expect(upload.status).toBe(201);
      expect((await profileAt(user.access_token, 2)).calibration.threshold).toBeCloseTo(
        thresholdForImported(6 / 7),
        9,
      );
    });
  });
});
