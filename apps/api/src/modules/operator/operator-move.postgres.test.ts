import type { Database } from '@app/db';
import { openTestDatabase } from '@app/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { signInOperator } from './operator-session.fixture';

// The operator's side of a move on a deployment with two databases (decision 123): the move is
// recorded with the operator's reason, and the databases list counts the stores on each. The copy
// itself is store-move.postgres.test.ts's.

let t: TestApp;
let shard: Database;
let operator: Awaited<ReturnType<typeof signInOperator>>;
let storeCount = 0;

const databases = async () => {
  const res = await operator.request('GET', '/platform-api/databases');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.databases;
};

beforeAll(async () => {
  // The second database: migrated, holding no store.
  shard = await openTestDatabase();
  t = await createTestApp({ storeDatabases: { shard2: shard }, storeMove: { sourceGraceMs: 0 } });
  operator = await signInOperator(t);
  const counted = (await t.database.db.execute(sql`SELECT count(*)::int AS n FROM tenants`)) as unknown as {
    rows: Array<{ n: number }>;
  };
  storeCount = counted.rows[0]?.n ?? 0;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await shard?.close();
});

describe("the operator's move", () => {
  it('lists both databases, every store on the home one before any move', async () => {
    expect(storeCount).toBeGreaterThanOrEqual(3);
    expect(await databases()).toEqual([
      { name: 'main', home: true, configured: true, stores: storeCount },
      { name: 'shard2', home: false, configured: true, stores: 0 },
    ]);
  });

  it("records the operator's reason, trimmed, with the move in the platform audit log", async () => {
    const started = await operator.request('POST', '/platform-api/stores/power/move', {
      database: 'shard2',
      reason: '  Main is busy; power sells the most.  ',
    });
    expect(started.statusCode, started.body).toBe(200);
    const { jobId } = started.json().data;
    // Posted again before it ran (a double click): the same move, and no second entry.
    const again = await operator.request('POST', '/platform-api/stores/power/move', {
      database: 'shard2',
      reason: 'Clicked twice.',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.jobId).toBe(jobId);
    await t.services.jobs.drain({ timeoutMs: 60_000, dueWithinMs: 0 });
    const log = (await operator.request('GET', '/platform-api/audit?tenantId=power&action=store.move')).json().data;
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({
      action: 'store.move',
      tenantId: 'power',
      reason: 'Main is busy; power sells the most.',
      details: { jobId, database: 'shard2' },
    });
    // The store now counts on its new database.
    expect(await databases()).toEqual([
      { name: 'main', home: true, configured: true, stores: storeCount - 1 },
      { name: 'shard2', home: false, configured: true, stores: 1 },
    ]);
  }, 90_000);

  it('shows a database stores are placed on that the deployment no longer lists', async () => {
    await t.database.db.execute(sql`INSERT INTO store_placements (tenant_id, database) VALUES ('garden', 'old3')`);
    try {
      expect(await databases()).toEqual([
        { name: 'main', home: true, configured: true, stores: storeCount - 2 },
        { name: 'shard2', home: false, configured: true, stores: 1 },
        { name: 'old3', home: false, configured: false, stores: 1 },
      ]);
    } finally {
      await t.database.db.execute(sql`DELETE FROM store_placements WHERE tenant_id = 'garden'`);
    }
  });
});
