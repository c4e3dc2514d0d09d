import { z } from 'zod';
import { COOKIE_CONSENT_TYPES } from './constants.js';

export const CookieConsentTypesSchema = z
  .array(z.enum(COOKIE_CONSENT_TYPES))
  .max(COOKIE_CONSENT_TYPES.length)
  // Essential cookies are always on, whatever the client sends.
  .transform((types) => [...new Set<(typeof COOKIE_CONSENT_TYPES)[number]>(['essential', ...types])]);

/** The six user settings of spec section 3, each with its default. */
export const UserSettingsSchema = z
  .object({
    dictation_scenario: z.string().max(64).nullable(),
    use_streaming_model: z.boolean(),
    filter_profanities: z.boolean(),
    chat_gpt_enabled: z.boolean(),
    discrete_enabled: z.boolean(),
    min_silence_length_seconds: z
      .number()
      .min(0.1, 'min_silence_length_seconds must be at least 0.1')
      .max(5, 'min_silence_length_seconds must be at most 5'),
  })
  .meta({ id: 'UserSettings' });
export type UserSettings = z.infer<typeof UserSettingsSchema>;

export const DEFAULT_USER_SETTINGS: UserSettings = {
  dictation_scenario: null,
  use_streaming_model: true,
  filter_profanities: false,
  chat_gpt_enabled: false,
  discrete_enabled: true,
  min_silence_length_seconds: 0.3,
};

export const UpdateUserSettingsRequestSchema = UserSettingsSchema.partial()
  .strict()
  .refine((value) => Object.keys(value).length > 0, 'Send at least one setting to change');

export const UserSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    is_test_user: z.boolean(),
    tasks: z.array(z.string()),
    settings: UserSettingsSchema,
    providers_enabled: z.array(z.string()),
    /** The person keeps no recognition audio: results recognised in the browser are not uploaded. */
    opt_out_audio_recognition: z.boolean(),
    accepted_tos_at: z.string().nullable(),
    accepted_privacy_policy_at: z.string().nullable(),
    marketing_consent: z.boolean().nullable(),
    cookies_consent_types: z.array(z.enum(COOKIE_CONSENT_TYPES)).nullable(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;
