import { afterAll, describe, expect, it } from 'vitest';
import { speechWorkerFile, ThreadedSpeechRenderer } from './threaded-speech-renderer.js';

// Runs the compiled worker (the test command builds the server before testing).
const workerFile = speechWorkerFile();

describe('ThreadedSpeechRenderer', () => {
  const renderer = new ThreadedSpeechRenderer(workerFile ?? 'missing-worker.js');
  afterAll(() => renderer.close());

  it('finds its compiled worker', () => {
    expect(workerFile).toMatch(/speech-renderer\.worker\.js$/);
  });

  it('answers concurrent requests each with its own audio', async () => {
    const [short, long, wav] = await Promise.all([
      renderer.render('Yes.', 'en-US-female', 'mp3'),
      renderer.render('Could you open the window, please? It is warm in here.', 'en-US-female', 'mp3'),
      renderer.render('Yes.', 'en-GB-male', 'wav'),
    ]);
    expect(short.contentType).toBe('audio/mpeg');
    expect(long.bytes.length).toBeGreaterThan(short.bytes.length * 2);
    expect(new TextDecoder().decode(wav.bytes.subarray(0, 4))).toBe('RIFF');
  });

  it('fails one bad request without harming the next', async () => {
    await expect(renderer.render('Hello', 'xx-XX-none', 'mp3')).rejects.toThrow(/unknown voice/);
    await expect(renderer.render('Hello', 'en-US-male', 'mp3')).resolves.toMatchObject({
      contentType: 'audio/mpeg',
    });
  });

  it('fails what is pending when closed, and starts afresh on the next request', async () => {
    const pending = expect(
      renderer.render('Good morning, how are you today?', 'en-US-female', 'mp3'),
    ).rejects.toThrow(/closed/);
    await renderer.close();
    await pending;
    await expect(renderer.render('Again', 'en-US-female', 'wav')).resolves.toMatchObject({
      contentType: 'audio/wav',
    });
  });
});
