/**
 * Turns the store data of stores/*.ts into table rows. Pure and deterministic: the same input gives
 * the same rows on every machine, so tests and screenshots can rely on them.
 */
import { createHash } from 'node:crypto';
import { garden } from './stores/garden';
import { lighting } from './stores/lighting';
import { power } from './stores/power';
import type { Glyph, SeedStore, SeedVariantProduct } from './types';

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
  productType: 'FINISHED_GOOD' | 'CONFIGURABLE';
  categoryNames: string;
  /** Set for a product sold in variants: its copy of them, as refreshProductRollup writes it. */
  priceMax?: number;
  variantCount?: number;
  sellableStock?: number;
  variantWords?: string;
}

export interface SeedFeature {
  productId: string;
  featureId: string;
  label: string;
  value: string;
  sequenceNum: number;
}
export interface SeedOption {
  productId: string;
  optionId: string;
  optionName: string;
  sequenceNum: number;
  choices: { choiceId: string; label: string; priceDelta: number; isDefault: boolean }[];
}
export interface SeedReview {
  reviewId: string;
  productId: string;
  authorName: string;
  rating: number;
  title: string;
  body: string;
  createdAt: Date;
}

/** Options a configurable product of each store offers, with price deltas in minor units. */
const OPTION_SETS: Record<string, { name: string; choices: [string, number][] }[]> = {
  LGT: [
    {
      name: 'Finish',
      choices: [
        ['Antique Brass', 0],
        ['Matte Black', 0],
        ['Polished Nickel', 2000],
      ],
    },
    {
      name: 'Cord length',
      choices: [
        ['1 m', 0],
        ['2 m', 1500],
        ['3 m', 2500],
      ],
    },
  ],
  GRD: [
    {
      name: 'Size',
      choices: [
        ['Small', -500],
        ['Medium', 0],
        ['Large', 1500],
      ],
    },
  ],
  PWR: [
    {
      name: 'Kit',
      choices: [
        ['Bare tool', 0],
        ['With 2.0 Ah battery and charger', 7900],
        ['With 2 × 5.0 Ah batteries and charger', 14900],
      ],
    },
  ],
};

const REVIEWERS = [
  'Maya R.',
  'Daniel K.',
  'Priya S.',
  'Tom H.',
  'Aisha B.',
  'Lucas M.',
  'Grace L.',
  'Omar F.',
  'Hannah W.',
  'Ken T.',
];
const REVIEW_TEXT: Record<number, [string, string][]> = {
  5: [
    ['Exactly what I hoped for', 'Well made, arrived quickly and looks even better than the photos.'],
    ['Great quality', 'Solid build and easy to set up. Would buy again.'],
  ],
  4: [
    ['Very good', 'Does the job well. Packaging could have been a little better.'],
    ['Happy with it', 'Good value for the price; took a few minutes longer to set up than expected.'],
  ],
  3: [['Decent', 'Fine for the price, but the finish is not as nice as I expected.']],
  2: [['Not for me', 'Smaller than I thought. Customer service was helpful with the return.']],
};

/**
 * A product's own drawing when its category's would not fit its name (a dimmer switch in the smart
 * bulbs, a pruning saw among the pruners) or would repeat (seven pendants, seven domes). First match
 * wins; a product no rule names gets its category's drawing.
 */
const PRODUCT_GLYPHS: readonly [RegExp, Glyph][] = [
  [/paper lantern pendant/i, 'paper-lantern'],
  [/linear pendant/i, 'pendant-linear'],
  [/(rattan|woven).*pendant/i, 'pendant-woven'],
  [/cone pendant/i, 'pendant-cone'],
  [/(globe|ribbed).*pendant/i, 'pendant-globe'],
  [/dimmer switch/i, 'dimmer'],
  [/led strip|strip light/i, 'led-strip'],
  [/\b(gu10|par38|br30)\b/i, 'spot-bulb'],
  [/tube vintage/i, 'tube-bulb'],
  [/globe wall sconce/i, 'pendant-globe'],
  [/pruning saw/i, 'pruning-saw'],
  [/lopper/i, 'lopper'],
  [/grass shear/i, 'shears'],
  [/mister/i, 'watering-can'],
  [/bird bath|seed feeder|bird seed/i, 'birdhouse'],
  [/chisel|pry bar|mallet/i, 'hammer'],
  [/impact wrench/i, 'drill'],
  [/polisher/i, 'grinder'],
  [/planer/i, 'sander'],
  [/safety glasses/i, 'glasses'],
  [/gloves/i, 'gloves'],
  [/ear defenders/i, 'ear-defenders'],
  [/boots/i, 'boots'],
];

export function productGlyph(name: string, fallback: Glyph): Glyph {
  return PRODUCT_GLYPHS.find(([re]) => re.test(name))?.[1] ?? fallback;
}

export interface ProductArt {
  glyph: Glyph;
  finish: string;
  background: string;
}

export interface BuiltStore {
  store: SeedStore;
  products: SeedProductRow[];
  features: SeedFeature[];
  options: SeedOption[];
  /** [productId, relatedProductId, type, sequence] */
  associations: [string, string, 'RELATED' | 'ACCESSORY', number][];
  /** Products with a downloadable spec sheet. */
  specSheets: string[];
  reviews: SeedReview[];
  /** [categoryId, productId, sequence] */
  productCategories: [string, string, number][];
  art: Map<string, ProductArt>;
  variants: BuiltVariants;
}

/** The rows of the products sold in variants (decision 112), for the variant tables. */
export interface BuiltVariants {
  options: { productId: string; optionId: string; name: string; position: number }[];
  values: {
    productId: string;
    optionId: string;
    valueId: string;
    label: string;
    position: number;
    swatchColor: string | null;
  }[];
  variants: {
    productId: string;
    variantId: string;
    position: number;
    option1ValueId: string | null;
    option2ValueId: string | null;
    option3ValueId: string | null;
    title: string;
    sku: string;
    listPrice: number;
    salePrice: number | null;
    weightGrams: number;
    stockQuantity: number;
    enabled: boolean;
  }[];
  /** Pictures of their own (media rows whose keys the seed draws), and which variant shows which. */
  media: { mediaId: string; storageKey: string; altText: string }[];
  images: { productId: string; mediaId: string; altText: string; sequenceNum: number }[];
  variantImages: { productId: string; variantId: string; mediaId: string; position: number }[];
}

/** Dollars as the catalog writes them: $219 is 21899 cents, as a shop's price ends in .99. */
const cents = (dollars: number) => Math.round(dollars * 100) - (dollars >= 10 ? 1 : 0);
const effective = (v: { listPrice: number; salePrice: number | null }) => v.salePrice ?? v.listPrice;
const skuPart = (label: string) => label.toUpperCase().replace(/[^A-Z0-9]+/g, '');

/**
 * Turns a store's products sold in variants into the variant tables' rows and sets each product's
 * copy of them the way refreshProductRollup does (decision 112): price from the cheapest enabled
 * variant (ties: the first), the highest, SKU and weight of the first, the stock totals, the words.
 * The first variant keeps the product's id and SKU: past orders of the product name it.
 */
function buildVariants(store: SeedStore, products: SeedProductRow[], art: Map<string, ProductArt>): BuiltVariants {
  const out: BuiltVariants = { options: [], values: [], variants: [], media: [], images: [], variantImages: [] };
  for (const spec of store.variants ?? ([] as SeedVariantProduct[])) {
    const p = products.find((x) => x.productName === spec.product);
    if (!p) throw new Error(`seed: no product named ${spec.product} in ${store.tenantId}`);
    const id = p.productId;
    const valueIds = spec.options.map((o, oi) => {
      const optionId = `${id}-O${oi + 1}`;
      out.options.push({ productId: id, optionId, name: o.name, position: oi + 1 });
      return new Map(
        o.values.map((v, vi) => {
          const valueId = `${optionId}-V${vi + 1}`;
          out.values.push({
            productId: id,
            optionId,
            valueId,
            label: v.label,
            position: vi + 1,
            swatchColor: v.swatch ?? null,
          });
          return [v.label, valueId] as const;
        }),
      );
    });
    const first = spec.options[0];
    const pictureOf = new Map<string, string>();
    if (spec.pictures && first) {
      const own = art.get(id.toLowerCase()) as ProductArt;
      first.values.forEach((v, vi) => {
        const key = `${id.toLowerCase()}-${skuPart(v.label).toLowerCase()}`;
        art.set(key, { ...own, finish: v.swatch ?? own.finish });
        // A media id is 32 hex digits, as an upload's (the editor's contract refuses any other), made
        // from the picture's name so the seed stays the same run after run.
        const mediaId = createHash('md5').update(`${store.tenantId}/${key}`).digest('hex');
        const altText = `${p.productName}, ${v.label}`;
        out.media.push({ mediaId, storageKey: `seed/${store.tenantId}/products/${key}-detail.webp`, altText });
        out.images.push({ productId: id, mediaId, altText, sequenceNum: vi + 1 });
        pictureOf.set(v.label, mediaId);
      });
    }
    const rows = spec.variants.map((v, i) => {
      const valueId = (o: number) => {
        const label = v.values[o];
        if (label === undefined) return null;
        const found = valueIds[o]?.get(label);
        if (!found) throw new Error(`seed: ${spec.product} has no ${label}`);
        return found;
      };
      const variantId = i === 0 ? id : `${id}-V${i + 1}`;
      const picture = pictureOf.get(v.values[0] as string);
      if (picture) out.variantImages.push({ productId: id, variantId, mediaId: picture, position: 1 });
      return {
        productId: id,
        variantId,
        position: i + 1,
        option1ValueId: valueId(0),
        option2ValueId: valueId(1),
        option3ValueId: valueId(2),
        title: v.values.join(' / '),
        sku: i === 0 ? p.sku : `${p.sku}-${v.values.map(skuPart).join('-')}`,
        listPrice: cents(v.price),
        salePrice: v.sale ? cents(v.sale) : null,
        weightGrams: p.weightGrams,
        stockQuantity: v.stock,
        enabled: v.enabled ?? true,
      };
    });
    out.variants.push(...rows);
    const enabled = rows.filter((r) => r.enabled);
    const priced = enabled.length ? enabled : rows;
    // The cheapest, the first among equals (array order is position order): refreshProductRollup's rule.
    const cheapest = priced.reduce((a, b) => (effective(b) < effective(a) ? b : a));
    p.listPrice = cheapest.listPrice;
    p.salePrice = cheapest.salePrice;
    p.priceMax = Math.max(...priced.map(effective));
    p.sku = (rows[0] as (typeof rows)[number]).sku;
    p.variantCount = rows.length;
    p.stockQuantity = rows.reduce((n, r) => n + r.stockQuantity, 0);
    p.sellableStock = enabled.reduce((n, r) => n + r.stockQuantity, 0);
    p.variantWords = spec.options.flatMap((o) => [o.name, ...o.values.map((v) => v.label)]).join(' ');
  }
  return out;
}

export function buildStore(store: SeedStore): BuiltStore {
  const products: SeedProductRow[] = [];
  const productCategories: [string, string, number][] = [];
  const art = new Map<string, ProductArt>();
  const features: SeedFeature[] = [];
  const options: SeedOption[] = [];
  const associations: BuiltStore['associations'] = [];
  const specSheets: string[] = [];
  const reviews: SeedReview[] = [];
  const byCategory = new Map<string, string[]>();
  let n = 0;
  for (const cat of store.categories) {
    cat.items.forEach(([name, brand, list, sale], i) => {
      const productId = `${store.prefix}-${1001 + n}`;
      const h = hash(productId);
      const first = cat.features[h % cat.features.length] as string;
      const second = cat.features[(h + 1) % cat.features.length] as string;
      const third = cat.features[(h + 2) % cat.features.length] as string;
      // Every product has a picture (a shop's demo should not show the placeholder); a few have only
      // the large one, which cards fall back to.
      const images = n % 11 === 5 ? 'detail' : 'all';
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
          `The ${name} by ${brand.replace(/\.$/, '')}. ${cat.longDescription}`,
          `${first} ${second}`,
          `${third} Backed by ${brand}'s warranty and our ${store.prefix === 'GRD' ? '60' : '30'}-day returns.`,
        ].join('\n\n'),
        smallImageUrl: images === 'all' ? img('small') : null,
        mediumImageUrl: images === 'all' ? img('medium') : null,
        detailImageUrl: img('detail'),
        listPrice: Math.round(list * 100) - (list >= 10 ? 1 : 0),
        salePrice: sale ? Math.round(sale * 100) - (sale >= 10 ? 1 : 0) : null,
        currencyUomId: 'USD',
        stockQuantity: stock,
        weightGrams: Math.round(cat.weight * (0.6 + (h % 80) / 100)),
        isFeatured: n % 7 === 0,
        introductionDate: new Date(CATALOG_EPOCH - ((n * 37) % 240) * DAY),
        productType: n % 10 === 3 ? 'CONFIGURABLE' : 'FINISHED_GOOD',
        categoryNames: [
          cat.name,
          cat.description,
          ...store.subcategories.filter((x) => x.parent === cat.id && x.match.test(name)).map((x) => x.name),
        ]
          .filter(Boolean)
          .join(' '),
      });
      productCategories.push([cat.id, productId, i]);
      for (const sub of store.subcategories) {
        if (sub.parent === cat.id && sub.match.test(name)) productCategories.push([sub.id, productId, i]);
      }
      byCategory.set(cat.id, [...(byCategory.get(cat.id) ?? []), productId]);
      const weight = Math.round(cat.weight * (0.6 + (h % 80) / 100));
      [
        ['Brand', brand],
        ['Collection', name.split(' ')[0] as string],
        ['Shipping weight', weight >= 1000 ? `${(weight / 1000).toFixed(1)} kg` : `${weight} g`],
        ['Warranty', `${1 + (hash(brand) % 5)} years`],
        ['Category', cat.description],
      ].forEach(([label, value], k) => {
        features.push({
          productId,
          featureId: `F${k + 1}`,
          label: label as string,
          value: value as string,
          sequenceNum: k,
        });
      });
      if (n % 10 === 3) {
        (OPTION_SETS[store.prefix] ?? []).forEach((o, k) => {
          options.push({
            productId,
            optionId: `OPT${k + 1}`,
            optionName: o.name,
            sequenceNum: k,
            choices: o.choices.map(([label, priceDelta], c) => ({
              choiceId: `C${c + 1}`,
              label,
              priceDelta,
              isDefault: priceDelta === 0 && !o.choices.slice(0, c).some(([, d]) => d === 0),
            })),
          });
        });
      }
      if (n % 3 === 1) specSheets.push(productId);
      // Most products have a few reviews; the ratings lean positive, as real shops' do.
      const reviewCount = h % 5 === 0 ? 0 : h % 13;
      for (let r = 0; r < reviewCount; r++) {
        const rh = hash(`${productId}-${r}`);
        const rating = [5, 5, 5, 4, 4, 4, 3, 2][rh % 8] as number;
        const texts = REVIEW_TEXT[rating] as [string, string][];
        const [title, body] = texts[rh % texts.length] as [string, string];
        reviews.push({
          reviewId: `${productId}-R${String(r + 1).padStart(2, '0')}`,
          productId,
          authorName: REVIEWERS[rh % REVIEWERS.length] as string,
          rating,
          title,
          body,
          createdAt: new Date(CATALOG_EPOCH + ((rh % 50) + 1) * DAY),
        });
      }
      art.set(productId.toLowerCase(), {
        glyph: productGlyph(name, cat.glyph),
        finish: store.brandColors?.[brand] ?? (store.art.finishes[h % store.art.finishes.length] as string),
        background: store.art.backgrounds[(h >>> 3) % store.art.backgrounds.length] as string,
      });
      n++;
    });
  }
  // Related: the next products of the same category; accessory: one from the next category.
  const cats = [...byCategory.keys()];
  cats.forEach((catId, ci) => {
    const ids = byCategory.get(catId) as string[];
    const other = byCategory.get(cats[(ci + 1) % cats.length] as string) as string[];
    ids.forEach((id, i) => {
      for (let k = 1; k <= 4 && k < ids.length; k++)
        associations.push([id, ids[(i + k) % ids.length] as string, 'RELATED', k]);
      associations.push([id, other[i % other.length] as string, 'ACCESSORY', 10]);
    });
  });
  const variants = buildVariants(store, products, art);
  return { store, products, productCategories, art, features, options, associations, specSheets, reviews, variants };
}

let built: BuiltStore[] | undefined;
export function builtStores(): BuiltStore[] {
  built ??= SEED_STORES.map(buildStore);
  return built;
}
