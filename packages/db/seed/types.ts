/** The shape of one seeded store, written as data so the seed reads like a shop's back office. */

/** How a category's image is stored: a hosted http image, only an object-storage key, or none. */
export type CategoryImage = 'http' | 's3' | 'none';

/** The drawing used for generated product and category pictures (see images.ts). */
export type Glyph =
  | 'pendant'
  | 'chandelier'
  | 'floor-lamp'
  | 'table-lamp'
  | 'desk-lamp'
  | 'sconce'
  | 'flush'
  | 'track'
  | 'vanity'
  | 'lantern'
  | 'path-light'
  | 'string'
  | 'bulb'
  | 'plant'
  | 'seedling'
  | 'seed-packet'
  | 'herb'
  | 'trowel'
  | 'shears'
  | 'watering-can'
  | 'hose'
  | 'pot'
  | 'raised-bed'
  | 'soil-bag'
  | 'birdhouse'
  | 'chair'
  | 'drill'
  | 'saw'
  | 'sander'
  | 'grinder'
  | 'wrench'
  | 'screwdriver'
  | 'hammer'
  | 'battery'
  | 'charger'
  | 'mower'
  | 'trimmer'
  | 'blower'
  | 'toolbox'
  | 'workbench'
  | 'helmet'
  | 'jacket'
  | 'pendant-globe'
  | 'pendant-cone'
  | 'pendant-linear'
  | 'pendant-woven'
  | 'paper-lantern'
  | 'dimmer'
  | 'led-strip'
  | 'spot-bulb'
  | 'tube-bulb'
  | 'pruning-saw'
  | 'lopper'
  | 'glasses'
  | 'gloves'
  | 'boots'
  | 'ear-defenders';

/** [product name, brand, list price in dollars, sale price in dollars or 0 for none] */
export type ItemRow = readonly [string, string, number, number?];

export interface SeedCategory {
  id: string;
  /** null exercises the label fallback (categoryName, else description, else id). */
  name: string | null;
  /** Short label: the footer shows it first. */
  description: string;
  longDescription: string;
  image: CategoryImage;
  glyph: Glyph;
  /** Sentences the product descriptions of this category draw on. */
  features: readonly string[];
  /** Typical shipping weight in grams. */
  weight: number;
  items: readonly ItemRow[];
}

/** A child category under a catalog category (a rollup edge); products join it by name. */
export interface SeedSubcategory {
  id: string;
  parent: string;
  name: string;
  match: RegExp;
}

export interface SeedCatalog {
  id: string;
  name: string;
  categories: readonly string[];
}

export interface SeedPage {
  id: string;
  title: string;
  url: string;
  links: readonly ('TOP' | 'MENU' | 'BOTTOM' | 'FOOTER')[];
  content: string;
}

export interface SeedBanner {
  id: string;
  title: string;
  subtitle: string;
  link: string;
  cta: string;
}

export interface SeedStore {
  tenantId: string;
  tenantName: string;
  productStoreId: string;
  storeName: string;
  hosts: readonly string[];
  canonicalHost: string;
  /** Three-letter prefix of product ids and SKUs. */
  prefix: string;
  settings: {
    template: string;
    colors: { primary: string; secondary: string; banner: string; action: string };
    headerTitle: string;
    headerDescription: string;
    pageTitle: string;
    promotionTitle: string | null;
    companyName: string;
    address1: string | null;
    address2: string | null;
    city: string | null;
    /** The state or province (US_CA): live carrier rates ship from it. */
    stateProvinceGeoId: string | null;
    countryGeoId: string | null;
    postalCode: string | null;
    emailAddress: string;
    countryCode: string | null;
    areaCode: string | null;
    contactNumber: string | null;
    newsletterEmbed: string | null;
  };
  /** Colours of the generated pictures: background tints and object finishes. */
  art: { backgrounds: readonly string[]; finishes: readonly string[] };
  /** Brand → finish colour for product pictures (power tools come in their brand's colour). */
  brandColors?: Readonly<Record<string, string>>;
  subcategories: readonly SeedSubcategory[];
  catalogs: readonly SeedCatalog[];
  categories: readonly SeedCategory[];
  pages: readonly SeedPage[];
  banners: readonly SeedBanner[];
  faqs: readonly (readonly [string, string])[];
  seo: readonly { route: string; title: string; description: string; keywords: string }[];
  /** The few products sold in variants; every other product has its one default variant. */
  variants?: readonly SeedVariantProduct[];
}

/**
 * A product sold in variants (decision 112): its options (at most three, in order) with their
 * values, and the combinations the store offers, each with its own price, stock and enabled flag.
 * A combination not listed is one the store does not make. The first variant keeps the product's
 * id and SKU, so the product's price ("from") and SKU stay what the catalog row says.
 */
export interface SeedVariantProduct {
  /** The product, by its name in its category's items. */
  product: string;
  options: readonly { name: string; values: readonly { label: string; swatch?: string }[] }[];
  /**
   * Pictures of its own, one per value of the first option, drawn in that value's swatch colour:
   * each variant shows the picture of its first value.
   */
  pictures?: boolean;
  /** values: one label per option; prices in dollars as ItemRow's. */
  variants: readonly { values: readonly string[]; price: number; sale?: number; stock: number; enabled?: boolean }[];
}
