/** An error whose status, message and code are safe to show to the user. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** Extra fields of the error body, e.g. reason and details of a legal restriction. */
    readonly extra?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new AppError(400, message, code);
export const unauthorized = (message = 'Unauthorized', code = 'UNAUTHORIZED') =>
  new AppError(401, message, code);
export const forbidden = (message: string, code = 'FORBIDDEN') => new AppError(403, message, code);
export const notFound = (what: string) => new AppError(404, `${what} not found`, 'NOT_FOUND');
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, message, code);
export const gone = (message: string, code = 'GONE') => new AppError(410, message, code);

export const invalidCredentials = () => unauthorized('Wrong email or password', 'INVALID_CREDENTIALS');
export const tokenExpired = () => unauthorized('Token expired', 'TOKEN_EXPIRED');
export const emailInUse = () => conflict('Email address is in use', 'EMAIL_IN_USE');

/** HTTP 451: the service may not be offered where the user lives. */
export const legalRestriction = (reason: string, details: string) =>
  new AppError(451, 'This service is not available in your region', 'LEGAL_RESTRICTION', { reason, details });
