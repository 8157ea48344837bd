/** The generated catalog of the search scale benchmark: deterministic names, brands and prices. */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { PRODUCT_CSV_COLUMNS, type ProductCsvRecord, productCsvCells } from '@app/contracts';
import { type Database, insertDefaultVariants, schema } from '@app/db';

export const COUNT = Number(process.env.BENCH_PRODUCTS ?? 100_000);
export const TENANT = 'scale';

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
