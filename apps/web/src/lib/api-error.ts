/** The message shown when a failure carries none of its own (spec section 8). */
export const FALLBACK_ERROR_MESSAGE = 'Something went wrong';

/** A failure the server answered: status, message and optional stable code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A refusal for legal reasons where the user lives (HTTP 451). */
export class LegalRestrictionError extends ApiError {
  constructor(
    message: string,
    readonly reason: string,
    readonly details: string,
  ) {
    super(451, message, 'LEGAL_RESTRICTION');
    this.name = 'LegalRestrictionError';
  }
}

/** The request got no response at all (offline, server unreachable). */
export class NetworkError extends Error {
  constructor(message = 'No connection to the server') {
    super(message);
    this.name = 'NetworkError';
  }
}

/** The session ended while a call waited for it (refresh refused). */
export class SessionEndedError extends ApiError {
  constructor(message = 'Your session has ended. Please log in again.') {
    super(401, message, 'SESSION_ENDED');
    this.name = 'SessionEndedError';
  }
}

export interface NormalizedError {
  status: number;
  message: string;
  code?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Any thrown value as {status, message}: status 0 when there was no response. */
export function normalizeError(error: unknown): NormalizedError {
  if (error instanceof ApiError) {
    return {
      status: error.status,
      message: error.message || FALLBACK_ERROR_MESSAGE,
      ...(error.code ? { code: error.code } : {}),
    };
  }
  if (error instanceof NetworkError) return { status: 0, message: error.message };
  if (error instanceof Error) return { status: 0, message: error.message || FALLBACK_ERROR_MESSAGE };
  if (typeof error === 'string' && error) return { status: 0, message: error };
  if (isRecord(error)) {
    const status = typeof error.status === 'number' ? error.status : 0;
    const message =
      typeof error.message === 'string' && error.message ? error.message : FALLBACK_ERROR_MESSAGE;
    const code = typeof error.code === 'string' ? error.code : undefined;
    return { status, message, ...(code ? { code } : {}) };
  }
  return { status: 0, message: FALLBACK_ERROR_MESSAGE };
}

/** Builds the typed error of a failed response from its JSON body (or none). */
export function errorFromResponse(status: number, body: unknown): ApiError {
  const normalized = normalizeError(isRecord(body) ? { status, ...body } : { status });
  if (status === 451 && isRecord(body) && typeof body.reason === 'string') {
    return new LegalRestrictionError(
      normalized.message,
      body.reason,
      typeof body.details === 'string' ? body.details : '',
    );
  }
  return new ApiError(status, normalized.message, normalized.code);
}

/**
 * A refusal that trying again will not change (a 4xx: the request is bad, or what it is about
 * is gone). No answer, a server error, an expired session or a busy server may pass.
 */
export function isFinalRefusal(error: unknown): error is ApiError {
  if (error instanceof NetworkError || !(error instanceof ApiError)) return false;
  if (error.status === 401 || error.status === 408 || error.status === 429) return false;
  return error.status >= 400 && error.status < 500;
}
