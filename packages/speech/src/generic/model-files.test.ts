import { appendFile, cp, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSoundSwallower, soundSwallowerModelDir } from '../platform/soundswallower.node.js';
import { DIGITS, fsddRecording, haveFsdd } from '../test/fsdd.node.js';
import { GenericRecogniser } from './generic.js';
import { freeEngine, loadEngine } from './model-files.js';

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

  it('gives each model file a byte more than asked for, so the zero written past it stays inside', async () => {
    // A copy of the model whose dictionary is 3 bytes past a multiple of 8: the zero written
    // one byte past its buffer would land on the allocator's head of the next block.
    const model = await mkdtemp(join(tmpdir(), 'parla-model-'));
    try {
      await cp(join(soundSwallowerModelDir(), 'en-us'), model, { recursive: true });
      const dictionary = join(model, 'dict.txt');
      const { size } = await stat(dictionary);
      const padding = (11 - (size % 8)) % 8;
      await appendFile(dictionary, '\n'.repeat(padding));
      const length = size + padding;
      expect(length % 8).toBe(3);

      const module = await loadSoundSwallower();
      const entries = module as unknown as { _malloc: (size: number) => number };
      module._free(entries._malloc(1)); // bound, so that the module keeps the spy below
      const allocate = entries._malloc;
      const asked: number[] = [];
      entries._malloc = (bytes) => {
        asked.push(bytes);
        return allocate(bytes);
      };
      const engine = await loadEngine(
        module,
        () => new module.Decoder({ loglevel: 'FATAL', samprate: 16000, hmm: model }),
      );
      // The module asks for the file and its terminator, and writes a zero after both.
      expect(asked).toContain(length + 2);
      expect(asked).not.toContain(length + 1);
      freeEngine(module, engine);
      // Past a load, allocations are as asked.
      asked.length = 0;
      module._free(entries._malloc(64));
      expect(asked).toEqual([64]);
    } finally {
      await rm(model, { recursive: true, force: true });
    }
  }, 60_000);
});
