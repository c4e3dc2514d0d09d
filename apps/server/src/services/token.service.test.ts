import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenService } from './token.service.js';

const secret = 'a-test-secret-that-is-long-enough-for-hs256';

describe('TokenService', () => {
  const tokens = new TokenService(secret, 900);

  it('round-trips the claims of an access token', async () => {
    const token = await tokens.issueAccess({ userId: 'u1', sessionId: 's1' });
    await expect(tokens.verifyAccess(token)).resolves.toEqual({ userId: 'u1', sessionId: 's1' });
  });

  it('does not take a secure-content token as an access token, nor the reverse', async () => {
    const secure = await tokens.issueSecure({ userId: 'u1', sessionId: 's1' });
    await expect(tokens.verifyAccess(secure)).rejects.toMatchObject({ status: 401 });
    const access = await tokens.issueAccess({ userId: 'u1', sessionId: 's1' });
    await expect(tokens.verifySecure(access)).rejects.toMatchObject({ status: 401 });
  });

  it('says an expired token expired, and refuses a forged one', async () => {
    const expired = await new SignJWT({ sid: 's1', kind: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(new TextEncoder().encode(secret));
    await expect(tokens.verifyAccess(expired)).rejects.toMatchObject({
      status: 401,
      message: 'Token expired',
    });
    const forged = await new TokenService('another-secret-that-is-long-enough-too!!', 900).issueAccess({
      userId: 'u1',
      sessionId: 's1',
    });
    await expect(tokens.verifyAccess(forged)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });
});
