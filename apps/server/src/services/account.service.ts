import {
  MANDATORY_PROFILE_FIELDS,
  type Consents,
  type CookieConsentType,
  type Profile,
  type ProfileStatus,
  type UpdateProfileRequestSchema,
  type UpdateConsentsRequestSchema,
  type UserSettings,
} from '@parla/contract';
import type { z } from 'zod';
import type { ProfileRow, UserRow } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import type { FeedbackRepository } from '../repositories/feedback.repository.js';
import type { ProfilesRepository } from '../repositories/profiles.repository.js';
import type { SessionsRepository } from '../repositories/sessions.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { presentUser, settingsOf } from './user-presenter.js';
import type { VoiceProfileService } from './voice-profile.service.js';

type ProfileUpdate = z.output<typeof UpdateProfileRequestSchema>;
type ConsentsUpdate = z.output<typeof UpdateConsentsRequestSchema>;

export interface AccountServiceDeps {
  users: UsersRepository;
  profiles: ProfilesRepository;
  sessions: SessionsRepository;
  feedback: FeedbackRepository;
  voiceProfile: Pick<VoiceProfileService, 'deleteAllFilesOf'>;
}

/** What a signed-in user keeps about themselves: profile, settings, tasks, consents. */
export class AccountService {
  constructor(private readonly deps: AccountServiceDeps) {}

  async me(userId: string) {
    const user = await this.userRow(userId);
    return presentUser(user, await this.deps.users.tasksOf(userId));
  }

  async profile(userId: string): Promise<Profile> {
    const row = await this.deps.profiles.find(userId);
    if (!row) throw notFound('Profile');
    return presentProfile(row);
  }

  async profileStatus(userId: string): Promise<ProfileStatus> {
    const row = await this.deps.profiles.find(userId);
    if (!row) return { is_created: false, is_mandatory_filled: false };
    const profile = presentProfile(row);
    return {
      is_created: true,
      is_mandatory_filled: MANDATORY_PROFILE_FIELDS.every((field) => Boolean(profile[field])),
    };
  }

  /** Creates or changes the profile; a profile always has a name. */
  async updateProfile(userId: string, update: ProfileUpdate): Promise<Profile> {
    const existing = await this.deps.profiles.find(userId);
    const name = update.name ?? existing?.name;
    if (!name) throw badRequest('name is required', 'NAME_REQUIRED');
    const row = await this.deps.profiles.upsert({
      user_id: userId,
      name,
      ...definedOnly({
        gender: update.gender,
        country: update.country,
        diagnosis: update.diagnosis,
        speech_level: update.speechLevel,
        native_language: update.nativeLanguage,
        phone: update.phone,
        region_code: update.region_code,
        role: update.role,
        referral_source: update.referral_source,
      }),
      updated_at: new Date(),
    });
    // The account's name follows the profile: it is what the app calls the user.
    if (update.name !== undefined) await this.deps.users.update(userId, { name: update.name });
    return presentProfile(row);
  }

  async settings(userId: string): Promise<UserSettings> {
    return settingsOf(await this.userRow(userId));
  }

  async updateSettings(userId: string, changes: Partial<UserSettings>): Promise<UserSettings> {
    // Only what the person chose is stored, so an unchosen setting keeps following its
    // default (the end-point silence then stays the one learned from their takes).
    const row = await this.userRow(userId);
    const chosen = { ...row.settings, ...changes };
    await this.deps.users.update(userId, { settings: JSON.stringify(chosen) });
    return settingsOf({ settings: chosen });
  }

  tasks(userId: string) {
    return this.deps.users.tasksOf(userId);
  }

  async completeTask(userId: string, task: string) {
    if (!(await this.deps.users.completeTask(userId, task))) throw notFound('Task');
    return this.deps.users.tasksOf(userId);
  }

  async updateConsents(userId: string, update: ConsentsUpdate) {
    const now = new Date();
    const row =
      'cookies_consent_types' in update
        ? await this.deps.users.update(userId, {
            cookies_consent_types: JSON.stringify(update.cookies_consent_types),
          })
        : await this.deps.users.update(userId, {
            accepted_tos_at: now,
            accepted_privacy_policy_at: now,
            marketing_consent: update.marketing_consent,
            ...(update.commercial_use_of_pii_consent === undefined
              ? {}
              : { commercial_use_of_pii_consent: update.commercial_use_of_pii_consent }),
          });
    return { consents: presentConsents(row), user: presentUser(row, await this.deps.users.tasksOf(userId)) };
  }

  /**
   * Deletes the account and everything that belongs to it, audio and models included. The two opt-out choices are
   * kept in an anonymous receipt, with no link to the person.
   */
  async deleteAccount(
    userId: string,
    choices: { opt_out_audio_recognition: boolean; opt_out_audio_training: boolean },
  ) {
    await this.userRow(userId);
    await this.deps.sessions.revokeAllOf(userId);
    await this.deps.users.delete(userId);
    await this.deps.voiceProfile.deleteAllFilesOf(userId);
    await this.deps.feedback.recordAccountDeletion(
      choices.opt_out_audio_recognition,
      choices.opt_out_audio_training,
    );
  }

  private async userRow(userId: string): Promise<UserRow> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw notFound('User');
    return user;
  }
}

function presentProfile(row: ProfileRow): Profile {
  return {
    name: row.name,
    gender: row.gender as Profile['gender'],
    country: row.country,
    diagnosis: row.diagnosis as Profile['diagnosis'],
    speechLevel: row.speech_level as Profile['speechLevel'],
    nativeLanguage: row.native_language,
    phone: row.phone,
    region_code: row.region_code,
    role: row.role as Profile['role'],
    referral_source: row.referral_source,
  };
}

function presentConsents(row: UserRow): Consents {
  return {
    accepted_tos_at: row.accepted_tos_at?.toISOString() ?? null,
    accepted_privacy_policy_at: row.accepted_privacy_policy_at?.toISOString() ?? null,
    marketing_consent: row.marketing_consent,
    commercial_use_of_pii_consent: row.commercial_use_of_pii_consent,
    cookies_consent_types: (row.cookies_consent_types as CookieConsentType[] | null) ?? null,
  };
}

function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}
