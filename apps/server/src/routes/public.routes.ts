import { FeatureFlagsSchema, HealthResponseSchema } from '@parla/contract';
import { sql } from 'kysely';
import type { Services } from '../services/services.js';
import { commonErrors, type ZodApp } from './route-helpers.js';

const startedAt = Date.now();

export function registerPublicRoutes(app: ZodApp, { db, featureFlags, version }: Services) {
  app.get(
    '/health',
    {
      schema: {
        tags: ['Health'],
        summary: 'Liveness and database reachability',
        response: { 200: HealthResponseSchema, 503: HealthResponseSchema },
      },
    },
    async (_request, reply) => {
      const database = await sql`select 1`.execute(db).then(
        () => 'up' as const,
        () => 'down' as const,
      );
      const body = {
        status: database === 'up' ? ('ok' as const) : ('degraded' as const),
        version,
        database,
        uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
      };
      return reply.status(database === 'up' ? 200 : 503).send(body);
    },
  );

  app.get(
    '/app/public/feature_flags',
    { schema: { tags: ['Feature flags'], response: { 200: FeatureFlagsSchema, ...commonErrors } } },
    () => featureFlags,
  );
}
