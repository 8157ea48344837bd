/**
 * How long migration 0044 (products with variants, decision 112) takes on a filled database
 * (`npx tsx bench/migration-0044.ts [products]`, PGlite in memory; with BENCH_DATABASE_URL or
 * TEST_DATABASE_URL, a scratch database on that PostgreSQL too). A database is migrated to 0043
 * from a copy of the migrations folder with the journal cut there, filled by generate_series with
 * `products` products (default 100,000) in one store, two stock movements and one order line per
 * product and a cart line per ten, then migrated on, timed.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, migrationsFolder, openDatabase } from '@app/db';
import { sql } from 'drizzle-orm';
import pg from 'pg';

const n = Number(process.argv[2] ?? 100_000);
const cut = mkdtempSync(join(tmpdir(), 'migrations-0043-'));
cpSync(migrationsFolder, cut, { recursive: true });
const journalPath = join(cut, 'meta', '_journal.json');
const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
journal.entries = journal.entries.filter((e) => e.idx <= 43);
writeFileSync(journalPath, JSON.stringify(journal));
rmSync(join(cut, '0044_product_variants.sql'));

const FILL = [
  `INSERT INTO tenants (tenant_id, name) VALUES ('bench', 'Bench')`,
  `INSERT INTO products (tenant_id, product_id, sku, product_name, slug, list_price, sale_price, stock_quantity, weight_grams)
    SELECT 'bench', 'P' || i, 'SKU-' || i, 'Product ' || i, 'product-' || i, 1000 + i % 5000,
      CASE WHEN i % 7 = 0 THEN 900 ELSE NULL END, 8, 500 FROM generate_series(1, ${n}) i`,
  `INSERT INTO stock_movements (tenant_id, movement_id, product_id, delta, quantity_before, quantity_after, reason)
    SELECT 'bench', 'M' || i || '-' || k, 'P' || i, CASE k WHEN 1 THEN 10 ELSE -2 END, CASE k WHEN 1 THEN 0 ELSE 10 END,
      CASE k WHEN 1 THEN 10 ELSE 8 END, CASE k WHEN 1 THEN 'RECEIVED' ELSE 'SOLD' END
    FROM generate_series(1, ${n}) i, generate_series(1, 2) k`,
  `INSERT INTO orders (tenant_id, order_id, email, status, currency, subtotal, shipping_total, tax_total, grand_total,
      shipping_method_id, shipping_method_name, ship_to, payment_provider, payment_label, idempotency_key, request_hash)
    SELECT 'bench', 'O' || j, 'a@example.com', 'paid', 'USD', 0, 0, 0, 0, 'STANDARD', 'Standard', '{}'::jsonb, 'card',
      'Visa', 'k' || j, 'h' FROM generate_series(1, ${Math.ceil(n / 10)}) j`,
  `INSERT INTO order_lines (tenant_id, order_id, line_no, product_id, product_name, quantity, unit_price, line_total)
    SELECT 'bench', 'O' || (1 + (i - 1) / 10), 1 + (i - 1) % 10, 'P' || i, 'Product ' || i, 2, 1000, 2000
    FROM generate_series(1, ${n}) i`,
  `INSERT INTO carts (tenant_id, cart_id, guest_token_hash) SELECT 'bench', 'C' || j, 'g' || j
    FROM generate_series(1, ${Math.ceil(n / 10)}) j`,
  `INSERT INTO cart_lines (tenant_id, cart_id, line_id, product_id, quantity)
    SELECT 'bench', 'C' || j, 'L1', 'P' || (j * 10), 1 FROM generate_series(1, ${Math.ceil(n / 10)}) j`,
];

async function timed(database: Database, label: string) {
  await database.migrate({ migrationsFolder: cut });
  for (const statement of FILL) await database.db.execute(sql.raw(statement));
  const started = performance.now();
  await database.migrate();
  const ms = performance.now() - started;
  const [row] = (
    (await database.db.execute(sql`SELECT count(*)::int AS n FROM product_variants`)) as unknown as {
      rows: { n: number }[];
    }
  ).rows;
  console.log(`[0044] ${label}: ${n} products -> ${row?.n} variants, migrated in ${(ms / 1000).toFixed(2)} s`);
}

try {
  const lite = await openDatabase({ dataDir: 'memory://' });
  try {
    await timed(lite, 'PGlite');
  } finally {
    await lite.close();
  }
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `migration_0044_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 2 });
    try {
      await timed(database, 'PostgreSQL');
    } finally {
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
} finally {
  rmSync(cut, { recursive: true, force: true });
}
