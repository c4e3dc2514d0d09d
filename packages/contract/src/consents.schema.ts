import { z } from 'zod';
import { COOKIE_CONSENT_TYPES } from './constants.js';
import { CookieConsentTypesSchema, UserSchema } from './user.schema.js';

/** The cookie choice of the cookie notice. */
export const CookieConsentUpdateSchema = z
  .object({ cookies_consent_types: CookieConsentTypesSchema })
  .strict();

/** The terms and privacy re-acceptance dialog. */
export const TermsConsentUpdateSchema = z
  .object({
    accepted_tos: z.literal(true, { message: 'It is required to agree' }),
    accepted_privacy_policy: z.literal(true, { message: 'It is required to agree' }),
    marketing_consent: z.boolean(),
    commercial_use_of_pii_consent: z.boolean().optional(),
  })
  .strict();

export const UpdateConsentsRequestSchema = z
  .union([CookieConsentUpdateSchema, TermsConsentUpdateSchema])
  .meta({ id: 'UpdateConsentsRequest' });
export type UpdateConsentsRequest = z.input<typeof UpdateConsentsRequestSchema>;

export const ConsentsSchema = z
  .object({
    accepted_tos_at: z.string().nullable(),
    accepted_privacy_policy_at: z.string().nullable(),
    marketing_consent: z.boolean().nullable(),
    commercial_use_of_pii_consent: z.boolean().nullable(),
    cookies_consent_types: z.array(z.enum(COOKIE_CONSENT_TYPES)).nullable(),
  })
  .meta({ id: 'Consents' });
export type Consents = z.infer<typeof ConsentsSchema>;

export const UpdateConsentsResponseSchema = z.object({ consents: ConsentsSchema, user: UserSchema });
