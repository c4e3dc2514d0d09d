import { parseArgs } from 'node:util';
import { REALTIME_PROVIDERS } from '@parla/contract';
import { loadConfig } from '../config/env.js';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { seed } from '../db/seed.js';
import { RecordingsRepository } from '../repositories/recordings.repository.js';
import { SubscriptionsRepository } from '../repositories/subscriptions.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { SubscriptionService } from '../services/subscription.service.js';
import { describeOutcomes } from './recognition-outcomes.js';

const USAGE = `Administration of a Parla deployment (uses the same DATA_DIR / DATABASE_URL as the server).

  npm run admin -- subscription:lock EMAIL      lock the user's subscription
  npm run admin -- subscription:unlock EMAIL    unlock it
  npm run admin -- partner:list                 list the tech partners
  npm run admin -- partner:add --id ID --seller NAME --name NAME [--url URL] [--description TEXT] [--default]
  npm run admin -- user:test-flag EMAIL on|off  mark an account as a test user
  npm run admin -- user:providers EMAIL casr[,dictation]
                                                set the recognition providers the account may use
  npm run admin -- recognition:outcomes [--days N]
                                                what became of recognised utterances (default: 30 days)`;

/** Runs one administration command; returns what to print. */
export async function runAdminCommand(argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      id: { type: 'string' },
      seller: { type: 'string' },
      name: { type: 'string' },
      url: { type: 'string' },
      description: { type: 'string' },
      default: { type: 'boolean', default: false },
      days: { type: 'string', default: '30' },
    },
  });
  const [command, ...args] = positionals;
  if (!command) return USAGE;

  const config = loadConfig();
  const { db } = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(db);
    await seed(db);
    const users = new UsersRepository(db);
    const subscriptions = new SubscriptionService(new SubscriptionsRepository(db), users);
    switch (command) {
      case 'subscription:lock':
      case 'subscription:unlock': {
        const email = required(args[0], 'EMAIL');
        await subscriptions.setLockedByEmail(email, command === 'subscription:lock');
        return `Subscription of ${email} is now ${command === 'subscription:lock' ? 'locked' : 'unlocked'}.`;
      }
      case 'partner:list': {
        const partners = await new SubscriptionsRepository(db).listPartners();
        return partners
          .map((p) => `${p.id}\t${p.seller}\t${p.name}${p.is_default ? '\t(default)' : ''}`)
          .join('\n');
      }
      case 'partner:add': {
        await subscriptions.upsertPartner({
          id: required(values.id, '--id'),
          seller: required(values.seller, '--seller'),
          name: required(values.name, '--name'),
          url: values.url ?? null,
          description: values.description ?? null,
          is_default: values.default,
        });
        return `Tech partner ${values.id ?? ''} saved.`;
      }
      case 'user:test-flag': {
        const email = required(args[0], 'EMAIL');
        const state = required(args[1], 'on|off');
        if (state !== 'on' && state !== 'off') throw new Error('Say on or off');
        const user = await users.findByEmail(email);
        if (!user) throw new Error(`No account with the email ${email}`);
        await users.update(user.id, { is_test_user: state === 'on' });
        return `${email} is ${state === 'on' ? 'now' : 'no longer'} a test user.`;
      }
      case 'user:providers': {
        const email = required(args[0], 'EMAIL');
        const providers = [
          ...new Set(
            required(args[1], 'PROVIDERS')
              .split(',')
              .map((p) => p.trim()),
          ),
        ];
        const unknown = providers.filter((provider) => !(provider in REALTIME_PROVIDERS));
        if (unknown.length > 0 || providers.length === 0) {
          throw new Error(
            `Unknown provider ${unknown.join(', ')}: choose from ${Object.keys(REALTIME_PROVIDERS).join(', ')}`,
          );
        }
        const user = await users.findByEmail(email);
        if (!user) throw new Error(`No account with the email ${email}`);
        await users.update(user.id, { providers_enabled: JSON.stringify(providers) });
        return `${email} may now use: ${providers.join(', ')}.`;
      }
      case 'recognition:outcomes': {
        const days = Number(values.days);
        if (!Number.isInteger(days) || days < 1) throw new Error('--days: a whole number of days, 1 or more');
        const since = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
        return describeOutcomes(await new RecordingsRepository(db).recognitionOutcomes(since), days);
      }
      default:
        throw new Error(`Unknown command ${command}\n\n${USAGE}`);
    }
  } finally {
    await db.destroy();
  }
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`Missing ${name}\n\n${USAGE}`);
  return value;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  runAdminCommand(process.argv.slice(2)).then(
    (output) => console.log(output),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
