/** Messages between the capture worklet and the page. */
export type CaptureBlock =
  | { type: 'block'; pcm: Int16Array; rms: number; peak: number }
  /** Everything captured before the flush command has been posted. */
  | { type: 'flushed' };

export type CaptureCommand = { type: 'flush' };
