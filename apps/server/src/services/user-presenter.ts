import {
  DEFAULT_USER_SETTINGS,
  UserSettingsSchema,
  type CookieConsentType,
  type User,
  type UserSettings,
} from '@parla/contract';
import type { UserRow } from '../db/schema.js';

/** Stored settings over the defaults; a key that no longer validates falls back to its default. */
export function settingsOf(row: Pick<UserRow, 'settings'>): UserSettings {
  const merged = { ...DEFAULT_USER_SETTINGS, ...row.settings };
  const parsed = UserSettingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_USER_SETTINGS;
}

/** The user as the client sees it (spec section 3). */
export function presentUser(row: UserRow, tasks: string[]): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    is_test_user: row.is_test_user,
    tasks,
    settings: settingsOf(row),
    providers_enabled: row.providers_enabled,
    opt_out_audio_recognition: row.opt_out_audio_recognition,
    accepted_tos_at: row.accepted_tos_at?.toISOString() ?? null,
    accepted_privacy_policy_at: row.accepted_privacy_policy_at?.toISOString() ?? null,
    marketing_consent: row.marketing_consent,
    cookies_consent_types: (row.cookies_consent_types as CookieConsentType[] | null) ?? null,
  };
}
