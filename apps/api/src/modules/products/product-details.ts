import type { ProductDetails } from '@app/contracts';
import type { Db } from '@app/db';
import { sql } from 'drizzle-orm';
import { estimateBytes, type MemoryAccount, type MemoryBudget } from '../../lib/memory-budget';
import { StoreGenerations } from '../../lib/store-generations';

/** A product card's columns as the one statement returns them (snake_case stays in SQL). */
export interface DetailsCardRow {
  productId: string;
  productName: string;
  slug: string;
  brandName: string | null;
  smallImageUrl: string | null;
  mediumImageUrl: string | null;
  detailImageUrl: string | null;
  listPrice: number;
  salePrice: number | null;
  effectivePrice: number | null;
  currencyUomId: string;
  stockQuantity: number;
  productType: string;
  priceMax: number;
  variantCount: number;
  sellableStock: number;
}

/** A variant a shopper can choose (enabled, not removed), as the one statement returns it. */
export interface DetailsVariantRow {
  variantId: string;
  title: string;
  valueIds: (string | null)[];
  sku: string;
  barcode: string | null;
  listPrice: number;
  salePrice: number | null;
  effectivePrice: number;
  stockQuantity: number;
  imageIds: string[];
}

/** Everything the product page shows, as the one statement of `readDetailsRow` returns it. */
export interface DetailsRow extends DetailsCardRow {
  sku: string;
  shortDescription: string | null;
  description: string | null;
  weightGrams: number | null;
  status: 'DRAFT' | 'ACTIVE' | 'ARCHIVED';
  features: { label: string; value: string }[];
  options: {
    optionId: string;
    optionName: string;
    choices: { choiceId: string; label: string; priceDelta: number; isDefault: boolean }[];
  }[];
  contents: { contentId: string; title: string; fileName: string }[];
  related: (DetailsCardRow & {
    type: 'RELATED' | 'ACCESSORY';
    ratingAverage: string | number | null;
    ratingCount: number;
  })[];
  distribution: { rating: number; n: number }[];
  latest: {
    authorName: string;
    rating: number;
    title: string | null;
    body: string | null;
    createdAt: string;
    replyBody: string | null;
    repliedAt: string | null;
  }[];
  crumbs: { productCategoryId: string; categoryName: string | null; description: string | null }[];
  images: { mediaId: string; storageKey: string; altText: string | null; mediaAlt: string | null }[];
  variantOptions: {
    optionId: string;
    name: string;
    position: number;
    values: { valueId: string; label: string; swatchColor: string | null; swatchMediaId: string | null }[];
  }[];
  variants: DetailsVariantRow[];
}

/** The columns of a card, for the product itself (p) and each related product (rp). */
const cardJson = (a: string) =>
  sql.raw(`'productId', ${a}.product_id, 'productName', ${a}.product_name, 'slug', ${a}.slug,
    'brandName', ${a}.brand_name, 'smallImageUrl', ${a}.small_image_url, 'mediumImageUrl', ${a}.medium_image_url,
    'detailImageUrl', ${a}.detail_image_url, 'listPrice', ${a}.list_price, 'salePrice', ${a}.sale_price,
    'effectivePrice', ${a}.effective_price, 'currencyUomId', ${a}.currency_uom_id,
    'stockQuantity', ${a}.stock_quantity, 'productType', ${a}.product_type, 'priceMax', ${a}.price_max,
    'variantCount', ${a}.variant_count, 'sellableStock', ${a}.sellable_stock`);

/**
 * The product page's data in one statement: the product, its variant options and the variants a
 * shopper can choose (with their pictures), its features, configuration options with their choices,
 * downloads, pictures, related products with their ratings, the review summary and the latest
 * reviews, and the breadcrumb up the category rollup (first category, first parent at each level,
 * at most six, no loop). It used to take fifteen to twenty statements; on PGlite, where statements
 * run one after another on one connection, each round trip counted.
 */
export async function readDetailsRow(db: Db, tenantId: string, productId: string): Promise<DetailsRow | undefined> {
  const t = tenantId;
  const id = productId;
  const result = await db.execute(sql`
    WITH RECURSIVE crumb(depth, id, path) AS (
      (SELECT 0, pc.product_category_id, ARRAY[pc.product_category_id]
         FROM product_categories pc
        WHERE pc.tenant_id = ${t} AND pc.product_id = ${id}
        ORDER BY pc.sequence_num, pc.product_category_id
        LIMIT 1)
      UNION ALL
      SELECT c.depth + 1, nxt.pid, c.path || nxt.pid
        FROM crumb c
        CROSS JOIN LATERAL (
          SELECT r.parent_product_category_id AS pid
            FROM category_rollups r
           WHERE r.tenant_id = ${t} AND r.product_category_id = c.id
           ORDER BY r.sequence_num, r.parent_product_category_id
           LIMIT 1) nxt
       WHERE c.depth < 5 AND NOT (nxt.pid = ANY (c.path))
    )
    SELECT json_build_object(${cardJson('p')},
      'sku', p.sku, 'shortDescription', p.short_description, 'description', p.description,
      'weightGrams', p.weight_grams, 'status', p.status,
      'features', (SELECT coalesce(json_agg(json_build_object('label', f.label, 'value', f.value)
                     ORDER BY f.sequence_num, f.feature_id), '[]')
                     FROM product_features f WHERE f.tenant_id = ${t} AND f.product_id = ${id}),
      'options', (SELECT coalesce(json_agg(json_build_object('optionId', o.option_id, 'optionName', o.option_name,
                     'choices', (SELECT coalesce(json_agg(json_build_object('choiceId', ch.choice_id, 'label', ch.label,
                                   'priceDelta', ch.price_delta, 'isDefault', ch.is_default)
                                   ORDER BY ch.sequence_num, ch.choice_id), '[]')
                                   FROM product_config_choices ch
                                  WHERE ch.tenant_id = ${t} AND ch.product_id = ${id} AND ch.option_id = o.option_id))
                     ORDER BY o.sequence_num, o.option_id), '[]')
                     FROM product_config_options o WHERE o.tenant_id = ${t} AND o.product_id = ${id}),
      'contents', (SELECT coalesce(json_agg(json_build_object('contentId', c.content_id, 'title', c.title,
                     'fileName', c.file_name) ORDER BY c.content_id), '[]')
                     FROM product_contents c WHERE c.tenant_id = ${t} AND c.product_id = ${id}),
      'related', (SELECT coalesce(json_agg(json_build_object('type', a.assoc_type, ${cardJson('rp')},
                     'ratingAverage', rr.average, 'ratingCount', rr.n)
                     ORDER BY a.sequence_num, a.related_product_id), '[]')
                     FROM product_associations a
                     JOIN products rp ON rp.tenant_id = a.tenant_id AND rp.product_id = a.related_product_id
                                     AND rp.status = 'ACTIVE' AND rp.product_id <> ${id}
                     CROSS JOIN LATERAL (
                       SELECT avg(rv.rating) AS average, count(*)::int AS n
                         FROM product_reviews rv
                        WHERE rv.tenant_id = ${t} AND rv.product_id = rp.product_id AND rv.status = 'PUBLISHED') rr
                    WHERE a.tenant_id = ${t} AND a.product_id = ${id}),
      'distribution', (SELECT coalesce(json_agg(json_build_object('rating', d.rating, 'n', d.n)), '[]')
                         FROM (SELECT rv.rating, count(*)::int AS n FROM product_reviews rv
                                WHERE rv.tenant_id = ${t} AND rv.product_id = ${id} AND rv.status = 'PUBLISHED'
                                GROUP BY rv.rating) d),
      'latest', (SELECT coalesce(json_agg(json_build_object('authorName', l.author_name, 'rating', l.rating,
                   'title', l.title, 'body', l.body, 'createdAt', l.created_at, 'replyBody', l.reply_body,
                   'repliedAt', l.replied_at) ORDER BY l.created_at DESC, l.review_id), '[]')
                   FROM (SELECT * FROM product_reviews rv
                          WHERE rv.tenant_id = ${t} AND rv.product_id = ${id} AND rv.status = 'PUBLISHED'
                          ORDER BY rv.created_at DESC, rv.review_id LIMIT 3) l),
      'crumbs', (SELECT coalesce(json_agg(json_build_object('productCategoryId', k.product_category_id,
                   'categoryName', k.category_name, 'description', k.description) ORDER BY c.depth DESC), '[]')
                   FROM crumb c JOIN categories k ON k.tenant_id = ${t} AND k.product_category_id = c.id),
      'variantOptions', (SELECT coalesce(json_agg(json_build_object('optionId', o.option_id, 'name', o.name,
                     'position', o.position,
                     'values', (SELECT coalesce(json_agg(json_build_object('valueId', ov.value_id, 'label', ov.label,
                                   'swatchColor', ov.swatch_color, 'swatchMediaId', ov.swatch_media_id)
                                   ORDER BY ov.position, ov.value_id), '[]')
                                  FROM product_option_values ov
                                 WHERE ov.tenant_id = ${t} AND ov.product_id = ${id} AND ov.option_id = o.option_id))
                     ORDER BY o.position), '[]')
                     FROM product_options o WHERE o.tenant_id = ${t} AND o.product_id = ${id}),
      'variants', (SELECT coalesce(json_agg(json_build_object('variantId', v.variant_id, 'title', v.title,
                     'valueIds', json_build_array(v.option1_value_id, v.option2_value_id, v.option3_value_id),
                     'sku', v.sku, 'barcode', v.barcode, 'listPrice', v.list_price, 'salePrice', v.sale_price,
                     'effectivePrice', v.effective_price, 'stockQuantity', v.stock_quantity,
                     'imageIds', (SELECT coalesce(json_agg(vi.media_id ORDER BY vi.position, vi.media_id), '[]')
                                    FROM product_variant_images vi
                                   WHERE vi.tenant_id = ${t} AND vi.variant_id = v.variant_id))
                     ORDER BY v.position, v.variant_id), '[]')
                     FROM product_variants v
                    WHERE v.tenant_id = ${t} AND v.product_id = ${id} AND v.enabled AND v.removed_at IS NULL),
      'images', (SELECT coalesce(json_agg(json_build_object('mediaId', im.media_id, 'storageKey', m.storage_key, 'altText', im.alt_text,
                   'mediaAlt', m.alt_text) ORDER BY im.sequence_num, im.media_id), '[]')
                   FROM product_images im
                   JOIN media m ON m.tenant_id = im.tenant_id AND m.media_id = im.media_id
                  WHERE im.tenant_id = ${t} AND im.product_id = ${id})
    ) AS details
    FROM products p
    WHERE p.tenant_id = ${t} AND p.product_id = ${id}`);
  const row = (result as unknown as { rows: { details: DetailsRow | string }[] }).rows[0];
  if (!row) return undefined;
  // node-postgres parses json; PGlite does too, but a driver that hands text back is read the same.
  return typeof row.details === 'string' ? (JSON.parse(row.details) as DetailsRow) : row.details;
}

interface Remembered {
  details: ProductDetails;
  /** The low-stock threshold the page was computed with ("only N left" of the product and its cards). */
  low: number;
  /** The product and the related products it shows: a change to any of them drops the page. */
  refs: string[];
  expires: number;
  /** Its estimated size in memory, charged to the process's budget with its store's other pages. */
  bytes: number;
}

/**
 * Product pages kept in memory, per store, as the search index keeps cards: a page whose product,
 * related products, stock or reviews change is dropped at once by the catalog's events (from this
 * process or another), and a read that such a change overtook is not kept. The TTL bounds the
 * staleness of what no event names (a picture's alt text edited in the media library), as the
 * public read cache's does.
 *
 * Memory is bounded twice: pages per store (the least recently read go first) and pages in all
 * (the least recently used stores go first, whole), so a thousand small stores fit in one process
 * and one big store cannot push every other out page by page.
 */
export class DetailsMemory {
  private stores = new Map<string, Map<string, Remembered>>();
  private size = 0;
  private generations = new StoreGenerations();
  /** Each store's pages are one entry of the process's memory budget (decision 124). */
  private readonly account?: MemoryAccount;

  constructor(
    private readonly perStore = 1_000,
    private readonly total = 5_000,
    private readonly ttlMs = 30_000,
    memory?: MemoryBudget,
  ) {
    this.account = memory?.account('product pages', (tenantId) => this.dropStore(tenantId));
  }

  private dropStore(tenantId: string) {
    const store = this.stores.get(tenantId);
    if (!store) return;
    this.size -= store.size;
    this.stores.delete(tenantId);
    this.account?.release(tenantId);
  }

  private charge(tenantId: string, store: Map<string, Remembered>, touch: boolean) {
    if (!this.account) return;
    let bytes = 0;
    for (const page of store.values()) bytes += page.bytes;
    if (touch) this.account.charge(tenantId, bytes);
    else this.account.resize(tenantId, bytes);
  }

  /** A token to hand back to `set`: a change in between makes `set` keep nothing. */
  generation(tenantId: string): string {
    return this.generations.of(tenantId);
  }

  get(tenantId: string, key: string, low: number): ProductDetails | undefined {
    const store = this.stores.get(tenantId);
    const hit = store?.get(key);
    if (!store || !hit) return undefined;
    if (hit.expires <= Date.now() || hit.low !== low) {
      store.delete(key);
      this.size--;
      this.charge(tenantId, store, false);
      return undefined;
    }
    // Most recently used last, for the store and for the page within it.
    this.stores.delete(tenantId);
    this.stores.set(tenantId, store);
    this.account?.touch(tenantId);
    store.delete(key);
    store.set(key, hit);
    return hit.details;
  }

  set(tenantId: string, key: string, generation: string, value: Omit<Remembered, 'expires' | 'bytes'>) {
    if (this.total <= 0 || this.generation(tenantId) !== generation) return;
    const store = this.stores.get(tenantId) ?? new Map<string, Remembered>();
    // Most recently used store last: the eviction below takes stores from the front.
    this.stores.delete(tenantId);
    this.stores.set(tenantId, store);
    if (!store.has(key)) this.size++;
    const bytes = this.account ? estimateBytes(value.details) + 64 * value.refs.length + 128 : 0;
    store.set(key, { ...value, expires: Date.now() + this.ttlMs, bytes });
    while (store.size > this.perStore) {
      store.delete(store.keys().next().value as string);
      this.size--;
    }
    for (const other of this.stores.keys()) {
      if (this.size <= this.total || other === tenantId) break;
      this.dropStore(other);
    }
    this.charge(tenantId, store, true);
  }

  /**
   * Product ids a shopper asked for that the store does not show (none such, a draft, archived):
   * without this, a bot walking ids costs a database statement per request. Kept apart from the
   * pages and bounded on their own, so a walk of unknown ids cannot push real pages out; dropped,
   * as the pages are, by the product's own catalog event (its creation or publication).
   */
  private misses = new Map<string, Map<string, number>>();
  private static readonly MISSES_PER_STORE = 256;
  private static readonly MISSES_STORES = 1_000;

  isMissing(tenantId: string, productId: string): boolean {
    const store = this.misses.get(tenantId);
    const expires = store?.get(productId);
    if (expires === undefined) return false;
    if (expires > Date.now()) return true;
    store?.delete(productId);
    return false;
  }

  setMissing(tenantId: string, productId: string, generation: string) {
    if (this.total <= 0 || this.generation(tenantId) !== generation) return;
    let store = this.misses.get(tenantId);
    if (!store) {
      if (this.misses.size >= DetailsMemory.MISSES_STORES)
        this.misses.delete(this.misses.keys().next().value as string);
      store = new Map();
      this.misses.set(tenantId, store);
    }
    store.delete(productId);
    store.set(productId, Date.now() + this.ttlMs);
    if (store.size > DetailsMemory.MISSES_PER_STORE) store.delete(store.keys().next().value as string);
  }

  /** The store's pages that show any of these products, or all of its pages. */
  drop(tenantId: string, productIds?: string[]) {
    this.generations.changed(tenantId);
    const misses = this.misses.get(tenantId);
    if (misses) {
      if (productIds) for (const id of productIds) misses.delete(id);
      else this.misses.delete(tenantId);
    }
    const store = this.stores.get(tenantId);
    if (!store) return;
    if (!productIds) {
      this.dropStore(tenantId);
      return;
    }
    const changed = new Set(productIds);
    for (const [key, page] of store) {
      if (page.refs.some((id) => changed.has(id))) {
        store.delete(key);
        this.size--;
      }
    }
    this.charge(tenantId, store, false);
  }

  clear() {
    this.generations.allChanged();
    this.misses.clear();
    this.stores.clear();
    this.size = 0;
    this.account?.releaseAll();
  }

  stats() {
    return { stores: this.stores.size, pages: this.size };
  }
}
