import { ErrorResponseSchema } from '@parla/contract';
import type {
  FastifyInstance,
  FastifyBaseLogger,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The Fastify instance with routes typed by the contract's zod schemas. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Error responses every route may give, for the OpenAPI document. */
export const commonErrors = {
  400: ErrorResponseSchema.describe('Bad input: the message names the field'),
  429: ErrorResponseSchema.describe('Too many requests'),
  500: ErrorResponseSchema.describe('Server error'),
} as const;

export const privateErrors = {
  ...commonErrors,
  401: ErrorResponseSchema.describe('Missing, invalid or expired access token'),
  404: ErrorResponseSchema.describe('No such resource for this user'),
} as const;

/** OpenAPI security requirement of the routes that need an access token. */
export const bearer = [{ bearerAuth: [] }];
