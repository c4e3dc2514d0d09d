// SoundSwallower imports `Blob` from blob-polyfill, which touches `document` when it loads:
// in the recognition worker there is none, and every browser the app supports has Blob.
// The web build resolves blob-polyfill to this module instead (vite.config.ts).
export const Blob = globalThis.Blob;
