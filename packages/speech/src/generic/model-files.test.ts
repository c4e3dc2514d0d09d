import { describe, expect, it } from 'vitest';
import { loadSoundSwallower } from '../platform/soundswallower.node.js';
import { DIGITS, fsddRecording, haveFsdd } from '../test/fsdd.node.js';
import { GenericRecogniser } from './generic.js';

/** What `recogniser` makes of one whole recording. */
function heard(recogniser: GenericRecogniser, audio: Float32Array): string | null {
  recogniser.start();
  recogniser.process(audio);
  return recogniser.finish().text;
}

describe.skipIf(!haveFsdd)('engines and their model files', () => {
  it('gives each engine’s model files back when it is freed, so loads stop taking memory', async () => {
    const module = await loadSoundSwallower();
    const loadAndFree = async (times: number) => {
      for (let i = 0; i < times; i++) (await GenericRecogniser.create(module, DIGITS)).delete();
    };
    await loadAndFree(3);
    const settled = module.HEAP8.length;
    // Each load used to leave its 10 MB of model files behind: 20 more, 200 MB more.
    await loadAndFree(20);
    expect(module.HEAP8.length).toBe(settled);
  }, 60_000);

  it('keeps an engine working while others load beside it and are freed, in turns', async () => {
    const module = await loadSoundSwallower();
    const kept = await GenericRecogniser.create(module, DIGITS);
    const three = fsddRecording(3, 'jackson', 7);
    const before = heard(kept, three);
    expect(before).toBe('three');
    // Loads started together take turns; each frees only its own files.
    const others = await Promise.all([0, 1, 2, 3].map(() => GenericRecogniser.create(module, DIGITS)));
    for (const other of others) other.delete();
    expect(heard(kept, three)).toBe(before);
    const again = await GenericRecogniser.create(module, DIGITS);
    expect(heard(again, fsddRecording(5, 'jackson', 7))).toBe('five');
    again.delete();
    kept.delete();
    // Freeing twice gives nothing back twice.
    kept.delete();
  }, 60_000);
});
