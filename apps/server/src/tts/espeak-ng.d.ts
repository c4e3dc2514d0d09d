// The package ships no types: the part of its Emscripten module this server uses.
declare module 'espeak-ng' {
  interface ESpeakNgFs {
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string): Uint8Array;
  }
  interface ESpeakNgModule {
    FS: ESpeakNgFs;
  }
  interface ESpeakNgOptions {
    arguments: string[];
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    preRun?: ((module: ESpeakNgModule) => void)[];
    /** The module's bytes, instead of letting it read them from disk. */
    wasmBinary?: Uint8Array;
  }
  /** Runs the espeak-ng command line once, in a fresh WebAssembly instance. */
  export default function ESpeakNg(options: ESpeakNgOptions): Promise<ESpeakNgModule>;
}
