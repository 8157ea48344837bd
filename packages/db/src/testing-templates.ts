import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDatabase } from '../seed/index';
import { openDatabase } from './client';
import { adminQuery, SEEDED_DATA_DIR, TEMPLATE_ENV } from './testing';

/**
 * Vitest's global setup: builds, once per run, the databases every test starts from (see
 * `openTestDatabase`). Migrating and seeding a database for each of some two hundred test files
 * was about a quarter of the suite's time; each file now copies the result instead.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'sf-templates-'));
  const url = process.env.TEST_DATABASE_URL;
  const templates: string[] = [];
  // The PGlite dumps and the PostgreSQL templates are built side by side: PGlite works in this
  // process, PostgreSQL in its own (decision 083).
  await Promise.all([pgliteTemplates(dir), url ? postgresTemplates(url, templates) : undefined]);
  // Read by the test processes, which Vitest starts after this with this process's environment.
  process.env[TEMPLATE_ENV.pgliteDir] = dir;

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (url) for (const name of templates) await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
}

async function pgliteTemplates(dir: string) {
  const pglite = await openDatabase({ dataDir: 'memory://' });
  try {
    await pglite.migrate();
    await dumpTo(pglite, join(dir, 'migrated.tar'));
    await seedDatabase(pglite.db);
    await dumpTo(pglite, join(dir, 'seeded.tar'));
  } finally {
    await pglite.close();
  }
  // The same seeded database as a data directory on disk, for the drills that start the real server
  // (seededDataDir in apps/api/src/test/processes.ts): a server on an empty directory spends 11 CPU
  // seconds on initdb, migrations and the seed before it answers, on a copy of this one 4.
  const disk = await openDatabase({
    dataDir: join(dir, SEEDED_DATA_DIR),
    pgliteLoadDataDir: new Blob([readFileSync(join(dir, 'seeded.tar'))]),
  });
  await disk.close();
}

/** Two template databases, migrated and seeded, each built on a connection of its own, side by side. */
async function postgresTemplates(url: string, templates: string[]) {
  const suffix = randomBytes(4).toString('hex');
  await Promise.all(
    [false, true].map(async (seeded) => {
      const name = `tmpl_${seeded ? 'seeded' : 'migrated'}_${suffix}`;
      await adminQuery(url, `CREATE DATABASE ${name}`);
      templates.push(name);
      const dbUrl = new URL(url);
      dbUrl.pathname = `/${name}`;
      // Closed before use: PostgreSQL copies a template only while nobody is connected to it.
      const db = await openDatabase({ databaseUrl: dbUrl.toString(), poolSize: 2 });
      try {
        await db.migrate();
        if (seeded) await seedDatabase(db.db);
      } finally {
        await db.close();
      }
      process.env[seeded ? TEMPLATE_ENV.pgSeeded : TEMPLATE_ENV.pgMigrated] = name;
    }),
  );
}

async function dumpTo(database: { dumpDataDir?(): Promise<Blob> }, file: string) {
  if (!database.dumpDataDir) throw new Error('only PGlite dumps its data directory');
  writeFileSync(file, Buffer.from(await (await database.dumpDataDir()).arrayBuffer()));
}
