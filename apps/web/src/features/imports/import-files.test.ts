import { describe, expect, it } from 'vitest';
import { ACCEPTED_FILES, kindOf, memoTitle, parseTranscripts, transcriptFor } from './import-files';

describe('chosen import files', () => {
  it('tells recordings, zips and transcripts files apart by name', () => {
    expect(kindOf('Yes please.M4A')).toBe('audio');
    expect(kindOf('take.webm')).toBe('audio');
    expect(kindOf('memos.zip')).toBe('archive');
    expect(kindOf('transcripts.csv')).toBe('transcripts');
    expect(kindOf('Transcript.TXT')).toBe('transcripts');
    expect(kindOf('notes.txt')).toBe('other');
    expect(kindOf('README')).toBe('other');
    expect(ACCEPTED_FILES.split(',')).toEqual(expect.arrayContaining(['.wav', '.m4a', '.zip', '.csv']));
  });

  it('reads a transcripts file as the server does', () => {
    const transcripts = parseTranscripts(
      '\uFEFFfile,text\r\nyes-1.wav,Yes please\nfolder/kettle.wav,"Put the kettle on, please"\nno-words,\n' +
        'tabbed\tThank you\npiped|Say ""hi""\n',
    );
    expect([...transcripts]).toEqual([
      ['yes-1.wav', 'Yes please'],
      ['kettle.wav', 'Put the kettle on, please'],
      ['tabbed', 'Thank you'],
      ['piped', 'Say "hi"'],
    ]);
    expect(transcriptFor(transcripts, 'tabbed.m4a')).toBe('Thank you');
    expect(transcriptFor(transcripts, 'yes-2.wav')).toBeUndefined();
  });

  it('takes a memo to say its title unless it still has a default one', () => {
    expect(memoTitle('Call my son.m4a')).toBe('Call my son');
    expect(memoTitle('Call_my_son.m4a')).toBe('Call my son');
    expect(memoTitle('New Recording 3.m4a')).toBeNull();
    expect(memoTitle('2024-05-01 10.15.m4a')).toBeNull();
  });
});
