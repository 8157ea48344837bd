/**
 * `npm run db:migrate` and `npm run db:seed [-- --force]`: the same database the server would open
 * (DATABASE_URL, else PGlite in DATA_DIR).
 */
import { DataDirLockedError, openDatabase } from './index';

const [command, ...flags] = process.argv.slice(2);
if (command !== 'migrate' && command !== 'seed') {
  console.error('usage: cli.ts migrate | seed [--force]');
  process.exit(64);
}
const databaseUrl = process.env.DATABASE_URL || undefined;
if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
  console.error('DATABASE_URL: must be a postgres:// or postgresql:// URL');
  process.exit(78);
}

try {
  const database = await openDatabase({ databaseUrl, dataDir: process.env.DATA_DIR || './data' });
  try {
    await database.migrate();
    console.log(`migrations applied (${database.kind})`);
    if (command === 'seed') {
      const { describeSeed, seedDatabase } = await import('../seed/index');
      const force = flags.includes('--force');
      const { seeded, report } = await seedDatabase(database.db, { force });
      console.log(
        seeded && report
          ? describeSeed(report)
          : 'database already has stores: nothing seeded (use --force to replace them)',
      );
    }
  } finally {
    await database.close();
  }
} catch (err) {
  if (err instanceof DataDirLockedError) {
    console.error(err.message);
    process.exit(75);
  }
  throw err;
}
