import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPasswordForTransport, PASSWORD_HASH_ITERATIONS, PASSWORD_HASH_SALT } from './password-hash.js';

describe('hashPasswordForTransport', () => {
  it('is PBKDF2-SHA256 with the fixed salt and 4096 iterations, as hex', async () => {
    const expected = pbkdf2Sync(
      'correct horse 9',
      PASSWORD_HASH_SALT,
      PASSWORD_HASH_ITERATIONS,
      32,
      'sha256',
    );
    await expect(hashPasswordForTransport('correct horse 9')).resolves.toBe(expected.toString('hex'));
  });

  it('treats canonically equal Unicode the same', async () => {
    const composed = await hashPasswordForTransport('caf\u00e9 latte 1');
    const decomposed = await hashPasswordForTransport('cafe\u0301 latte 1');
    expect(composed).toBe(decomposed);
    expect(composed).toMatch(/^[0-9a-f]{64}$/);
  });
});
