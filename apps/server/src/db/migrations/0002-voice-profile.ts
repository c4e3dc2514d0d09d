import { sql, type Kysely } from 'kysely';

/** Scenarios and their phrase catalogue, the user's phrases and shortcuts, recordings, models and jobs. */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table scenarios (
      id text primary key,
      name text not null,
      description text not null,
      position integer not null
    );

    -- The catalogue a user picks dataset phrases from; ids are stable slugs.
    create table dataset_phrases (
      id text primary key,
      scenario_id text not null references scenarios (id) on delete cascade,
      text text not null,
      language text not null,
      position integer not null,
      is_core boolean not null default false
    );
    create index dataset_phrases_scenario on dataset_phrases (scenario_id, position);

    create table user_scenarios (
      user_id text not null references users (id) on delete cascade,
      scenario_id text not null references scenarios (id) on delete cascade,
      activated_at timestamptz not null default now(),
      primary key (user_id, scenario_id)
    );

    create table phrases (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      text text not null,
      language text not null,
      scenario_id text not null references scenarios (id),
      source text not null check (source in ('static', 'dataset', 'edited', 'custom')),
      dataset_phrase_id text references dataset_phrases (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index phrases_user on phrases (user_id, scenario_id);
    create unique index phrases_user_text on phrases (user_id, lower(text));

    create table shortcut_phrases (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      input text not null,
      output text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index shortcut_phrases_input on shortcut_phrases (user_id, lower(input));

    create table recordings (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      phrase_id text references phrases (id) on delete cascade,
      kind text not null check (kind in ('training', 'recognition')),
      storage_key text not null,
      duration_ms integer not null,
      metadata jsonb,
      created_at timestamptz not null default now()
    );
    create index recordings_user on recordings (user_id, kind);
    create index recordings_phrase on recordings (phrase_id);

    create table models (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      version integer not null,
      type text not null,
      provider text not null,
      storage_key text not null,
      size_bytes integer not null,
      meta jsonb not null,
      created_at timestamptz not null default now(),
      unique (user_id, type, version)
    );

    -- The job queue of the embedded deployment: claimed with "for update skip locked".
    create table jobs (
      id text primary key,
      kind text not null,
      user_id text references users (id) on delete cascade,
      payload jsonb not null default '{}',
      status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
      attempts integer not null default 0,
      run_after timestamptz not null default now(),
      locked_at timestamptz,
      last_error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index jobs_ready on jobs (status, run_after);
    -- At most one queued job of a kind per user: a new take joins the retrain already waiting.
    create unique index jobs_one_queued on jobs (kind, user_id) nulls not distinct where status = 'queued';
  `.execute(db);
}
