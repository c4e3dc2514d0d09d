import {
  AuthorizeForSecureContentRequestSchema,
  AuthorizeForSecureContentResponseSchema,
  DeleteAccountRequestSchema,
  ErrorResponseSchema,
  ForgotPasswordRequestSchema,
  LegalRestrictionResponseSchema,
  LoginRequestSchema,
  LogAuthEventRequestSchema,
  OkResponseSchema,
  RefreshAccessTokenRequestSchema,
  ResetPasswordRequestSchema,
  SessionResponseSchema,
  SignUpRequestSchema,
  TokenPairSchema,
  ValidateResetCodeRequestSchema,
  ValidateResetCodeResponseSchema,
} from '@parla/contract';
import type { Services } from '../services/services.js';
import { bearer, commonErrors, privateErrors, type ZodApp } from './route-helpers.js';

const tags = ['Account'];

/** Sign-up, login, token refresh and password reset: public, and rate limited per client address. */
export function registerPublicAuthRoutes(app: ZodApp, services: Services) {
  const rateLimit = { max: services.config.authRateLimitPerMinute, timeWindow: '1 minute' };
  const legal = {
    451: LegalRestrictionResponseSchema.describe('Refused for legal reasons where the user lives'),
  };

  app.post(
    '/user',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'Sign up',
        body: SignUpRequestSchema,
        response: { 201: SessionResponseSchema, 409: ErrorResponseSchema, ...legal, ...commonErrors },
      },
    },
    async (request, reply) => reply.status(201).send(await services.auth.signUp(request.body)),
  );

  app.post(
    '/login',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'Sign in with email and password',
        body: LoginRequestSchema,
        response: { 200: SessionResponseSchema, 401: ErrorResponseSchema, ...legal, ...commonErrors },
      },
    },
    (request) => services.auth.login(request.body),
  );

  app.post(
    '/refreshAccessToken',
    {
      config: { rateLimit: { ...rateLimit, max: rateLimit.max * 5 } },
      schema: {
        tags,
        summary: 'Exchange a refresh token for a new token pair (the old one is spent)',
        body: RefreshAccessTokenRequestSchema,
        response: { 200: TokenPairSchema, 401: ErrorResponseSchema, ...legal, ...commonErrors },
      },
    },
    (request) => services.auth.refresh(request.body.refreshToken),
  );

  app.post(
    '/forgotPassword',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'Email a 6-digit reset code (the answer is the same for unknown addresses)',
        body: ForgotPasswordRequestSchema,
        response: { 200: OkResponseSchema, ...commonErrors },
      },
    },
    async (request) => {
      await services.auth.forgotPassword(request.body.email);
      return { ok: true as const };
    },
  );

  app.post(
    '/validateResetCode',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'Check a reset code; returns the one-time update token',
        body: ValidateResetCodeRequestSchema,
        response: { 200: ValidateResetCodeResponseSchema, 410: ErrorResponseSchema, ...commonErrors },
      },
    },
    (request) => services.auth.validateResetCode(request.body.email, request.body.code),
  );

  app.post(
    '/resetPassword',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'Set a new password with the update token; signs in and ends other sessions',
        body: ResetPasswordRequestSchema,
        response: { 200: SessionResponseSchema, 410: ErrorResponseSchema, ...commonErrors },
      },
    },
    (request) => services.auth.resetPassword(request.body),
  );
}

/** Account actions of a signed-in user. */
export function registerPrivateAuthRoutes(app: ZodApp, services: Services) {
  app.post(
    '/app/logAuthEvent',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Record an authentication event; logout also ends this session',
        body: LogAuthEventRequestSchema,
        response: { 200: OkResponseSchema, ...privateErrors },
      },
    },
    async (request) => {
      await services.auth.logAuthEvent(request.auth, request.body.event);
      return { ok: true as const };
    },
  );

  app.post(
    '/authorizeForSecureContent',
    {
      config: { rateLimit: { max: services.config.authRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        tags,
        security: bearer,
        summary: 'Re-enter the password to open sensitive content; returns a short-lived token',
        body: AuthorizeForSecureContentRequestSchema,
        response: { 200: AuthorizeForSecureContentResponseSchema, ...privateErrors },
      },
    },
    (request) =>
      services.auth.authorizeForSecureContent(request.auth, request.body.user_id, request.body.password),
  );

  app.delete(
    '/app/end_user/delete_account',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Delete the account and all its data',
        body: DeleteAccountRequestSchema,
        response: { 200: OkResponseSchema, ...privateErrors },
      },
    },
    async (request) => {
      await services.account.deleteAccount(request.auth.userId, request.body);
      return { ok: true as const };
    },
  );
}
