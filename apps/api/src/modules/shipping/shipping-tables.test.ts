import { type Database, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TenantContext } from '../../lib/context';
import { openTestDatabase } from '../../test/harness';
import { createShippingTables } from './shipping-tables';

const sm = schema.shippingMethods;
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase({ seeded: true });
});
afterAll(() => database?.close());

const ctx = { tenantId: 'lighting' } as TenantContext;
const methods = async (tables: ReturnType<typeof createShippingTables>) =>
  (await tables.zones(ctx)).flatMap((z) => z.methods);
const rate = async (tables: ReturnType<typeof createShippingTables>, methodId: string) =>
  (await methods(tables)).find((m) => m.methodId === methodId)?.flatRate;

describe("a store's shipping zones kept in memory", () => {
  it('are read once, follow a settings change when told, and never keep a read the change overtook', async () => {
    const db = database.db;
    const [method] = await db.select().from(sm).where(eq(sm.tenantId, 'lighting')).limit(1);
    if (!method) throw new Error('the seed has no shipping method');
    const id = method.methodId;
    const setRate = (flatRate: number) =>
      db
        .update(sm)
        .set({ flatRate })
        .where(and(eq(sm.tenantId, 'lighting'), eq(sm.methodId, id)));
    const tables = createShippingTables(db);
    expect(await rate(tables, id)).toBe(method.flatRate);

    // Kept: a write without the settings event is not seen (until the TTL).
    await setRate(method.flatRate + 100);
    expect(await rate(tables, id)).toBe(method.flatRate);
    tables.forget('lighting');
    expect(await rate(tables, id)).toBe(method.flatRate + 100);

    // A read in flight when the store's settings change is answered, but not kept.
    tables.forget('lighting');
    const inFlight = tables.zones(ctx);
    tables.forget('lighting');
    await setRate(method.flatRate + 200);
    await inFlight;
    expect(await rate(tables, id)).toBe(method.flatRate + 200);

    // Every store at once (events were missed).
    await setRate(method.flatRate);
    tables.clear();
    expect(await rate(tables, id)).toBe(method.flatRate);
  });

  it('go stale at most for their TTL when the database is changed behind their back', async () => {
    let now = 1_000;
    const tables = createShippingTables(database.db, { ttlMs: 60_000, now: () => now });
    const [method] = await methods(tables);
    if (!method) throw new Error('no method');
    await database.db
      .update(sm)
      .set({ name: 'Renamed behind the app' })
      .where(and(eq(sm.tenantId, 'lighting'), eq(sm.methodId, method.methodId)));
    expect((await methods(tables))[0]?.name).toBe(method.name);
    now += 60_001;
    expect((await methods(tables)).find((m) => m.methodId === method.methodId)?.name).toBe('Renamed behind the app');
  });
});
