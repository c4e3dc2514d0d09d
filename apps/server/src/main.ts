import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config/env.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { seed } from './db/seed.js';

async function main() {
  const config = loadConfig();
  const { db, engine } = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrateToLatest(db);
  if (config.seed) await seed(db);

  const { app } = await buildApp({ config, db });
  app.log.info({ engine, migrations: applied }, 'database ready');

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else app.log.info({ signal }, 'closing');
    await app.close();
    await db.destroy();
  });

  await app.listen({ host: config.host, port: config.port });
  app.log.info(`${config.productName} is running at ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('The server could not start:', error);
  }
  process.exit(1);
});
