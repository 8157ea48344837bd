/**
 * Turns the store data of stores/*.ts into table rows. Pure and deterministic: the same input gives
 * the same rows on every machine, so tests and screenshots can rely on them.
 */
import { garden } from './stores/garden';
import { lighting } from './stores/lighting';
import { power } from './stores/power';
import type { Glyph, SeedStore } from './types';

export const SEED_STORES: readonly SeedStore[] = [lighting, garden, power];

/** FNV-1a: a small, stable string hash for picking colours and numbers deterministically. */
export function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function slugify(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/×/g, 'x')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export const mediaPath = (tenantId: string, rest: string) => `/media/seed/${tenantId}/${rest}`;

// Fixed so the seed is identical whenever it runs; "new arrivals" sort by this date.
const CATALOG_EPOCH = Date.UTC(2026, 9, 1);
const DAY = 86_400_000;

export interface SeedProductRow {
  tenantId: string;
  productId: string;
  sku: string;
  productName: string;
  slug: string;
  brandName: string;
  shortDescription: string;
  description: string;
  smallImageUrl: string | null;
  mediumImageUrl: string | null;
  detailImageUrl: string | null;
  listPrice: number;
  salePrice: number | null;
  currencyUomId: string;
  stockQuantity: number;
  weightGrams: number;
  isFeatured: boolean;
  introductionDate: Date;
}

export interface ProductArt {
  glyph: Glyph;
  finish: string;
  background: string;
}

export interface BuiltStore {
  store: SeedStore;
  products: SeedProductRow[];
  /** [categoryId, productId, sequence] */
  productCategories: [string, string, number][];
  art: Map<string, ProductArt>;
}

export function buildStore(store: SeedStore): BuiltStore {
  const products: SeedProductRow[] = [];
  const productCategories: [string, string, number][] = [];
  const art = new Map<string, ProductArt>();
  let n = 0;
  for (const cat of store.categories) {
    cat.items.forEach(([name, brand, list, sale], i) => {
      const productId = `${store.prefix}-${1001 + n}`;
      const h = hash(productId);
      const first = cat.features[h % cat.features.length] as string;
      const second = cat.features[(h + 1) % cat.features.length] as string;
      const third = cat.features[(h + 2) % cat.features.length] as string;
      // A few products without pictures (the placeholder shows), a few with only the large one.
      const images = n % 17 === 16 ? 'none' : n % 11 === 5 ? 'detail' : 'all';
      const img = (size: string) => mediaPath(store.tenantId, `products/${productId.toLowerCase()}-${size}.webp`);
      // Stock: a few sold out, a few nearly gone, the rest comfortable.
      const stock = n % 12 === 7 ? 0 : n % 9 === 4 ? 1 + (h % 4) : 8 + (h % 140);
      products.push({
        tenantId: store.tenantId,
        productId,
        sku: `${store.prefix}-${cat.id.replace(/^[A-Z]+_/, '').slice(0, 8)}-${String(i + 1).padStart(2, '0')}`,
        productName: name,
        slug: slugify(name),
        brandName: brand,
        shortDescription: `${first}`,
        description: [
          `The ${name} by ${brand}. ${cat.longDescription}`,
          `${first} ${second}`,
          `${third} Backed by ${brand}'s warranty and our ${store.prefix === 'GRD' ? '60' : '30'}-day returns.`,
        ].join('\n\n'),
        smallImageUrl: images === 'all' ? img('small') : null,
        mediumImageUrl: images === 'all' ? img('medium') : null,
        detailImageUrl: images === 'none' ? null : img('detail'),
        listPrice: Math.round(list * 100) - (list >= 10 ? 1 : 0),
        salePrice: sale ? Math.round(sale * 100) - (sale >= 10 ? 1 : 0) : null,
        currencyUomId: 'USD',
        stockQuantity: stock,
        weightGrams: Math.round(cat.weight * (0.6 + (h % 80) / 100)),
        isFeatured: n % 7 === 0,
        introductionDate: new Date(CATALOG_EPOCH - ((n * 37) % 240) * DAY),
      });
      productCategories.push([cat.id, productId, i]);
      for (const sub of store.subcategories) {
        if (sub.parent === cat.id && sub.match.test(name)) productCategories.push([sub.id, productId, i]);
      }
      art.set(productId.toLowerCase(), {
        glyph: cat.glyph,
        finish: store.brandColors?.[brand] ?? (store.art.finishes[h % store.art.finishes.length] as string),
        background: store.art.backgrounds[(h >>> 3) % store.art.backgrounds.length] as string,
      });
      n++;
    });
  }
  return { store, products, productCategories, art };
}

let built: BuiltStore[] | undefined;
export function builtStores(): BuiltStore[] {
  built ??= SEED_STORES.map(buildStore);
  return built;
}
