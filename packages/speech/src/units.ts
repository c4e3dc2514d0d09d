/** Time in seconds. */
export type Seconds = number;
/** Time in milliseconds. */
export type Milliseconds = number;
/** A frequency or sample rate in hertz. */
export type Hz = number;
/** A level in decibels. */
export type Decibels = number;

/** The product's audio format: 16 kHz mono. */
export const SAMPLE_RATE: Hz = 16_000;
/** The browser sends this many samples per chunk (0.2 s at 16 kHz). */
export const CHUNK_SAMPLES = 3200;
