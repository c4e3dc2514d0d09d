import { sql, type Kysely } from 'kysely';

/** Accounts, sessions, profiles, consents, subscriptions, support and client logs. */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table users (
      id text primary key,
      email text not null,
      password_hash text not null,
      name text not null,
      app_language text not null,
      secondary_name text,
      secondary_email text,
      secondary_phone text,
      birthdate text not null check (birthdate ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      country text not null,
      region_code text,
      parent_email text,
      primary_contact_type text not null,
      source_tracking jsonb,
      opt_out_audio_recognition boolean not null default false,
      opt_out_audio_training boolean not null default false,
      accepted_tos_at timestamptz,
      accepted_privacy_policy_at timestamptz,
      marketing_consent boolean,
      commercial_use_of_pii_consent boolean,
      support_person_consent boolean not null default false,
      guardian_consent jsonb,
      cookies_consent_types jsonb,
      is_test_user boolean not null default false,
      providers_enabled jsonb not null default '[]',
      settings jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_key on users (lower(email));

    create table profiles (
      user_id text primary key references users (id) on delete cascade,
      name text not null,
      gender text,
      country text,
      diagnosis text,
      speech_level text,
      native_language text,
      phone text,
      region_code text,
      role text,
      referral_source text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table user_tasks (
      user_id text not null references users (id) on delete cascade,
      task text not null,
      created_at timestamptz not null default now(),
      primary key (user_id, task)
    );

    create table refresh_tokens (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      family_id text not null,
      token_hash text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index refresh_tokens_family on refresh_tokens (family_id);

    create table password_resets (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      code_hash text not null,
      expires_at timestamptz not null,
      attempts integer not null default 0,
      update_token_hash text unique,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index password_resets_user on password_resets (user_id);

    create table auth_events (
      id integer generated always as identity primary key,
      user_id text not null references users (id) on delete cascade,
      event text not null,
      created_at timestamptz not null default now()
    );

    create table tech_partners (
      id text primary key,
      seller text not null,
      name text not null,
      url text,
      description text,
      is_default boolean not null default false
    );

    create table subscriptions (
      user_id text primary key references users (id) on delete cascade,
      tech_partner_id text not null references tech_partners (id),
      plan text not null,
      is_locked boolean not null default false,
      updated_at timestamptz not null default now()
    );

    create table support_requests (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      type text not null,
      text text not null,
      metadata jsonb,
      created_at timestamptz not null default now()
    );

    create table client_logs (
      id integer generated always as identity primary key,
      user_id text references users (id) on delete cascade,
      app_name text not null,
      level text not null,
      message text not null,
      status integer,
      context jsonb,
      logged_at timestamptz not null,
      received_at timestamptz not null default now()
    );
    create index client_logs_received on client_logs (received_at);

    -- Secrets shared by every server process, created once by the first to start.
    create table server_secrets (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    );

    -- An anonymous receipt: which choices a deleted account made, never who it was.
    create table account_deletions (
      id integer generated always as identity primary key,
      opt_out_audio_recognition boolean not null,
      opt_out_audio_training boolean not null,
      deleted_at timestamptz not null default now()
    );
  `.execute(db);
}
