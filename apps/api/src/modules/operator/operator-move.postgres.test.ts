import type { Database } from '@app/db';
import { openTestDatabase } from '@app/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { signInOperator } from './operator-session.fixture';

// The operator's side of a move on a deployment with two databases (decision 123): the move is
// recorded with the operator's reason. The copy itself is store-move.postgres.test.ts's.

let t: TestApp;
let shard: Database;
let operator: Awaited<ReturnType<typeof signInOperator>>;

beforeAll(async () => {
  // The second database: migrated, holding no store.
  shard = await openTestDatabase();
  t = await createTestApp({ storeDatabases: { shard2: shard }, storeMove: { sourceGraceMs: 0 } });
  operator = await signInOperator(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await shard?.close();
});

describe("the operator's move", () => {
  it("records the operator's reason, trimmed, with the move in the platform audit log", async () => {
    const started = await operator.request('POST', '/platform-api/stores/power/move', {
      database: 'shard2',
      reason: '  Main is busy; power sells the most.  ',
    });
    expect(started.statusCode, started.body).toBe(200);
    const { jobId } = started.json().data;
    await t.services.jobs.drain({ timeoutMs: 60_000, dueWithinMs: 0 });
    const log = (await operator.request('GET', '/platform-api/audit?tenantId=power&action=store.move')).json().data;
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({
      action: 'store.move',
      tenantId: 'power',
      reason: 'Main is busy; power sells the most.',
      details: { jobId, database: 'shard2' },
    });
  }, 90_000);
});
