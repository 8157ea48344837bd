import { categoryLabel, type FeedSkipped, type FeedSkipReason, isDisplayableImage } from '@app/contracts';
import { type Db, variantOptionsOf, variantOptionsSql } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';
import { FEED_TAIL, type FeedItem, feedHead, itemXml, normaliseGtin, plainText } from './feed-xml';

/** Products read per query: a keyset page on (tenant_id, product_id), so memory stays flat whatever the catalog. */
export const FEED_PAGE_SIZE = 500;
/** Skipped products kept per build for the owner's page (the count of all of them is kept too). */
export const SKIPPED_KEPT = 200;

export interface FeedStore {
  tenantId: string;
  productStoreId: string;
  storeName: string;
  /** scheme://host[:port] of the store's canonical host: every link in the feed is on it. */
  origin: string;
}

export interface FeedBuildStats {
  productCount: number;
  /** Items written: one per listed single-variant product, one per enabled live variant of the others. */
  itemCount: number;
  skipped: FeedSkipped[];
  skippedTotal: number;
}

type Row = Record<string, unknown>;
const rowsOf = (res: unknown) => (res as { rows: Row[] }).rows;
const str = (v: unknown) => (v == null ? null : String(v));
const seg = encodeURIComponent;
const list = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

const GTIN_LABELS = ['gtin', 'upc', 'ean', 'isbn', 'gtin-13', 'gtin-12', 'ean-13'];
const MPN_LABELS = ['mpn', 'manufacturer part number', 'part number', 'model number'];

/**
 * The store's categories as the storefront reaches them (its catalogs' top categories and their
 * rollup children, as the sitemap lists them), each with its path from the top ("Lighting > Pendants").
 */
async function storeCategories(db: Db, store: FeedStore): Promise<Map<string, string>> {
  const t = store.tenantId;
  const rows = rowsOf(
    await db.execute(sql`
      WITH RECURSIVE cats(id, parent, depth) AS (
        SELECT cc.product_category_id, NULL::text, 0 FROM catalog_categories cc
          JOIN catalogs c ON c.tenant_id = cc.tenant_id AND c.prod_catalog_id = cc.prod_catalog_id
        WHERE c.tenant_id = ${t} AND c.product_store_id = ${store.productStoreId}
        UNION
        SELECT r.product_category_id, r.parent_product_category_id, cats.depth + 1
          FROM category_rollups r JOIN cats ON r.parent_product_category_id = cats.id
        WHERE r.tenant_id = ${t} AND cats.depth < 8
      )
      SELECT DISTINCT ON (cats.id) cats.id, cats.parent, c.category_name, c.description
        FROM cats JOIN categories c ON c.tenant_id = ${t} AND c.product_category_id = cats.id
      ORDER BY cats.id, cats.depth`),
  );
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  const paths = new Map<string, string>();
  for (const [id] of byId) {
    const names: string[] = [];
    let cur: Row | undefined = byId.get(id);
    const seen = new Set<string>();
    while (cur && !seen.has(String(cur.id))) {
      seen.add(String(cur.id));
      names.unshift(
        categoryLabel({
          productCategoryId: String(cur.id),
          categoryName: str(cur.category_name),
          description: str(cur.description),
        }),
      );
      cur = cur.parent == null ? undefined : byId.get(String(cur.parent));
    }
    paths.set(id, names.join(' > '));
  }
  return paths;
}

/**
 * The products the feed may list, one keyset page after `after`: ACTIVE (what shoppers see), in
 * stock (the catalog has no backorders: a product at 0 cannot be bought), in one of the store's
 * categories. The page of the feed and the tests' count use this one condition.
 */
export function eligibleProducts(tenantId: string, categoryIds: readonly string[], extra: SQL = sql``): SQL {
  // A product with several variants is listed while an enabled one has stock (sellable_stock); one
  // with a single variant by its own count, as before variants.
  return sql`FROM products p
    WHERE p.tenant_id = ${tenantId} AND p.status = 'ACTIVE' AND p.stock_quantity > 0
      AND (p.variant_count <= 1 OR p.sellable_stock > 0)
      AND EXISTS (SELECT 1 FROM product_categories pc
        WHERE pc.tenant_id = p.tenant_id AND pc.product_id = p.product_id AND pc.product_category_id IN (${list(categoryIds)}))
      ${extra}`;
}

function absolute(origin: string, url: string): string {
  return url.startsWith('/') ? `${origin}${url}` : url;
}

/**
 * Writes the whole feed of one store through `write`, reading the catalog a page at a time and
 * writing each page's items before reading the next (`write` resolves when the chunk may be
 * followed by the next: a file's or socket's backpressure). Returns what was listed and skipped.
 */
export async function writeFeed(
  db: Db,
  store: FeedStore,
  write: (chunk: string) => Promise<void>,
  pageSize = FEED_PAGE_SIZE,
): Promise<FeedBuildStats> {
  const t = store.tenantId;
  const stats: FeedBuildStats = { productCount: 0, itemCount: 0, skipped: [], skippedTotal: 0 };
  await write(
    feedHead({
      title: store.storeName,
      link: `${store.origin}/`,
      description: `Products of ${store.storeName}`,
    }),
  );
  const paths = await storeCategories(db, store);
  const categoryIds = [...paths.keys()];
  let after = '';
  while (categoryIds.length > 0) {
    const rows = rowsOf(
      await db.execute(sql`
        SELECT p.product_id, p.product_name, p.slug, p.brand_name, p.short_description, p.description,
          p.small_image_url, p.medium_image_url, p.detail_image_url, p.list_price, p.sale_price, p.currency_uom_id,
          p.variant_count
        ${eligibleProducts(t, categoryIds, sql`AND p.product_id > ${after}`)}
        ORDER BY p.product_id LIMIT ${pageSize}`),
    );
    if (rows.length === 0) break;
    const ids = rows.map((r) => String(r.product_id));
    const [firstCategories, features, variantRows] = await Promise.all([
      db.execute(sql`
        SELECT DISTINCT ON (product_id) product_id, product_category_id FROM product_categories
        WHERE tenant_id = ${t} AND product_id IN (${list(ids)}) AND product_category_id IN (${list(categoryIds)})
        ORDER BY product_id, sequence_num, product_category_id`),
      db.execute(sql`
        SELECT product_id, lower(label) AS label, value FROM product_features
        WHERE tenant_id = ${t} AND product_id IN (${list(ids)})
          AND lower(label) IN (${list([...GTIN_LABELS, ...MPN_LABELS])})
        ORDER BY product_id, sequence_num`),
      pageVariants(db, t, ids),
    ]);
    const variantsOf = new Map<string, FeedVariant[]>();
    for (const v of variantRows) variantsOf.set(v.productId, [...(variantsOf.get(v.productId) ?? []), v]);
    const categoryOf = new Map(
      rowsOf(firstCategories).map((r) => [String(r.product_id), String(r.product_category_id)]),
    );
    const ids2 = new Map<string, { gtin: string | null; mpn: string | null }>();
    for (const f of rowsOf(features)) {
      const id = String(f.product_id);
      const cur = ids2.get(id) ?? { gtin: null, mpn: null };
      const label = String(f.label);
      if (!cur.gtin && GTIN_LABELS.includes(label)) cur.gtin = normaliseGtin(String(f.value));
      if (!cur.mpn && MPN_LABELS.includes(label)) cur.mpn = String(f.value).trim() || null;
      ids2.set(id, cur);
    }
    let chunk = '';
    for (const r of rows) {
      const id = String(r.product_id);
      const title = String(r.product_name);
      const listPrice = Number(r.list_price);
      const sale = r.sale_price == null ? null : Number(r.sale_price);
      const image = [r.detail_image_url, r.medium_image_url, r.small_image_url]
        .map(str)
        .find((u) => isDisplayableImage(u));
      const reasons: FeedSkipReason[] = [];
      if (!image) reasons.push('no_image');
      if (!(listPrice > 0)) reasons.push('no_price');
      if (reasons.length > 0 || !image) {
        stats.skippedTotal++;
        if (stats.skipped.length < SKIPPED_KEPT) stats.skipped.push({ productId: id, title, reasons });
        continue;
      }
      const codes = ids2.get(id);
      const category = categoryOf.get(id);
      const item: FeedItem = {
        id,
        title,
        description: plainText(str(r.description) || str(r.short_description) || title, 5000) || title,
        link: `${store.origin}/${seg(String(r.slug))}/${seg(id)}`,
        imageLink: absolute(store.origin, image),
        price: listPrice,
        salePrice: sale !== null && sale > 0 && sale < listPrice ? sale : null,
        currency: String(r.currency_uom_id),
        availability: 'in_stock',
        brand: str(r.brand_name)?.trim() || null,
        gtin: codes?.gtin ?? null,
        mpn: codes?.mpn ?? null,
        productType: category ? (paths.get(category) ?? null) : null,
      };
      const variants = variantsOf.get(id) ?? [];
      if (Number(r.variant_count) <= 1) {
        // A single-variant product keeps the item it had (its id, its own price and count); its barcode is its variant's.
        const barcode = variants[0]?.barcode ? normaliseGtin(variants[0].barcode) : null;
        chunk += itemXml({ ...item, gtin: barcode ?? item.gtin });
        stats.productCount++;
        stats.itemCount++;
        continue;
      }
      const grouped = variantItems(item, variants, store.origin);
      if (!grouped.ok) {
        stats.skippedTotal++;
        if (stats.skipped.length < SKIPPED_KEPT)
          stats.skipped.push({ productId: id, title, reasons: [grouped.reason] });
        continue;
      }
      for (const v of grouped.items) chunk += itemXml(v);
      stats.productCount++;
      stats.itemCount += grouped.items.length;
    }
    if (chunk) await write(chunk);
    after = ids[ids.length - 1] as string;
    if (rows.length < pageSize) break;
  }
  await write(FEED_TAIL);
  return stats;
}

/** An enabled live variant of a product with several, as its feed item needs it. */
interface FeedVariant {
  productId: string;
  variantId: string;
  /** [option name, value label] in the options' order. */
  options: [string, string][];
  barcode: string | null;
  listPrice: number;
  salePrice: number | null;
  stock: number;
  /** The variant's first picture (`/media/<key>`), if it has one. */
  image: string | null;
}

/** The enabled live variants of a page's products, with their option names and labels and first picture: one read. */
async function pageVariants(db: Db, tenantId: string, productIds: readonly string[]): Promise<FeedVariant[]> {
  if (!productIds.length) return [];
  const rows = rowsOf(
    await db.execute(sql`
      SELECT v.product_id, v.variant_id, v.barcode, v.list_price, v.sale_price, v.stock_quantity,
        ${variantOptionsSql('v')} AS options,
        (SELECT '/media/' || m.storage_key FROM product_variant_images vi
           JOIN media m ON m.tenant_id = vi.tenant_id AND m.media_id = vi.media_id
          WHERE vi.tenant_id = v.tenant_id AND vi.variant_id = v.variant_id
          ORDER BY vi.position LIMIT 1) AS image
      FROM product_variants v
      WHERE v.tenant_id = ${tenantId} AND v.product_id IN (${list(productIds)}) AND v.enabled AND v.removed_at IS NULL
      ORDER BY v.product_id, v.position, v.variant_id`),
  );
  return rows.map((r) => ({
    productId: String(r.product_id),
    variantId: String(r.variant_id),
    options: variantOptionsOf(r.options),
    barcode: str(r.barcode),
    listPrice: Number(r.list_price),
    salePrice: r.sale_price == null ? null : Number(r.sale_price),
    stock: Number(r.stock_quantity),
    image: str(r.image),
  }));
}

/** Options Google groups variants by, under its own attribute names. */
const ATTRIBUTES: Record<string, 'color' | 'size' | 'material' | 'pattern'> = {
  colour: 'color',
  color: 'color',
  size: 'size',
  material: 'material',
  pattern: 'pattern',
};
const GROUP_ID = /^[A-Za-z0-9_-]{1,50}$/;

/**
 * The items of a product with several variants: one per enabled live variant, `g:id` the variant's id,
 * `g:item_group_id` the product's; options named Colour, Size, Material or Pattern become Google's
 * attributes, the others go in the title ("Drill, 5 Ah"), since Google tells variants apart only by
 * its attributes. Price, sale price, availability, picture and GTIN are the variant's; the link
 * opens the product page on that variant.
 */
export function variantItems(
  product: FeedItem,
  variants: readonly FeedVariant[],
  origin: string,
): { ok: true; items: FeedItem[] } | { ok: false; reason: FeedSkipReason } {
  if (!GROUP_ID.test(product.id)) return { ok: false, reason: 'bad_group_id' };
  const items: FeedItem[] = [];
  const seen = new Set<string>();
  for (const v of variants) {
    const attrs: Partial<Record<'color' | 'size' | 'material' | 'pattern', string>> = {};
    const inTitle: string[] = [];
    for (const [name, label] of v.options) {
      const attr = ATTRIBUTES[name.trim().toLowerCase()];
      if (attr && !attrs[attr]) attrs[attr] = label;
      else inTitle.push(label);
    }
    const title = inTitle.length ? `${product.title}, ${inTitle.join(' / ')}` : product.title;
    const key = JSON.stringify([title, attrs.color, attrs.size, attrs.material, attrs.pattern]).toLowerCase();
    if (seen.has(key)) return { ok: false, reason: 'indistinct_variants' };
    seen.add(key);
    const sale = v.salePrice !== null && v.salePrice > 0 && v.salePrice < v.listPrice ? v.salePrice : null;
    if (!(v.listPrice > 0)) continue;
    items.push({
      ...product,
      id: v.variantId,
      itemGroupId: product.id,
      title,
      link: `${product.link}?variant=${seg(v.variantId)}`,
      imageLink: v.image ? absolute(origin, v.image) : product.imageLink,
      price: v.listPrice,
      salePrice: sale,
      availability: v.stock > 0 ? 'in_stock' : 'out_of_stock',
      gtin: (v.barcode ? normaliseGtin(v.barcode) : null) ?? product.gtin,
      color: attrs.color ?? null,
      size: attrs.size ?? null,
      material: attrs.material ?? null,
      pattern: attrs.pattern ?? null,
    });
  }
  return { ok: true, items };
}
