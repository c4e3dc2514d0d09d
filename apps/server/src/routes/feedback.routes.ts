import {
  CreatedResponseSchema,
  LogsBatchQuerySchema,
  LogsBatchRequestSchema,
  LogsBatchResponseSchema,
  SupportRequestSchema,
} from '@parla/contract';
import type { Services } from '../services/services.js';
import { bearerToken } from '../plugins/authenticate.js';
import { bearer, commonErrors, privateErrors, type ZodApp } from './route-helpers.js';

/** Most bytes one log batch may carry. */
export const LOGS_BATCH_BODY_LIMIT = 256 * 1024;

export function registerSupportRoutes(app: ZodApp, { feedback }: Services) {
  app.post(
    '/app/support',
    {
      schema: {
        tags: ['Support'],
        security: bearer,
        summary: 'Send a message to the support team',
        body: SupportRequestSchema,
        response: { 201: CreatedResponseSchema, ...privateErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await feedback.createSupportRequest(request.auth.userId, request.body)),
  );
}

/** Client logs arrive signed in or not; a valid token ties them to the user. */
export function registerLogRoutes(app: ZodApp, { feedback, tokens }: Services) {
  app.post(
    '/logsBatch',
    {
      bodyLimit: LOGS_BATCH_BODY_LIMIT,
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['Logs'],
        summary: 'Store a batch of client log entries',
        querystring: LogsBatchQuerySchema,
        body: LogsBatchRequestSchema,
        response: { 202: LogsBatchResponseSchema, 413: commonErrors[400], ...commonErrors },
      },
    },
    async (request, reply) => {
      const token = bearerToken(request);
      const userId = token
        ? await tokens.verifyAccess(token).then(
            (claims) => claims.userId,
            () => null,
          )
        : null;
      return reply
        .status(202)
        .send(await feedback.storeClientLogs(userId, request.query.app_name, request.body.logs));
    },
  );
}
