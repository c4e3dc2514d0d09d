import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { tokenExpired, unauthorized } from '../errors.js';

export interface AccessClaims {
  userId: string;
  /** The refresh-token family this access token belongs to: one per signed-in device. */
  sessionId: string;
}

type TokenKind = 'access' | 'secure';

/** Signs and checks the short-lived tokens (HS256). */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    readonly accessTtlSeconds: number,
    readonly secureTtlSeconds = 300,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  issueAccess(claims: AccessClaims) {
    return this.sign('access', claims, this.accessTtlSeconds);
  }

  verifyAccess(token: string) {
    return this.verify('access', token);
  }

  /** A token that proves the user re-entered their password a moment ago. */
  issueSecure(claims: AccessClaims) {
    return this.sign('secure', claims, this.secureTtlSeconds);
  }

  verifySecure(token: string) {
    return this.verify('secure', token);
  }

  private sign(kind: TokenKind, claims: AccessClaims, ttlSeconds: number) {
    return new SignJWT({ sid: claims.sessionId, kind })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  private async verify(kind: TokenKind, token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (payload.kind !== kind || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') {
        throw unauthorized();
      }
      return { userId: payload.sub, sessionId: payload.sid };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw tokenExpired();
      throw unauthorized();
    }
  }
}
