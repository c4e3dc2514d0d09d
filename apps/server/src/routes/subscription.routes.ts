import { SubscriptionInfoSchema, TechPartnersResponseSchema } from '@parla/contract';
import type { Services } from '../services/services.js';
import { bearer, privateErrors, type ZodApp } from './route-helpers.js';

export function registerSubscriptionRoutes(app: ZodApp, { subscription }: Services) {
  const tags = ['Subscription'];
  app.get(
    '/app/end_user/subscription_info',
    { schema: { tags, security: bearer, response: { 200: SubscriptionInfoSchema, ...privateErrors } } },
    (request) => subscription.info(request.auth.userId),
  );
  app.get(
    '/app/end_user/tech_partners',
    { schema: { tags, security: bearer, response: { 200: TechPartnersResponseSchema, ...privateErrors } } },
    (request) => subscription.partners(request.auth.userId),
  );
}
