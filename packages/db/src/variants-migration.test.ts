import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrationsFolder } from './client';
import { openTestDatabase } from './testing';

// Migration 0044 (decision 112) on a database that was at 0043 with data in every table it touches:
// every product becomes a product with one default variant (id = the product's) and the books, the
// carts, the orders, the wishlists, the reviews, the redirects and the feeds keep pointing at the
// right thing. The database is migrated to 0043 from a copy of the migrations folder with the journal
// cut there, filled by the statements below (written for the 0043 schema: two stores, an archived
// product, a product on sale, one without weight, movements, guest and account carts with a
// configured line, an order with a line of a product deleted since), then migrated on.

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

let database: Database;
let cut: string;
const before: Record<string, unknown> = {};
const after: Record<string, unknown> = {};
let ms = 0;

const AT_0043 = [
  `INSERT INTO tenants (tenant_id, name) VALUES ('va', 'Store A'), ('vb', 'Store B')`,
  `INSERT INTO users (tenant_id, user_id, email, password_hash, first_name, last_name) VALUES
    ('va', 'U1', 'ada@example.com', 'x', 'Ada', 'L'), ('vb', 'U1', 'bob@example.com', 'x', 'Bob', 'K')`,
  `INSERT INTO products (tenant_id, product_id, sku, product_name, slug, list_price, sale_price, stock_quantity,
      weight_grams, status) VALUES
    ('va', 'P1', 'LAMP-1', 'Brass Lamp', 'brass-lamp', 12000, 9900, 7, 1800, 'ACTIVE'),
    ('va', 'P2', 'LAMP-2', 'Opal Globe', 'opal-globe', 4500, NULL, 0, NULL, 'ACTIVE'),
    ('va', 'P3', 'LAMP-3', 'Old Sconce', 'old-sconce', 3000, NULL, 2, 900, 'ARCHIVED'),
    ('vb', 'P1', 'LAMP-1', 'Planter', 'planter', 2500, NULL, 40, 3000, 'ACTIVE'),
    ('vb', 'P9', 'POT-9', 'Pot', 'pot', 900, 700, 11, 500, 'DRAFT')`,
  `INSERT INTO stock_movements (tenant_id, movement_id, product_id, delta, quantity_before, quantity_after, reason, note)
    VALUES
    ('va', 'M1', 'P1', 10, 0, 10, 'RECEIVED', 'Opening stock'),
    ('va', 'M2', 'P1', -3, 10, 7, 'SOLD', NULL),
    ('va', 'M3', 'P2', 4, 0, 4, 'RECEIVED', NULL),
    ('va', 'M4', 'P2', -4, 4, 0, 'SOLD', NULL),
    ('va', 'M5', 'P3', 2, 0, 2, 'RECEIVED', NULL),
    ('vb', 'M1', 'P1', 40, 0, 40, 'RECEIVED', NULL),
    ('vb', 'M2', 'P9', 11, 0, 11, 'RECEIVED', NULL)`,
  `INSERT INTO product_slug_history (tenant_id, slug, product_id) VALUES ('va', 'brass-lamp-old', 'P1')`,
  `INSERT INTO carts (tenant_id, cart_id, user_id, guest_token_hash) VALUES
    ('va', 'C1', NULL, 'hash-1'), ('va', 'C2', 'U1', NULL), ('vb', 'C1', 'U1', NULL)`,
  `INSERT INTO cart_lines (tenant_id, cart_id, line_id, product_id, quantity, config_key) VALUES
    ('va', 'C1', 'L1', 'P1', 2, ''), ('va', 'C1', 'L2', 'P1', 1, 'FINISH=BRASS'), ('va', 'C2', 'L1', 'P2', 3, ''),
    ('vb', 'C1', 'L1', 'P9', 4, '')`,
  `INSERT INTO orders (tenant_id, order_id, email, status, currency, subtotal, shipping_total, tax_total, grand_total,
      shipping_method_id, shipping_method_name, ship_to, payment_provider, payment_label, idempotency_key, request_hash)
    VALUES ('va', 'O1', 'ada@example.com', 'paid', 'USD', 25800, 0, 0, 25800, 'STANDARD', 'Standard', '{}'::jsonb,
      'card', 'Visa', 'k1', 'h1')`,
  `INSERT INTO order_lines (tenant_id, order_id, line_no, product_id, product_name, quantity, unit_price, line_total)
    VALUES ('va', 'O1', 1, 'P1', 'Brass Lamp', 2, 9900, 19800), ('va', 'O1', 2, 'P2', 'Opal Globe', 1, 4500, 4500),
      ('va', 'O1', 3, 'GONE', 'A deleted product', 1, 1500, 1500)`,
  `INSERT INTO wishlist_items (tenant_id, user_id, product_id) VALUES ('va', 'U1', 'P1'), ('vb', 'U1', 'P9')`,
  `INSERT INTO product_reviews (tenant_id, review_id, product_id, author_name, rating) VALUES
    ('va', 'R1', 'P1', 'Ada', 5), ('vb', 'R1', 'P1', 'Bob', 4)`,
  `INSERT INTO product_feeds (tenant_id, feed_id, token_nonce, product_count) VALUES ('va', 'F1', 'n', 3)`,
];

/** What must not change: counts and sums per store. */
const RECORD = {
  products: `SELECT tenant_id, count(*)::int AS n, sum(stock_quantity)::int AS stock FROM products GROUP BY 1 ORDER BY 1`,
  movements: `SELECT tenant_id, product_id, count(*)::int AS n, sum(delta)::int AS sum FROM stock_movements
    GROUP BY 1, 2 ORDER BY 1, 2`,
  orderLines: `SELECT tenant_id, count(*)::int AS n, sum(line_total)::int AS total FROM order_lines GROUP BY 1 ORDER BY 1`,
  cartLines: `SELECT tenant_id, cart_id, line_id, product_id, quantity, config_key FROM cart_lines ORDER BY 1, 2, 3`,
  wishlist: `SELECT count(*)::int AS n FROM wishlist_items`,
  reviews: `SELECT count(*)::int AS n FROM product_reviews`,
  slugs: `SELECT count(*)::int AS n FROM product_slug_history`,
} as const;

async function record(into: Record<string, unknown>) {
  for (const [k, q] of Object.entries(RECORD)) into[k] = rowsOf(await database.db.execute(sql.raw(q)));
}

beforeAll(async () => {
  cut = mkdtempSync(join(tmpdir(), 'migrations-0043-'));
  cpSync(migrationsFolder, cut, { recursive: true });
  const journalPath = join(cut, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= 43);
  writeFileSync(journalPath, JSON.stringify(journal));
  rmSync(join(cut, '0044_product_variants.sql'));

  database = await openTestDatabase({ empty: true });
  await database.migrate({ migrationsFolder: cut });
  for (const statement of AT_0043) await database.db.execute(sql.raw(statement));
  await record(before);
  const started = performance.now();
  await database.migrate();
  ms = performance.now() - started;
  await record(after);
}, 120_000);

afterAll(async () => {
  await database?.close();
  if (cut) rmSync(cut, { recursive: true, force: true });
});

describe('migration 0044: every product gets its default variant', () => {
  it('was at 0043 before: no variants yet', () => {
    expect(before.products).toEqual([
      { tenant_id: 'va', n: 3, stock: 9 },
      { tenant_id: 'vb', n: 2, stock: 51 },
    ]);
    expect(ms).toBeGreaterThan(0);
  });

  it("gives each product one variant with its id, SKU, prices, weight and stock, enabled whatever the product's status", async () => {
    const mismatched = rowsOf(
      await database.db.execute(sql`
        SELECT p.tenant_id, p.product_id FROM products p
        LEFT JOIN product_variants v ON v.tenant_id = p.tenant_id AND v.product_id = p.product_id
        WHERE v.variant_id IS DISTINCT FROM p.product_id OR v.sku IS DISTINCT FROM p.sku
          OR v.list_price IS DISTINCT FROM p.list_price OR v.sale_price IS DISTINCT FROM p.sale_price
          OR v.weight_grams IS DISTINCT FROM p.weight_grams OR v.stock_quantity IS DISTINCT FROM p.stock_quantity
          OR v.title <> '' OR NOT v.enabled OR v.position <> 1 OR v.removed_at IS NOT NULL
          OR v.option1_value_id IS NOT NULL`),
    );
    expect(mismatched).toEqual([]);
    const counts = rowsOf(
      await database.db.execute(sql`
        SELECT tenant_id, count(*)::int AS n, sum(stock_quantity)::int AS stock FROM product_variants GROUP BY 1 ORDER BY 1`),
    );
    expect(counts).toEqual(before.products);
    expect(after.products).toEqual(before.products);
  });

  it('sets the rollup: the highest price is the price, one variant, all of the stock sellable', async () => {
    const rows = rowsOf<{ product_id: string; price_max: number; variant_count: number; sellable_stock: number }>(
      await database.db.execute(sql`
        SELECT product_id, price_max, variant_count, sellable_stock, effective_price, stock_quantity
        FROM products WHERE price_max <> effective_price OR variant_count <> 1 OR sellable_stock <> stock_quantity
          OR variant_words <> ''`),
    );
    expect(rows).toEqual([]);
  });

  it('names the default variant in every movement, and the books per variant add up as they did per product', async () => {
    expect(after.movements).toEqual(before.movements);
    const wrong = rowsOf(
      await database.db.execute(sql`SELECT movement_id FROM stock_movements WHERE variant_id <> product_id`),
    );
    expect(wrong).toEqual([]);
    const unbalanced = rowsOf(
      await database.db.execute(sql`
        SELECT v.tenant_id, v.variant_id FROM product_variants v
        LEFT JOIN (SELECT tenant_id, variant_id, sum(delta) AS s FROM stock_movements GROUP BY 1, 2) m
          ON m.tenant_id = v.tenant_id AND m.variant_id = v.variant_id
        WHERE coalesce(m.s, 0) <> v.stock_quantity`),
    );
    expect(unbalanced).toEqual([]);
  });

  it('keeps every order line, with its variant and SKU where the product still exists', async () => {
    expect(after.orderLines).toEqual(before.orderLines);
    const lines = rowsOf(
      await database.db.execute(
        sql`SELECT line_no, variant_id, sku, variant_title FROM order_lines WHERE tenant_id = 'va' ORDER BY line_no`,
      ),
    );
    expect(lines).toEqual([
      { line_no: 1, variant_id: 'P1', sku: 'LAMP-1', variant_title: '' },
      { line_no: 2, variant_id: 'P2', sku: 'LAMP-2', variant_title: '' },
      { line_no: 3, variant_id: null, sku: null, variant_title: '' },
    ]);
  });

  it('keeps every cart line, each a line of an existing variant, and one line per variant and configuration', async () => {
    expect(after.cartLines).toEqual(before.cartLines);
    const orphans = rowsOf(
      await database.db.execute(sql`
        SELECT l.line_id FROM cart_lines l LEFT JOIN product_variants v
          ON v.tenant_id = l.tenant_id AND v.product_id = l.product_id AND v.variant_id = l.variant_id
        WHERE v.variant_id IS NULL`),
    );
    expect(orphans).toEqual([]);
    await expect(
      database.db.execute(sql`INSERT INTO cart_lines (tenant_id, cart_id, line_id, product_id, variant_id, quantity)
        VALUES ('va', 'C1', 'L9', 'P1', 'P1', 1)`),
    ).rejects.toThrow();
  });

  it('keeps wishlists, reviews and old addresses, and counts feed items as the products they were', async () => {
    for (const k of ['wishlist', 'reviews', 'slugs'] as const) expect(after[k]).toEqual(before[k]);
    const feeds = rowsOf(await database.db.execute(sql`SELECT product_count, item_count FROM product_feeds`));
    expect(feeds).toEqual([{ product_count: 3, item_count: 3 }]);
  });

  it('moves SKU uniqueness to the live variants, and search still finds products by name', async () => {
    await expect(
      database.db.execute(sql`INSERT INTO product_variants (tenant_id, variant_id, product_id, position, sku, list_price)
        VALUES ('va', 'P2-2', 'P2', 2, 'LAMP-1', 100)`),
    ).rejects.toThrow();
    const found = rowsOf(
      await database.db.execute(
        sql`SELECT product_id FROM products WHERE tenant_id = 'va' AND search_vector @@ plainto_tsquery('simple', 'opal')`,
      ),
    );
    expect(found).toEqual([{ product_id: 'P2' }]);
  });
});
