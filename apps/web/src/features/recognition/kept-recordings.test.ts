import type { RecognitionResult } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { keepingRecording, keptRecordingId, mayBeKept } from './kept-recordings';

const result = (recordingId?: string | null): RecognitionResult => ({
  text: 'good morning',
  confidence: 0.9,
  rejected: false,
  alternatives: [],
  recognition_mode: 'speak',
  duration: 1,
  acoustic_model_id: 1,
  confidence_threshold: 0.5,
  ...(recordingId === undefined ? {} : { recording_id: recordingId }),
});

describe('kept recordings', () => {
  it('names the recording the server gave, or the one an upload will give', async () => {
    const fromServer = result('rec-1');
    expect(mayBeKept(fromServer)).toBe(true);
    await expect(keptRecordingId(fromServer)).resolves.toBe('rec-1');

    const local = result(null);
    expect(mayBeKept(local)).toBe(false);
    let stored: (id: string | null) => void = () => undefined;
    keepingRecording(local, new Promise((resolve) => (stored = resolve)));
    expect(mayBeKept(local)).toBe(true);
    const id = keptRecordingId(local);
    stored('rec-2');
    await expect(id).resolves.toBe('rec-2');
  });

  it('says nothing was kept for a result with no recording and no upload', async () => {
    const alone = result();
    expect(mayBeKept(alone)).toBe(false);
    await expect(keptRecordingId(alone)).resolves.toBeNull();
    const refused = result(null);
    keepingRecording(refused, Promise.resolve(null));
    await expect(keptRecordingId(refused)).resolves.toBeNull();
  });
});
