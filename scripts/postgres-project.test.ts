import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ON_POSTGRES, PGLITE_ENOUGH } from '../vitest.config';

// Decision 083: the postgres project runs the files whose answers can differ on a real PostgreSQL.
// Which ones is a list (vitest.config.ts); this keeps the list honest as files come and go.

const root = fileURLToPath(new URL('..', import.meta.url));

function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    if (name === 'node_modules' || name === 'build' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) found.push(...testFiles(path));
    else if (name.endsWith('.test.ts')) found.push(relative('.', path));
  }
  return found;
}
const files = ['apps/api/src', 'apps/web/app', 'packages', 'scripts'].flatMap(testFiles).sort();

const listed = Object.values(ON_POSTGRES).flat();
const onPostgres = (file: string) =>
  file.endsWith('.postgres.test.ts') || listed.some((e) => (e.endsWith('/') ? file.startsWith(e) : file === e));
/** Named for one database: the file name says where it runs. */
const named = (file: string) => /\.(pglite|process|postgres)\.test\.ts$/.test(file);

/** What a test does that PostgreSQL may answer differently from PGlite, as read in its source. */
const SIGNS: [string, (source: string) => boolean][] = [
  ['raw SQL (sql`…` or .execute)', (s) => /\bsql`|\.execute\(/.test(s)],
  ['a transaction', (s) => /\.transaction\(/.test(s)],
  ['a second connection to the database', (s) => /openSecondHandle|testDatabaseUrl|openRawClient/.test(s)],
  ['a lock or LISTEN/NOTIFY', (s) => /FOR UPDATE|SKIP LOCKED|pg_advisory|\bLISTEN\b|\bNOTIFY\b/.test(s)],
  [
    'requests sent at once (Promise.all in a file that calls the app)',
    (s) => /Promise\.all(Settled)?\(/.test(s) && /\b(inject|createTestApp)\(/.test(s),
  ],
];
const signsOf = (file: string) => {
  const source = readFileSync(join(root, file), 'utf8');
  return SIGNS.filter(([, shows]) => shows(source)).map(([what]) => what);
};
/** This file, whose source names the signs it looks for. */
const SELF = 'scripts/postgres-project.test.ts';

describe('the files that run on PostgreSQL (vitest.config.ts)', () => {
  it('finds the suite', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(SELF);
  });

  it('lists only files and folders that exist, each once', () => {
    const stale = listed.filter((e) => !files.some((f) => (e.endsWith('/') ? f.startsWith(e) : f === e)));
    expect(stale, 'moved or removed: update ON_POSTGRES in vitest.config.ts').toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
    const staleExempt = Object.keys(PGLITE_ENOUGH).filter((f) => !files.includes(f));
    expect(staleExempt, 'moved or removed: update PGLITE_ENOUGH in vitest.config.ts').toEqual([]);
  });

  it('exempts from PostgreSQL only files that would otherwise have to run there', () => {
    const needless = Object.keys(PGLITE_ENOUGH).filter((f) => onPostgres(f) || named(f) || signsOf(f).length === 0);
    expect(needless, 'on PostgreSQL already, named for one database, or showing none of the signs').toEqual([]);
  });

  it('runs on PostgreSQL every file that writes raw SQL, opens a transaction or a second connection, locks, or sends requests at once', () => {
    const missing = files
      .filter((f) => !onPostgres(f) && !named(f) && !(f in PGLITE_ENOUGH) && f !== SELF)
      .flatMap((f) => {
        const signs = signsOf(f);
        return signs.length ? [`${f}: ${signs.join(', ')}`] : [];
      });
    expect(
      missing,
      'add these to ON_POSTGRES in vitest.config.ts, or to PGLITE_ENOUGH saying why PostgreSQL could not answer otherwise',
    ).toEqual([]);
  });
});
