import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Json<T> = ColumnType<T, string, string>;

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  name: string;
  app_language: string;
  secondary_name: string | null;
  secondary_email: string | null;
  secondary_phone: string | null;
  birthdate: string;
  country: string;
  region_code: string | null;
  parent_email: string | null;
  primary_contact_type: string;
  source_tracking: Json<Record<string, string> | null> | null;
  opt_out_audio_recognition: boolean;
  opt_out_audio_training: boolean;
  accepted_tos_at: Timestamp | null;
  accepted_privacy_policy_at: Timestamp | null;
  marketing_consent: boolean | null;
  commercial_use_of_pii_consent: boolean | null;
  support_person_consent: boolean;
  guardian_consent: Json<Record<string, unknown> | null> | null;
  cookies_consent_types: Json<string[] | null> | null;
  is_test_user: Generated<boolean>;
  providers_enabled: Json<string[]>;
  settings: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ProfilesTable {
  user_id: string;
  name: string;
  gender: string | null;
  country: string | null;
  diagnosis: string | null;
  speech_level: string | null;
  native_language: string | null;
  phone: string | null;
  region_code: string | null;
  role: string | null;
  referral_source: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface UserTasksTable {
  user_id: string;
  task: string;
  created_at: CreatedAt;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  code_hash: string;
  expires_at: Timestamp;
  attempts: Generated<number>;
  update_token_hash: string | null;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface AuthEventsTable {
  id: Generated<number>;
  user_id: string;
  event: string;
  created_at: CreatedAt;
}

export interface TechPartnersTable {
  id: string;
  seller: string;
  name: string;
  url: string | null;
  description: string | null;
  is_default: boolean;
}

export interface SubscriptionsTable {
  user_id: string;
  tech_partner_id: string;
  plan: string;
  is_locked: boolean;
  updated_at: Timestamp;
}

export interface SupportRequestsTable {
  id: string;
  user_id: string;
  type: string;
  text: string;
  metadata: Json<Record<string, unknown> | null> | null;
  created_at: CreatedAt;
}

export interface ClientLogsTable {
  id: Generated<number>;
  user_id: string | null;
  app_name: string;
  level: string;
  message: string;
  status: number | null;
  context: Json<Record<string, unknown> | null> | null;
  logged_at: Timestamp;
  received_at: CreatedAt;
}

export interface AccountDeletionsTable {
  id: Generated<number>;
  opt_out_audio_recognition: boolean;
  opt_out_audio_training: boolean;
  deleted_at: CreatedAt;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: CreatedAt;
}

export interface ScenariosTable {
  id: string;
  name: string;
  description: string;
  position: number;
}

export interface DatasetPhrasesTable {
  id: string;
  scenario_id: string;
  text: string;
  language: string;
  position: number;
  is_core: boolean;
}

export interface UserScenariosTable {
  user_id: string;
  scenario_id: string;
  activated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface PhrasesTable {
  id: string;
  user_id: string;
  text: string;
  language: string;
  scenario_id: string;
  source: 'static' | 'dataset' | 'edited' | 'custom';
  dataset_phrase_id: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ShortcutPhrasesTable {
  id: string;
  user_id: string;
  input: string;
  output: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface RecordingsTable {
  id: string;
  user_id: string;
  phrase_id: string | null;
  kind: 'training' | 'recognition';
  storage_key: string;
  duration_ms: number;
  metadata: Json<Record<string, unknown> | null> | null;
  /** The client's key for the upload, or the server's for an answer's take: kept once per user. */
  upload_key: string | null;
  created_at: CreatedAt;
}

export interface ModelsTable {
  id: string;
  user_id: string;
  version: number;
  type: string;
  provider: string;
  storage_key: string;
  size_bytes: number;
  meta: Json<Record<string, unknown>>;
  created_at: CreatedAt;
}

export interface JobsTable {
  id: string;
  kind: string;
  user_id: string | null;
  payload: Json<Record<string, unknown>>;
  status: Generated<'queued' | 'running' | 'done' | 'failed'>;
  attempts: Generated<number>;
  run_after: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_at: Timestamp | null;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface DictationNotesTable {
  id: string;
  user_id: string;
  text: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface Database {
  dictation_notes: DictationNotesTable;
  scenarios: ScenariosTable;
  dataset_phrases: DatasetPhrasesTable;
  user_scenarios: UserScenariosTable;
  phrases: PhrasesTable;
  shortcut_phrases: ShortcutPhrasesTable;
  recordings: RecordingsTable;
  models: ModelsTable;
  jobs: JobsTable;
  server_secrets: ServerSecretsTable;
  users: UsersTable;
  profiles: ProfilesTable;
  user_tasks: UserTasksTable;
  refresh_tokens: RefreshTokensTable;
  password_resets: PasswordResetsTable;
  auth_events: AuthEventsTable;
  tech_partners: TechPartnersTable;
  subscriptions: SubscriptionsTable;
  support_requests: SupportRequestsTable;
  client_logs: ClientLogsTable;
  account_deletions: AccountDeletionsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ProfileRow = Selectable<ProfilesTable>;
export type TechPartnerRow = Selectable<TechPartnersTable>;
export type PhraseRow = Selectable<PhrasesTable>;
export type ShortcutPhraseRow = Selectable<ShortcutPhrasesTable>;
