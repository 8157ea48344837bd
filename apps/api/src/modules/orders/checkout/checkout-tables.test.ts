import { type Database, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TenantContext } from '../../../lib/context';
import { openTestDatabase } from '../../../test/harness';
import { createCheckoutTables } from './checkout-tables';

const tr = schema.taxRates;
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase({ seeded: true });
});
afterAll(() => database?.close());

const ctx = { tenantId: 'lighting' } as TenantContext;
const rate = async (tables: ReturnType<typeof createCheckoutTables>, regionGeoId: string) =>
  (await tables.taxRates(ctx, 'USA')).find((r) => r.regionGeoId === regionGeoId)?.rateBasisPoints;

describe("a store's tax rates kept in memory", () => {
  it('are read once, follow a settings change when told, and never keep a read the change overtook', async () => {
    const db = database.db;
    const [method] = await db
      .select({ id: tr.regionGeoId, flatRate: tr.rateBasisPoints })
      .from(tr)
      .where(and(eq(tr.tenantId, 'lighting'), eq(tr.regionGeoId, 'US_CA')));
    if (!method) throw new Error('the seed has no CA tax rate');
    const id = method.id;
    const setRate = (rateBasisPoints: number) =>
      db
        .update(tr)
        .set({ rateBasisPoints })
        .where(and(eq(tr.tenantId, 'lighting'), eq(tr.regionGeoId, id)));
    const tables = createCheckoutTables(db);
    expect(await rate(tables, id)).toBe(method.flatRate);

    // Kept: a write without the settings event is not seen (until the TTL).
    await setRate(method.flatRate + 100);
    expect(await rate(tables, id)).toBe(method.flatRate);
    tables.forget('lighting');
    expect(await rate(tables, id)).toBe(method.flatRate + 100);

    // A read in flight when the store's settings change is answered, but not kept.
    tables.forget('lighting');
    const inFlight = tables.taxRates(ctx, 'USA');
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
    const tables = createCheckoutTables(database.db, { ttlMs: 60_000, now: () => now });
    const label = async () => (await tables.taxRates(ctx, 'USA')).find((r) => r.regionGeoId === 'US_NY')?.label;
    const before = await label();
    await database.db
      .update(tr)
      .set({ label: 'Renamed behind the app' })
      .where(and(eq(tr.tenantId, 'lighting'), eq(tr.regionGeoId, 'US_NY')));
    expect(await label()).toBe(before);
    now += 60_001;
    expect(await label()).toBe('Renamed behind the app');
  });
});
