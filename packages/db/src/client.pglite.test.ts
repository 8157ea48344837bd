import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { DataDirLockedError } from './lock';
import * as s from './schema/index';
import { seededDataDir } from './testing';

// The embedded database's own files, lock and settings: PGlite whichever project runs the suite, so
// in the pglite project only (decision 083). The migrations, on each database, are in client.test.ts.

// Each test's directory starts as a copy of the suite's seeded database: the first open of an empty
// one (initdb, 4 CPU seconds) is the server drill's (server.process.test.ts), not these tests'.
const dirs: string[] = [];
const tempDir = () => {
  const d = seededDataDir('sf-db-');
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('embedded PGlite on disk', () => {
  it('keeps data across a close and reopen (a restart)', async () => {
    const dataDir = tempDir();
    const first = await openDatabase({ dataDir });
    await first.migrate();
    await first.db.insert(s.tenants).values({ tenantId: 'kept', name: 'Kept Store' });
    await first.close();

    const second = await openDatabase({ dataDir });
    try {
      await second.migrate();
      const rows = await second.db.select().from(s.tenants).where(eq(s.tenants.tenantId, 'kept'));
      expect(rows.map((r) => r.name)).toEqual(['Kept Store']);
    } finally {
      await second.close();
    }
  });

  it('refuses a second open of the same directory with a message naming the holder', async () => {
    const dataDir = tempDir();
    const first = await openDatabase({ dataDir });
    try {
      const err = await openDatabase({ dataDir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DataDirLockedError);
      expect((err as Error).message).toContain(`already open in process ${process.pid}`);
      expect((err as Error).message).toContain('DATA_DIR');
    } finally {
      await first.close();
    }
    // Released on close: the directory opens again.
    const again = await openDatabase({ dataDir });
    await again.close();
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dataDir = tempDir();
    // A pid far above any real one: the holder crashed long ago.
    writeFileSync(join(dataDir, 'pg.lock'), '2147483646');
    const database = await openDatabase({ dataDir });
    await database.close();
  });
});

describe('PGlite shared buffers', () => {
  it('are the size asked for, and PostgreSQL default without', async () => {
    const dir = tempDir();
    const small = await openDatabase({ dataDir: dir, pgliteSharedBuffersMb: 24 });
    try {
      const r = await small.db.execute(sql`SHOW shared_buffers`);
      expect((r as unknown as { rows: { shared_buffers: string }[] }).rows[0]?.shared_buffers).toBe('24MB');
    } finally {
      await small.close();
    }
    const plain = await openDatabase({ dataDir: dir });
    try {
      const r = await plain.db.execute(sql`SHOW shared_buffers`);
      expect((r as unknown as { rows: { shared_buffers: string }[] }).rows[0]?.shared_buffers).toBe('128MB');
    } finally {
      await plain.close();
    }
  });
});
