// Common English profanities; a recognised phrase is the user's own words, so this only masks them.
const WORDS = [
  'fuck',
  'fucking',
  'shit',
  'bitch',
  'bastard',
  'asshole',
  'damn',
  'crap',
  'dick',
  'piss',
  'cunt',
  'bollocks',
  'wanker',
  'bullshit',
];
const PATTERN = new RegExp(`\\b(${WORDS.join('|')})\\b`, 'gi');

/** Masks profanities with asterisks, keeping the first letter: "shit" becomes "s***". */
export function maskProfanities(text: string) {
  return text.replace(PATTERN, (word) => `${word[0] ?? ''}${'*'.repeat(word.length - 1)}`);
}
