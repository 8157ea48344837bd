/** The generated catalog of the search scale benchmark: deterministic names, brands and prices. */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { PRODUCT_CSV_COLUMNS, type ProductCsvRecord, productCsvCells } from '@app/contracts';
import { type Database, insertDefaultVariants, schema } from '@app/db';
import { sql } from 'drizzle-orm';

export const COUNT = Number(process.env.BENCH_PRODUCTS ?? 100_000);
export const TENANT = 'scale';
/**
 * Variants per product (BENCH_VARIANTS, default 1: each product its default variant only). Above 1,
 * every product gets one option, Size, with that many values and one variant each (decision 112).
 */
export const VARIANTS = Math.max(1, Math.floor(Number(process.env.BENCH_VARIANTS ?? 1)));

const ADJ = [
  'Arden',
  'Marlow',
  'Kinsley',
  'Ostra',
  'Bexley',
  'Harrow',
  'Celeste',
  'Wren',
  'Loft',
  'Ember',
  'Tove',
  'Sora',
  'Mesa',
  'Orbit',
  'Pillar',
  'Dune',
  'Mira',
  'Hollis',
  'Focus',
  'Halo',
  'Studio',
  'Pivot',
  'Crescent',
  'Harbor',
  'Summit',
  'Granite',
  'Cedar',
  'Aspen',
  'Willow',
  'Juniper',
];
const MAT = [
  'Brass',
  'Walnut',
  'Oak',
  'Glass',
  'Ceramic',
  'Rattan',
  'Steel',
  'Linen',
  'Marble',
  'Copper',
  'Bamboo',
  'Concrete',
  'Velvet',
  'Leather',
  'Wool',
];
const KIND = [
  'Pendant',
  'Chandelier',
  'Floor Lamp',
  'Table Lamp',
  'Desk Lamp',
  'Sconce',
  'Mirror',
  'Side Table',
  'Armchair',
  'Sofa',
  'Rug',
  'Vase',
  'Planter',
  'Shelf',
  'Stool',
  'Bench',
  'Cabinet',
  'Clock',
  'Cushion',
  'Throw',
];
const BRANDS = [
  'Halden & Co.',
  'Lumen Works',
  'Nordlys',
  'Atelier Nine',
  'Forge',
  'Brightline',
  'Terra Studio',
  'Ashby',
  'Greenway',
  'Ironclad',
];
const pick = <T>(list: readonly T[], n: number) => list[n % list.length] as T;

export function queries(): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < 200; i++) {
    switch (i % 8) {
      case 0:
        out.push(pick(KIND, i).toLowerCase());
        break;
      case 1:
        out.push(`${pick(MAT, i)} ${pick(KIND, i * 7)}`.toLowerCase());
        break;
      case 2:
        out.push(`"${pick(MAT, i + 3)} ${pick(KIND, i + 5)}"`);
        break;
      case 3:
        out.push(pick(BRANDS, i));
        break;
      case 4:
        out.push(
          pick(KIND, i + 2)
            .slice(0, 4)
            .toLowerCase(),
        );
        break; // typing a prefix
      case 5:
        out.push(`${pick(KIND, i + 1).toLowerCase()} -${pick(MAT, i).toLowerCase()}`);
        break;
      case 6:
        out.push(`${pick(ADJ, i)} ${pick(MAT, i * 3)}`);
        break;
      default: {
        // One letter swapped: the typo-tolerant path.
        const w = pick(KIND, i + 4)
          .split(' ')[0]!
          .toLowerCase();
        out.push(w.length > 4 ? `${w.slice(0, 2)}${w[3]}${w[2]}${w.slice(4)}` : w);
      }
    }
  }
  return out;
}

export async function fill(database: Database) {
  const db = database.db;
  await db.insert(schema.tenants).values({ tenantId: TENANT, name: 'Scale Test' });
  // A category per kind and one per material: every product sits in two, as in a real store, so the
  // category facet has real memberships to count.
  const categoryOf = (kind: string) => `K-${kind.toLowerCase().replace(/ /g, '-')}`;
  const materialOf = (mat: string) => `M-${mat.toLowerCase()}`;
  await db
    .insert(schema.categories)
    .values([
      ...KIND.map((k) => ({ tenantId: TENANT, productCategoryId: categoryOf(k), categoryName: `${k}s` })),
      ...MAT.map((m) => ({ tenantId: TENANT, productCategoryId: materialOf(m), categoryName: m })),
    ]);
  const batch = 1000;
  for (let start = 0; start < COUNT; start += batch) {
    const rows = [];
    const memberships = [];
    for (let i = start; i < Math.min(COUNT, start + batch); i++) {
      const name = `${pick(ADJ, i)} ${pick(MAT, Math.floor(i / 7))} ${pick(KIND, Math.floor(i / 3))} ${i}`;
      rows.push({
        tenantId: TENANT,
        productId: `S-${i}`,
        sku: `S-${i}`,
        productName: name,
        slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        brandName: pick(BRANDS, i * 13),
        shortDescription: `A ${pick(MAT, i).toLowerCase()} ${pick(KIND, i).toLowerCase()} for every room.`,
        description: `Made of ${pick(MAT, i * 5).toLowerCase()} by ${pick(BRANDS, i)}. Designed to last, easy to care for, and covered by a two-year warranty.`,
        listPrice: 1000 + ((i * 7919) % 90000),
        salePrice: i % 5 === 0 ? 900 + ((i * 7919) % 80000) : null,
        stockQuantity: i % 11 === 0 ? 0 : (i * 31) % 200,
        isFeatured: i % 50 === 0,
        categoryNames: `${pick(KIND, Math.floor(i / 3))} ${pick(MAT, Math.floor(i / 7))}`,
      });
      memberships.push(
        { tenantId: TENANT, productId: `S-${i}`, productCategoryId: categoryOf(pick(KIND, Math.floor(i / 3))) },
        { tenantId: TENANT, productId: `S-${i}`, productCategoryId: materialOf(pick(MAT, Math.floor(i / 7))) },
      );
    }
    await db.insert(schema.products).values(rows);
    await db.insert(schema.productCategories).values(memberships);
  }
  // Every product has its default variant, where its stock is (decision 112).
  await insertDefaultVariants(db, TENANT);
  if (VARIANTS > 1) await addVariants(database, VARIANTS);
}

/**
 * Gives every product of the scale store an option, Size, with `count` values and one variant per
 * value (the default variant becomes the first), each with its own SKU, price and stock, then the
 * products' rollup columns as refreshProductRollup writes them, set-based: a bench catalog, not a
 * history (no stock movements are written).
 */
export async function addVariants(database: Database, count: number) {
  const db = database.db;
  const t = TENANT;
  await db.execute(sql`INSERT INTO product_options (tenant_id, product_id, option_id, name, position)
                       SELECT tenant_id, product_id, 'SIZE', 'Size', 1 FROM products WHERE tenant_id = ${t}`);
  await db.execute(sql`INSERT INTO product_option_values (tenant_id, product_id, option_id, value_id, label, position)
                       SELECT p.tenant_id, p.product_id, 'SIZE', 'SIZE-' || g, 'Size ' || g, g
                       FROM products p, generate_series(1, ${count}::int) g WHERE p.tenant_id = ${t}`);
  await db.execute(sql`UPDATE product_variants SET option1_value_id = 'SIZE-1', title = 'Size 1'
                       WHERE tenant_id = ${t} AND variant_id = product_id`);
  await db.execute(sql`INSERT INTO product_variants (tenant_id, variant_id, product_id, position, option1_value_id, title, sku,
                                                     list_price, sale_price, weight_grams, stock_quantity, enabled)
                       SELECT p.tenant_id, p.product_id || '-V' || g, p.product_id, g, 'SIZE-' || g, 'Size ' || g,
                              p.sku || '-V' || g, p.list_price + g * 100, NULL, p.weight_grams,
                              (length(p.product_id) * 7 + g * 13) % 40, true
                       FROM products p, generate_series(2, ${count}::int) g WHERE p.tenant_id = ${t}`);
  await db.execute(sql`UPDATE products p SET price_max = r.price_max, variant_count = r.n, stock_quantity = r.stock,
                              sellable_stock = r.stock, variant_words = r.words,
                              list_price = r.list_price, sale_price = r.sale_price
                       FROM (SELECT v.product_id, max(v.effective_price) AS price_max, count(*)::int AS n,
                                    sum(v.stock_quantity)::int AS stock,
                                    'Size ' || string_agg(v.title, ' ' ORDER BY v.position) AS words,
                                    (array_agg(v.list_price ORDER BY v.effective_price, v.position))[1] AS list_price,
                                    (array_agg(v.sale_price ORDER BY v.effective_price, v.position))[1] AS sale_price
                             FROM product_variants v WHERE v.tenant_id = ${t} GROUP BY v.product_id) r
                       WHERE p.tenant_id = ${t} AND p.product_id = r.product_id`);
  await db.execute(sql`ANALYZE product_variants`);
}

/** The generated product `i` as a row of the product CSV (the export's format), for import benchmarks. */
export function scaleCsvRecord(i: number, prefix = 'CSV'): ProductCsvRecord {
  return {
    sku: `${prefix}-${i}`,
    productName: `${pick(ADJ, i)} ${pick(MAT, Math.floor(i / 7))} ${pick(KIND, Math.floor(i / 3))} ${prefix} ${i}`,
    slug: '',
    status: 'ACTIVE',
    brandName: pick(BRANDS, i * 13),
    listPrice: 1000 + ((i * 7919) % 90000),
    // A sale price below the list price (a higher one is refused, as it should be).
    salePrice: i % 5 === 0 ? Math.floor((1000 + ((i * 7919) % 90000)) * 0.8) : null,
    currencyUomId: 'USD',
    stockQuantity: (i * 31) % 200,
    weightGrams: 200 + (i % 5000),
    categoryIds: [],
    isFeatured: i % 50 === 0,
    shortDescription: `A ${pick(MAT, i).toLowerCase()} ${pick(KIND, i).toLowerCase()}, for every room.`,
    description: `<p>Made of ${pick(MAT, i * 5).toLowerCase()} by ${pick(BRANDS, i)}.</p>\n<p>Designed to last, "easy" to care for.</p>`,
    seoTitle: null,
    seoDescription: null,
    productId: '',
  };
}

/**
 * Writes a product CSV of `count` generated products to `path`, streamed (the file is never in
 * memory). The categories column is left out: the import keeps what products have.
 */
export async function writeScaleCsv(path: string, count: number, prefix = 'CSV'): Promise<number> {
  const keep = PRODUCT_CSV_COLUMNS.map((c, i) => [c, i] as const).filter(
    ([c]) => c !== 'categories' && c !== 'product_id',
  );
  const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const out = createWriteStream(path);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : once(out, 'drain').then(() => undefined));
  await write(`\uFEFF${keep.map(([c]) => c).join(',')}\r\n`);
  for (let i = 0; i < count; i++) {
    const cells = productCsvCells(scaleCsvRecord(i, prefix));
    await write(`${keep.map(([, idx]) => quote(cells[idx] ?? '')).join(',')}\r\n`);
  }
  out.end();
  await once(out, 'finish');
  return count;
}
