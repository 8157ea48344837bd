import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { signInOperator } from './operator-session.fixture';

// The operator's side of a store's archive (decision 122): the export of a store that is closing,
// the import into an empty store, and the purge that erases a store closed past its retention.

let t: TestApp;
let operator: Awaited<ReturnType<typeof signInOperator>>;
const asOperator: typeof operator.request = (...args) => operator.request(...args);
const act = (tenantId: string, action: string) => operator.act(tenantId, action, 'The merchant asked.');

const rowsOf = async <T>(q: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  t = await createTestApp();
  operator = await signInOperator(t);
});
afterAll(() => t?.close());

describe("the operator's store archive", () => {
  it('exports a closed store only, imports it into a new empty store, and purges the old one everywhere', async () => {
    // An open store's data leaves with its owner, not the platform.
    const open = await asOperator('POST', '/platform-api/stores/garden/archive/exports');
    expect(open.statusCode).toBe(409);

    expect((await act('garden', 'close')).statusCode).toBe(200);
    const started = await asOperator('POST', '/platform-api/stores/garden/archive/exports');
    expect(started.statusCode).toBe(200);
    await t.services.jobs.drain({ dueWithinMs: 0 });
    const latest = (await asOperator('GET', '/platform-api/stores/garden/archive/exports/latest')).json().data;
    expect(latest).toMatchObject({ status: 'succeeded' });
    expect(latest.downloadUrl).toBe(`/platform-api/stores/garden/archive/exports/${latest.jobId}/download`);
    const download = await asOperator('GET', latest.downloadUrl);
    expect(download.statusCode).toBe(200);
    const archive = download.rawPayload;

    // The merchant's new store, opened empty, takes the archive; a second import finds it full.
    const opened = await t.services.provisionStore({
      storeName: 'Fernwood Again',
      subdomain: 'fernwood-again',
      owner: { email: 'owner@garden.test', passwordHash: null },
      template: 'DEFAULT',
      starter: 'empty',
      actor: { kind: 'system', name: 'test' },
      reason: 'test',
      idempotencyKey: 'operator-archive-test',
    });
    if (!opened.ok) throw new Error(opened.message);
    const id = opened.value.tenantId;
    const imported = await asOperator('POST', `/platform-api/stores/${id}/archive/import`, archive, 'application/gzip');
    expect(imported.statusCode).toBe(200);
    expect(imported.json().data).toMatchObject({ storeId: id, fromStoreId: 'garden' });
    const [orders] = await rowsOf<{ n: number }>(sql`SELECT count(*)::int AS n FROM orders WHERE tenant_id = ${id}`);
    expect(orders?.n).toBe(8);
    const again = await asOperator('POST', `/platform-api/stores/${id}/archive/import`, archive, 'application/gzip');
    expect(again.statusCode).toBe(409);
    // The moved owner signs in only after choosing a password: none travelled.
    const login = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/login',
      headers: { host: opened.value.host },
      payload: { email: 'owner@garden.test', password: 'owner-demo-1' },
    });
    expect(login.statusCode).toBe(401);

    // Purge waits for the retention; past it, the old store is erased everywhere.
    expect((await act('garden', 'purge')).statusCode).toBe(409);
    await t.database.db.execute(
      sql`UPDATE store_lifecycle SET updated_at = now() - interval '31 days' WHERE tenant_id = 'garden'`,
    );
    t.services.storeLifecycle.invalidate('garden');
    const purged = await act('garden', 'purge');
    expect(purged.statusCode).toBe(200);
    expect(purged.json().data.lifecycle.state).toBe('purged');
    const left = await rowsOf<{ name: string }>(
      sql`SELECT c.relname AS name FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
          WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attname = 'tenant_id'`,
    );
    for (const { name } of left) {
      const [r] = await rowsOf<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM ${sql.raw(`"${name}"`)} WHERE tenant_id = 'garden'`,
      );
      // The platform's own audit log keeps its record of what the operators did.
      if (name !== 'platform_audit_log') expect(r?.n, name).toBe(0);
    }
    const [record] = await rowsOf<{ action: string }>(
      sql`SELECT action FROM platform_audit_log WHERE tenant_id = 'garden' ORDER BY id DESC LIMIT 1`,
    );
    expect(record?.action).toBe('store.purge');
    // The moved store is untouched by the old one's purge.
    const [still] = await rowsOf<{ n: number }>(sql`SELECT count(*)::int AS n FROM orders WHERE tenant_id = ${id}`);
    expect(still?.n).toBe(8);
  });

  it('finishes a purge that stopped after the state moved: asked again, the rows go', async () => {
    // The state reached purged, but the erasing that follows it never ran (the process stopped between).
    const operatorActor = { kind: 'operator' as const, operatorId: 'op-1', email: 'operator@platform.localhost' };
    for (const to of ['closed', 'purged'] as const) {
      const moved = await t.services.storeLifecycle.transition(operatorActor, 'power', to, 'Half-done purge.');
      expect(moved.ok).toBe(true);
    }
    const orders = sql`SELECT count(*)::int AS n FROM orders WHERE tenant_id = 'power'`;
    expect((await rowsOf<{ n: number }>(orders))[0]?.n).toBeGreaterThan(0);
    const again = await act('power', 'purge');
    expect(again.statusCode, again.body).toBe(200);
    expect((await rowsOf<{ n: number }>(orders))[0]?.n).toBe(0);
  });
});
