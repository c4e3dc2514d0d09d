/** Placeholder until the generator lands. */
export function generateSynthetic(_folder: string): Promise<void> {
  return Promise.resolve();
}
