import { z } from 'zod';
import {
  AppCredentialsShape,
  CountryCodeSchema,
  EmailSchema,
  LanguageTagSchema,
  PhoneSchema,
  RegionCodeSchema,
  TransportPasswordSchema,
} from './common.schema.js';
import { CONSENT_REGIONS } from './consent-regions.js';
import { CookieConsentTypesSchema, UserSchema } from './user.schema.js';

/** Rules for the clear-text password, checked on the client: the server only ever sees its hash. */
export const NewPasswordSchema = z
  .string()
  .min(8, 'Use at least 8 characters')
  .max(128, 'Use at most 128 characters')
  .refine((value) => /\p{L}/u.test(value) && /[^\p{L}]/u.test(value), 'Mix letters with numbers or symbols');

export const BirthdateSchema = z.iso
  .date({ message: 'birthdate must be a date as YYYY-MM-DD' })
  .refine(
    (value) => new Date(`${value}T00:00:00Z`).getTime() <= Date.now(),
    'birthdate cannot be in the future',
  )
  .refine(
    (value) => Number(value.slice(0, 4)) >= new Date().getUTCFullYear() - 120,
    'birthdate must be within the last 120 years',
  );

export const SourceTrackingSchema = z
  .object({
    utm_source: z.string().max(200).optional(),
    utm_medium: z.string().max(200).optional(),
    utm_campaign: z.string().max(200).optional(),
    referrer: z.string().max(2000).optional(),
  })
  .strict();
export type SourceTracking = z.infer<typeof SourceTrackingSchema>;

/** A guardian's consent to a minor's account, on the form of the user's region. */
export const GuardianConsentSchema = z
  .object({
    region: z.enum(CONSENT_REGIONS),
    guardian_name: z.string().trim().min(1, 'guardian_name is required').max(100),
    relationship: z.enum(['parent', 'legal_guardian']),
    agreed: z.literal(true, { message: 'The guardian must agree to the consent form' }),
  })
  .strict();

export const PRIMARY_CONTACT_TYPES = ['user', 'support_person', 'guardian'] as const;

export const SignUpRequestSchema = z
  .object({
    email: EmailSchema,
    password: TransportPasswordSchema,
    app_language: LanguageTagSchema.default('en-US'),
    name: z.string().trim().min(1, 'name is required').max(100),
    secondary_name: z.string().trim().max(100).optional(),
    secondary_email: EmailSchema.optional(),
    secondary_phone: PhoneSchema.optional(),
    birthdate: BirthdateSchema,
    country: CountryCodeSchema,
    region_code: RegionCodeSchema.optional(),
    parent_email: EmailSchema.optional(),
    primary_contact_type: z.enum(PRIMARY_CONTACT_TYPES).default('user'),
    source_tracking: SourceTrackingSchema.optional(),
    opt_out_audio_recognition: z.boolean().default(false),
    opt_out_audio_training: z.boolean().default(false),
    accepted_tos: z.literal(true, { message: 'Terms of Service have not been accepted.' }),
    accepted_privacy_policy: z.literal(true, { message: 'The privacy policy must be accepted' }),
    marketing_consent: z.boolean().optional(),
    support_person_consent: z.boolean().default(false),
    cookies_consent_types: CookieConsentTypesSchema.optional(),
    guardian_consent: GuardianConsentSchema.optional(),
    ...AppCredentialsShape,
  })
  .strict()
  .meta({ id: 'SignUpRequest' });
export type SignUpRequest = z.input<typeof SignUpRequestSchema>;

export const LoginRequestSchema = z
  .object({ email: EmailSchema, password: TransportPasswordSchema, ...AppCredentialsShape })
  .strict()
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.input<typeof LoginRequestSchema>;

export const RefreshAccessTokenRequestSchema = z
  .object({ refreshToken: z.string().min(1).max(512), extra: AppCredentialsShape.extra })
  .strict()
  .meta({ id: 'RefreshAccessTokenRequest' });

export const TokenPairSchema = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    /** Seconds until the access token expires. */
    expires_in: z.number().int(),
  })
  .meta({ id: 'TokenPair' });
export type TokenPair = z.infer<typeof TokenPairSchema>;

export const SessionResponseSchema = TokenPairSchema.extend({ user: UserSchema }).meta({
  id: 'SessionResponse',
});
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

export const ForgotPasswordRequestSchema = z.object({ email: EmailSchema }).strict();
export const ValidateResetCodeRequestSchema = z
  .object({
    email: EmailSchema,
    code: z.string().regex(/^[0-9]{6}$/, 'code must be the 6 digits from the email'),
  })
  .strict();
export const ValidateResetCodeResponseSchema = z.object({ update_token: z.string() });
export const ResetPasswordRequestSchema = z
  .object({
    update_token: z.string().min(1).max(512),
    email: EmailSchema,
    password: TransportPasswordSchema,
    ...AppCredentialsShape,
  })
  .strict();

export const AUTH_EVENTS = ['login', 'logout', 'sign_up', 'session_expired', 'password_reset'] as const;
export const LogAuthEventRequestSchema = z.object({ event: z.enum(AUTH_EVENTS) }).strict();

export const AuthorizeForSecureContentRequestSchema = z
  .object({ password: TransportPasswordSchema, user_id: z.string().min(1).max(64) })
  .strict();
export const AuthorizeForSecureContentResponseSchema = z.object({
  authorized: z.literal(true),
  secure_token: z.string(),
  expires_in: z.number().int(),
});

export const DeleteAccountRequestSchema = z
  .object({ opt_out_audio_recognition: z.boolean(), opt_out_audio_training: z.boolean() })
  .strict();
