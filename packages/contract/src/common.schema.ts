import { z } from 'zod';

/** The one error shape of every failure. `code` is a stable machine-readable name. */
export const ErrorResponseSchema = z
  .object({
    status: z.number().int(),
    message: z.string(),
    code: z.string().optional(),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** A refusal for legal reasons (spec section 7: a response with reason and details). */
export const LegalRestrictionResponseSchema = ErrorResponseSchema.extend({
  code: z.literal('LEGAL_RESTRICTION'),
  reason: z.string(),
  details: z.string(),
}).meta({ id: 'LegalRestrictionResponse' });
export type LegalRestrictionResponse = z.infer<typeof LegalRestrictionResponseSchema>;

export const EmailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'Enter a valid email address' }))
  .transform((email) => email.toLowerCase());

/** The transported password: PBKDF2-SHA256 hex (see password-hash.ts), never the clear text. */
export const TransportPasswordSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'password must be the client-side PBKDF2-SHA256 hash (64 hex characters)');

/** ISO 3166-1 alpha-2 country code, e.g. US. */
export const CountryCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'country must be an ISO 3166-1 alpha-2 code such as US');

/** The subdivision part of ISO 3166-2, e.g. CA for California or ON for Ontario. */
export const RegionCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{1,3}$/, 'region_code must be the subdivision part of ISO 3166-2 such as CA');

/** BCP 47 language tag such as en-US. */
export const LanguageTagSchema = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en-US');

export const PhoneSchema = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{6,20}$/, 'phone must be a phone number such as +1 555 123 4567');

/** Free information the app sends about itself (version, platform); bounded so it cannot grow unchecked. */
export const ExtraAppInfoSchema = z
  .record(z.string().max(64), z.union([z.string().max(512), z.number(), z.boolean(), z.null()]))
  .refine((value) => Object.keys(value).length <= 32, 'extra may hold at most 32 entries');

export const AppCredentialsShape = {
  app_id: z.string().max(64).optional(),
  api_key: z.string().max(256).optional(),
  extra: ExtraAppInfoSchema.optional(),
};

export const OkResponseSchema = z.object({ ok: z.literal(true) }).meta({ id: 'OkResponse' });
