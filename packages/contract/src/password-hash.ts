/**
 * Passwords never leave the client in clear: the client sends PBKDF2-SHA256 of the
 * password (4096 iterations, a fixed salt) as 64 hex characters, and the server stores
 * an argon2id hash of that. The fixed salt only makes the transported value
 * app-specific; the per-user salt lives in the server's argon2id hash.
 */
export const PASSWORD_HASH_SALT = 'parla.casr_web_app.v1';
export const PASSWORD_HASH_ITERATIONS = 4096;

/** Hashes a password for transport, in the browser and in Node (WebCrypto in both). */
export async function hashPasswordForTransport(password: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(password.normalize('NFKC')),
    'PBKDF2',
    false,
    ['deriveBits'],
  );
  const bits = await crypto.subtle.deriveBits(
    {
      name: 'PBKDF2',
      hash: 'SHA-256',
      salt: encoder.encode(PASSWORD_HASH_SALT),
      iterations: PASSWORD_HASH_ITERATIONS,
    },
    key,
    256,
  );
  return Array.from(new Uint8Array(bits), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
