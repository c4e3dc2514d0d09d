import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors.js';
import type { SessionsRepository } from '../repositories/sessions.repository.js';
import type { AccessClaims, TokenService } from '../services/token.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by the authenticate hook on private routes. */
    auth: AccessClaims;
  }
}

export function bearerToken(request: FastifyRequest) {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/**
 * Requires a valid access token whose session is still open: logging out, a detected
 * refresh-token reuse or deleting the account ends it at once, not at expiry.
 */
export function authenticateWith(tokens: TokenService, sessions: SessionsRepository) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
    const token = bearerToken(request);
    if (!token) throw unauthorized('Sign in to continue', 'UNAUTHORIZED');
    const claims = await tokens.verifyAccess(token);
    if (!(await sessions.isFamilyActive(claims.sessionId))) {
      throw unauthorized('Session ended. Please sign in again.', 'SESSION_ENDED');
    }
    request.auth = claims;
  };
}
