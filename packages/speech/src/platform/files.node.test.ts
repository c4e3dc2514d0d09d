import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeWavPcm16 } from '../audio/wav.js';
import { loadManifest, ManifestError } from './files.node.js';

const dir = mkdtempSync(join(tmpdir(), 'manifest-'));
const write = (name: string, content: string | Uint8Array): string => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};
mkdirSync(join(dir, 'audio'));
write('audio/yes.wav', encodeWavPcm16(new Float32Array(8000).fill(0.1), 8000));
write('audio/notes.txt', 'not audio');

describe('loadManifest', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads items with audio relative to the manifest, resampled to 16 kHz', async () => {
    const path = write(
      'good.json',
      JSON.stringify([{ audio: 'audio/yes.wav', text: 'Yes', speaker: 'ann' }]),
    );
    const [item] = await loadManifest(path);
    expect(item).toMatchObject({ text: 'Yes', speaker: 'ann', source: 'audio/yes.wav' });
    expect(item?.audio.length).toBe(16000);
  });

  it('keeps the session an item was said in, where the manifest names one', async () => {
    const path = write(
      'sessions.json',
      JSON.stringify([
        { audio: 'audio/yes.wav', text: 'Yes', speaker: 'ann', session: 'month-2' },
        { audio: 'audio/yes.wav', text: 'Yes', speaker: 'ann', session: '' },
        { audio: 'audio/yes.wav', text: 'Yes', speaker: 'ann' },
      ]),
    );
    const items = await loadManifest(path);
    expect(items.map((i) => i.session)).toEqual(['month-2', undefined, undefined]);
    expect('session' in (items[2] ?? {})).toBe(false);
  });

  it.each([
    [
      'a missing manifest',
      join(dir, 'nope.json'),
      /Cannot read the manifest .*nope\.json: there is no such file/,
    ],
    ['a folder', join(dir, 'audio'), /it is a folder/],
    ['broken JSON', write('broken.json', '[{"audio": '), /broken\.json is not JSON/],
    ['an object', write('object.json', '{"audio": "a.wav"}'), /must be a JSON array/],
    ['an empty array', write('empty.json', '[]'), /with at least one/],
    [
      'an item without text',
      write('notext.json', '[{"audio": "audio/yes.wav"}]'),
      /item 1: "audio" and "text"/,
    ],
    [
      'an item with an empty audio path',
      write('noaudio.json', '[{"audio": " ", "text": "yes"}]'),
      /item 1: "audio" and "text"/,
    ],
    [
      'a missing audio file',
      write('missing.json', '[{"audio": "audio/yes.wav", "text": "yes"}, {"audio": "no.wav", "text": "no"}]'),
      /missing\.json, item 2: cannot read the audio file .*no\.wav: there is no such file/,
    ],
    [
      'a file that is not audio',
      write('notaudio.json', '[{"audio": "audio/notes.txt", "text": "yes"}]'),
      /item 1 \(audio\/notes\.txt\): This is not a WAV audio file/,
    ],
  ])('explains %s', async (_, path, message) => {
    const attempt = loadManifest(path);
    await expect(attempt).rejects.toThrow(ManifestError);
    await expect(attempt).rejects.toThrow(message);
  });
});
