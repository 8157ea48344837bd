import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrationsFolder } from './client';
import { openTestDatabase } from './testing';

// Migration 0045 (decision 115) on a database at 0044 whose stores have the shipping methods of
// before zones: a seeded-like store (weight table to North America, flat Express, International to
// a list), and a store with a method for everywhere (countries null) beside one for two countries.
// Each list of countries becomes a zone, null the rest of the world, and the weight tables bands.

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
let database: Database;
let cut: string;

const AT_0044 = [
  `INSERT INTO tenants (tenant_id, name) VALUES ('sa', 'Store A'), ('sb', 'Store B')`,
  `INSERT INTO shipping_methods (tenant_id, method_id, name, description, kind, countries, flat_rate, weight_table,
      free_above, sequence_num) VALUES
    ('sa', 'STANDARD', 'Standard', '3 to 5 business days', 'weight', '{USA,CAN}', 0,
      '[{"upToGrams": 10000, "rate": 1295}, {"upToGrams": 2000, "rate": 695}]'::jsonb, 9900, 0),
    ('sa', 'EXPRESS', 'Express', '1 to 2 business days', 'flat', '{USA,CAN}', 2495, NULL, NULL, 1),
    ('sa', 'INTERNATIONAL', 'International', '7 to 14 days', 'flat', '{GBR,IRL}', 3995, NULL, NULL, 2),
    ('sb', 'ANY', 'Anywhere', '', 'flat', NULL, 1500, NULL, 20000, 0),
    ('sb', 'NEAR', 'Near', '', 'weight', '{DEU,FRA}', 0, NULL, NULL, 1)`,
];

beforeAll(async () => {
  cut = mkdtempSync(join(tmpdir(), 'migrations-0044-'));
  cpSync(migrationsFolder, cut, { recursive: true });
  const journalPath = join(cut, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= 44);
  writeFileSync(journalPath, JSON.stringify(journal));
  rmSync(join(cut, '0045_shipping_zones.sql'));
  database = await openTestDatabase({ empty: true });
  await database.migrate({ migrationsFolder: cut });
  for (const statement of AT_0044) await database.db.execute(sql.raw(statement));
  await database.migrate();
}, 120_000);

afterAll(async () => {
  await database?.close();
  if (cut) rmSync(cut, { recursive: true, force: true });
});

describe('migration 0045: shipping methods become zones', () => {
  it('makes one zone per store and list of countries, and the rest of the world of a method for everywhere', async () => {
    const zones = rowsOf(
      await database.db.execute(
        sql`SELECT tenant_id, zone_id, name, countries, states, sequence_num FROM shipping_zones ORDER BY 1, 6`,
      ),
    );
    expect(zones).toEqual([
      { tenant_id: 'sa', zone_id: 'ZONE_1', name: 'USA, CAN', countries: ['USA', 'CAN'], states: [], sequence_num: 1 },
      { tenant_id: 'sa', zone_id: 'ZONE_2', name: 'GBR, IRL', countries: ['GBR', 'IRL'], states: [], sequence_num: 2 },
      {
        tenant_id: 'sb',
        zone_id: 'REST_OF_WORLD',
        name: 'Rest of world',
        countries: null,
        states: [],
        sequence_num: 1,
      },
      { tenant_id: 'sb', zone_id: 'ZONE_2', name: 'DEU, FRA', countries: ['DEU', 'FRA'], states: [], sequence_num: 2 },
    ]);
  });

  it('keeps every method, its id, rate and free-from, in its zone, with the weight table as sorted bands', async () => {
    const methods = rowsOf(
      await database.db.execute(sql`
        SELECT tenant_id, method_id, zone_id, kind, flat_rate, bands, free_above, handling_days
        FROM shipping_methods ORDER BY 1, 2`),
    );
    expect(methods).toEqual([
      {
        tenant_id: 'sa',
        method_id: 'EXPRESS',
        zone_id: 'ZONE_1',
        kind: 'flat',
        flat_rate: 2495,
        bands: null,
        free_above: null,
        handling_days: 0,
      },
      {
        tenant_id: 'sa',
        method_id: 'INTERNATIONAL',
        zone_id: 'ZONE_2',
        kind: 'flat',
        flat_rate: 3995,
        bands: null,
        free_above: null,
        handling_days: 0,
      },
      {
        tenant_id: 'sa',
        method_id: 'STANDARD',
        zone_id: 'ZONE_1',
        kind: 'weight',
        flat_rate: 0,
        bands: [
          { upTo: 2000, rate: 695 },
          { upTo: 10000, rate: 1295 },
        ],
        free_above: 9900,
        handling_days: 0,
      },
      {
        tenant_id: 'sb',
        method_id: 'ANY',
        zone_id: 'REST_OF_WORLD',
        kind: 'flat',
        flat_rate: 1500,
        bands: null,
        free_above: 20000,
        handling_days: 0,
      },
      // A weight method without a table charged 0 before, and does with no bands.
      {
        tenant_id: 'sb',
        method_id: 'NEAR',
        zone_id: 'ZONE_2',
        kind: 'weight',
        flat_rate: 0,
        bands: [],
        free_above: null,
        handling_days: 0,
      },
    ]);
  });

  it('drops the old columns and will not take a method without a zone', async () => {
    const cols = rowsOf<{ column_name: string }>(
      await database.db.execute(sql`
        SELECT column_name FROM information_schema.columns WHERE table_name = 'shipping_methods' ORDER BY 1`),
    ).map((c) => c.column_name);
    expect(cols).not.toContain('countries');
    expect(cols).not.toContain('weight_table');
    await expect(
      database.db.execute(sql`
        INSERT INTO shipping_methods (tenant_id, method_id, zone_id, name, kind) VALUES ('sa', 'X', 'NOPE', 'X', 'flat')`),
    ).rejects.toThrow();
  });
});
