import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseTranscript, readArchive } from './import-archive.js';

describe('parseTranscript', () => {
  it('reads CSV, tab and bar separated lines, skipping a header', () => {
    const text =
      '\uFEFFfile,text\r\ntake1.wav,"Hello, my friend"\nfolder/take2.wav\tGood morning\ntake3.wav|Call my son\n\nbroken line\n';
    expect([...parseTranscript(text)]).toEqual([
      ['take1.wav', 'Hello, my friend'],
      ['take2.wav', 'Good morning'],
      ['take3.wav', 'Call my son'],
    ]);
  });
});

describe('readArchive', () => {
  it('returns the audio files and the transcript, ignoring folders and system files', () => {
    const zip = zipSync({
      'recordings/a.wav': new Uint8Array([1]),
      'recordings/b.wav': new Uint8Array([2]),
      'recordings/.DS_Store': new Uint8Array([0]),
      '__MACOSX/recordings/._a.wav': new Uint8Array([0]),
      'transcripts.csv': new TextEncoder().encode('a.wav,Yes\nb.wav,No\n'),
    });
    const { files, transcripts } = readArchive(zip);
    expect(files.map((file) => file.name)).toEqual(['a.wav', 'b.wav']);
    expect([...transcripts]).toEqual([
      ['a.wav', 'Yes'],
      ['b.wav', 'No'],
    ]);
  });

  it('refuses what is not a zip', () => {
    expect(() => readArchive(new TextEncoder().encode('not a zip'))).toThrow(/could not be opened/);
  });
});
