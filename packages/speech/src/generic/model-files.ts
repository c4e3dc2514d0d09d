import type { Decoder, SoundSwallowerModule } from 'soundswallower';

/**
 * SoundSwallower copies each model file an engine reads (dictionary, model definition, means,
 * variances, mixture weights: about 10 MB for the bundled en-US model) into a buffer of the
 * module's memory, and parses it from there. Nothing ever frees those buffers: the parsed
 * model may point into them while the engine lives, and the engine's own free releases only
 * what it parsed. So every engine loaded left 10 MB behind for good (decision 0133).
 *
 * Each engine here is loaded while its files are counted, and gives their buffers back once it
 * is freed. Loads in one module take turns, so that every buffer is counted to its own engine.
 *
 * SoundSwallower also writes a zero one byte past each file buffer it asks for. For a file whose
 * length is 3 more than a multiple of 8, that byte is the size the allocator keeps at the head
 * of the next block; the bundled files are not such, but freeing their buffers now depends on
 * that bookkeeping. So while an engine loads, each allocation asked for from JavaScript gets a
 * byte more, and the zero falls inside it.
 */

/** The module's entry that wraps a model file's buffer, the one call every file read goes through. */
type WrapFile = (buffer: number, length: number) => number;
interface Entries {
  _s3file_init: WrapFile;
  _malloc: (size: number) => number;
}

interface Counting {
  /** The buffers handed to the engine loading now, or undefined between loads. */
  current: number[] | undefined;
  /** The last load, which the next one waits for. */
  turn: Promise<unknown>;
}
const counting = new WeakMap<SoundSwallowerModule, Counting>();

function countingIn(module: SoundSwallowerModule): Counting {
  const known = counting.get(module);
  if (known !== undefined) return known;
  const state: Counting = { current: undefined, turn: Promise.resolve() };
  const entries = module as unknown as Entries;
  const original = entries._s3file_init;
  const counted: WrapFile = (buffer, length) => {
    state.current?.push(buffer);
    const file = original(buffer, length);
    // The module binds its entries on first call by writing over them: keep ours in place.
    entries._s3file_init = counted;
    return file;
  };
  entries._s3file_init = counted;
  // Bound before it is wrapped: the module's own first call would write over the wrapper.
  module._free(entries._malloc(1));
  const allocate = entries._malloc;
  entries._malloc = (size) => allocate(state.current === undefined ? size : size + 1);
  counting.set(module, state);
  return state;
}

/** An engine and the buffers of the model files it read, to give back with {@link freeEngine}. */
export interface LoadedEngine {
  decoder: Decoder;
  files: number[];
}

/** Load an engine made by `create`, counting the model files it reads. */
export async function loadEngine(module: SoundSwallowerModule, create: () => Decoder): Promise<LoadedEngine> {
  const state = countingIn(module);
  const load = state.turn.then(async () => {
    const files: number[] = [];
    state.current = files;
    let decoder: Decoder | undefined;
    try {
      decoder = create();
      await decoder.initialize();
      return { decoder, files };
    } catch (error) {
      decoder?.delete();
      freeFiles(module, files);
      throw error;
    } finally {
      state.current = undefined;
    }
  });
  // The next load waits for this one, whether it loads or fails.
  state.turn = load.catch(() => undefined);
  return load;
}

/** Free an engine, then the model files it read: the engine no longer points into them. */
export function freeEngine(module: SoundSwallowerModule, engine: LoadedEngine): void {
  engine.decoder.delete();
  freeFiles(module, engine.files);
}

/** Give back the buffers of `files`, emptying it so that they are given back once. */
function freeFiles(module: SoundSwallowerModule, files: number[]): void {
  for (const buffer of files.splice(0)) module._free(buffer);
}
