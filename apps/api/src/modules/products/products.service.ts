import {
  type ConfigPrice,
  categoryLabel,
  type ProductDetails,
  type ProductListQuery,
  type ProductPage,
  type ProductSummary,
  type SearchQuery,
  type SearchResult,
  type SubcategoryResult,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { MemoryBudget } from '../../lib/memory-budget';
import { StoreValues } from '../../lib/store-generations';
import { absoluteMediaUrl } from '../../lib/urls';
import { createCategoryReads } from './category-reads';
import { DetailsMemory, readDetailsRow } from './product-details';
import {
  detailsOf,
  NO_RATING,
  type Rating,
  type SummaryRow,
  selectVariant,
  summaryColumns,
  summaryOf,
} from './product-summary';
import { createQueryComposer } from './query-words';
import {
  createSearchIndexes,
  type SearchIndexOptions,
  searchTsQuery,
  type TenantIndex,
  type TsQuery,
  tsQueryOf,
} from './search-index';
import {
  buildVocabulary,
  correctQuery,
  prefixTsQuery,
  queryWords,
  usesOperators,
  type Vocabulary,
} from './search-text';

const p = schema.products;
const pc = schema.productCategories;
const cat = schema.categories;
/** Before the store's threshold is known (tests that build the service alone): the column's default. */
const LOW_STOCK = 5;

type Sort = SearchQuery['sort'];
/** What a product card shows: its row and its rating. */
interface Card {
  row: SummaryRow;
  rating: Rating;
}
/** Cards kept per index, and parsed query texts kept in all: past these, the lot is dropped. */
const MAX_CARDS = 20_000;
const MAX_PARSED = 10_000;

export interface ProductsServiceOptions {
  searchIndex?: SearchIndexOptions;
  /** The store's low-stock threshold for "only N left" (the inventory module's thresholds). */
  lowStockThreshold?: (ctx: TenantContext) => Promise<number>;
  /** Product pages kept in memory, all stores together (0: none); a fifth of it per store at most. */
  productPagesInMemory?: number;
  /** The process's memory budget (decision 124): indexes, pages and store values are charged to it. */
  memory?: MemoryBudget;
}

/**
 * Stores whose values are kept at most, with a memory budget: the budget bounds them by size, so
 * the count is only a backstop. Without one, the old bound of a thousand stores.
 */
const keptStores = (memory?: MemoryBudget) => (memory ? 100_000 : 1_000);

export function createProductsService(db: Db, opts: ProductsServiceOptions = {}) {
  const indexes = createSearchIndexes(db, {
    ...opts.searchIndex,
    memory: opts.memory,
    // A patched index keeps the cards of the products that did not change.
    onPatched(_tenantId, from, to, productIds) {
      const kept = cards.get(from);
      if (!kept) return;
      const byId = new Map(kept.byId);
      for (const id of productIds) byId.delete(id);
      cards.set(to, { byId, version: 0 });
      kept.version++; // a read of the old index under way is not kept
    },
  });

  /** Product pages kept in memory, dropped by the same events as the cards (see DetailsMemory). */
  const pagesInMemory = opts.productPagesInMemory ?? 5_000;
  const detailsMemory = new DetailsMemory(Math.ceil(pagesInMemory / 5), pagesInMemory, undefined, opts.memory);

  /** Words a store's catalog knows (names, brands, categories), for typo correction. Cached. */
  const vocabularies = new StoreValues<Vocabulary>(5 * 60_000, keptStores(opts.memory), undefined, {
    memory: opts.memory,
    name: 'search vocabularies',
  });

  function vocabulary(tenantId: string): Promise<Vocabulary> {
    return vocabularies.get(tenantId, async () => {
      const rows = await db.execute<{ w: string }>(sql`
        SELECT DISTINCT w FROM ${p},
          regexp_split_to_table(lower(${p.productName} || ' ' || coalesce(${p.brandName}, '') || ' ' || ${p.categoryNames}), '[^[:alnum:]]+') AS w
        WHERE ${p.tenantId} = ${tenantId} AND ${p.status} = 'ACTIVE' AND length(w) > 2 AND w !~ '^[0-9]+$'`);
      return buildVocabulary((rows as unknown as { rows: { w: string }[] }).rows.map((r) => r.w));
    });
  }

  /**
   * Queries as PostgreSQL parses them, by text. The parse depends on the text alone (the text
   * search configuration is the same for every store), and shoppers repeat the same few texts with
   * other filters, sorts and pages: a repeated text needs no round trip to the database.
   */
  const parsedTexts = new Map<string, TsQuery>();
  const composer = createQueryComposer(db);
  /** The prefix query of typed words, composed when they are plain, else as PostgreSQL parses it. */
  async function prefixQuery(words: string[]): Promise<TsQuery | null> {
    const composed = await composer.prefix(words);
    if (composed) return composed;
    const prefix = prefixTsQuery(words);
    return prefix ? parsedQuery('prefix', prefix) : null;
  }
  async function parsedQuery(kind: 'search' | 'prefix', text: string): Promise<TsQuery> {
    // A text of plain words is composed from its words' analysis: new or repeated, no round trip
    // once its words are known.
    if (kind === 'search') {
      const composed = await composer.search(text);
      if (composed) return composed;
    }
    const key = `${kind}\u0000${text}`;
    const hit = parsedTexts.get(key);
    if (hit) return hit;
    const parsed = await tsQueryOf(db, kind === 'search' ? searchTsQuery(text) : sql`to_tsquery('simple', ${text})`);
    if (parsedTexts.size >= MAX_PARSED) parsedTexts.clear();
    parsedTexts.set(key, parsed);
    return parsed;
  }

  /**
   * The cards of products an index has put on a page, kept as long as that index lives: a page of
   * search results or of a category whose products have been shown before needs no database read.
   * They are as fresh as the index (its TTL, catalogChanged); a stock change or a new review drops
   * the cards it touches at once, and a read that such a change overtook is not kept.
   */
  const cards = new WeakMap<TenantIndex, { byId: Map<string, Card>; version: number }>();
  function cardsOf(index: TenantIndex) {
    let kept = cards.get(index);
    if (!kept) {
      kept = { byId: new Map(), version: 0 };
      cards.set(index, kept);
    }
    return kept;
  }
  function dropCards(tenantId: string, productIds?: string[]) {
    const index = indexes.loaded(tenantId);
    const kept = index && cards.get(index);
    if (!kept) return;
    kept.version++;
    if (productIds) for (const id of productIds) kept.byId.delete(id);
    else kept.byId.clear();
  }
  /** The cards of these products in this order (a product gone from the database is left out). */
  async function cardsFor(ctx: TenantContext, index: TenantIndex, ids: string[]): Promise<Card[]> {
    const kept = cardsOf(index);
    const missing = ids.filter((id) => !kept.byId.has(id));
    const read = new Map<string, Card>();
    if (missing.length) {
      const version = kept.version;
      // Only what a card shows, and the ratings, read side by side.
      const [rows, rated] = await Promise.all([
        db
          .select(summaryColumns)
          .from(p)
          .where(and(eq(p.tenantId, ctx.tenantId), inArray(p.productId, missing), eq(p.status, 'ACTIVE'))),
        ratings(ctx.tenantId, missing),
      ]);
      for (const row of rows) read.set(row.productId, { row, rating: rated.get(row.productId) ?? NO_RATING });
      if (kept.version === version) {
        if (kept.byId.size + read.size > MAX_CARDS) kept.byId.clear();
        for (const [id, card] of read) kept.byId.set(id, card);
      }
    }
    return ids.flatMap((id) => {
      const card = read.get(id) ?? kept.byId.get(id);
      return card ? [card] : [];
    });
  }

  async function ratings(tenantId: string, ids: string[]) {
    const r = schema.productReviews;
    if (!ids.length) return new Map<string, Rating>();
    const rows = await db
      .select({
        productId: r.productId,
        average: sql<string>`avg(${r.rating})`,
        count: sql<number>`count(*)::int`,
      })
      .from(r)
      .where(and(eq(r.tenantId, tenantId), inArray(r.productId, ids), eq(r.status, 'PUBLISHED')))
      .groupBy(r.productId);
    return new Map(
      rows.map((x) => [x.productId, { average: Math.round(Number(x.average) * 10) / 10, count: x.count }]),
    );
  }

  async function summaries(
    ctx: TenantContext,
    rows: SummaryRow[],
    rated?: Awaited<ReturnType<typeof ratings>>,
  ): Promise<ProductSummary[]> {
    rated ??= await ratings(
      ctx.tenantId,
      rows.map((r) => r.productId),
    );
    const low = opts.lowStockThreshold ? await opts.lowStockThreshold(ctx) : LOW_STOCK;
    return rows.map((r) => summaryOf(ctx, r, rated.get(r.productId) ?? NO_RATING, low));
  }

  /**
   * A page of products with the total and facets, answered by the tenant's search index (match,
   * rank, filters, facets, order); then the page's cards, from memory or read by id.
   */
  async function page(
    ctx: TenantContext,
    q: Omit<ProductListQuery, 'sort'> | Omit<SearchQuery, 'sort'>,
    sort: Sort,
    text?: string,
  ): Promise<ProductPage> {
    const [index, tsq] = await Promise.all([
      indexes.get(ctx.tenantId),
      text === undefined ? undefined : parsedQuery('search', text),
    ]);
    const counted = index.query({
      match: tsq ? index.match(tsq) : null,
      filters: {
        featured: 'featured' in q && q.featured === 'true',
        categoryId: q.productCategoryId,
        brands: q.brand?.length ? q.brand : undefined,
        priceMin: q.priceMin,
        priceMax: q.priceMax,
        inStock: q.inStock === 'true',
        options: q.option,
      },
      sort,
      relevance: tsq && text !== undefined ? { plan: index.rankPlan(tsq), text: text.toLowerCase() } : undefined,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    const page = await cardsFor(ctx, index, counted.ids);
    return {
      products: await summaries(
        ctx,
        page.map((c) => c.row),
        new Map(page.map((c) => [c.row.productId, c.rating])),
      ),
      total: counted.total,
      page: q.page,
      pageSize: q.pageSize,
      pageCount: Math.max(1, Math.ceil(counted.total / q.pageSize)),
      facets: counted.facets,
    };
  }

  const { categoryRow, breadcrumb, categoriesLike, categoryLists } = createCategoryReads(db, {
    memory: opts.memory,
    maxStores: keptStores(opts.memory),
  });

  /** The product's row; one a shopper may not see (draft, archived) only when `preview` says so. */
  async function productRow(ctx: TenantContext, productId: string, preview = false) {
    const [row] = await db
      .select()
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)));
    return row && (row.status === 'ACTIVE' || preview) ? row : undefined;
  }

  /** The product page as kept in memory, its default variant selected. */
  async function productPage(
    ctx: TenantContext,
    productId: string,
    view: { preview?: boolean } = {},
  ): Promise<ProductDetails> {
    const low = opts.lowStockThreshold ? await opts.lowStockThreshold(ctx) : LOW_STOCK;
    // The origin is part of the key: the page carries absolute media URLs of the host that asked.
    const key = `${ctx.origin}\u0000${productId}`;
    const notFound = () => AppError.notFound(`Product ${productId} does not exist in this store.`);
    if (!view.preview) {
      const hit = detailsMemory.get(ctx.tenantId, key, low);
      if (hit) return hit;
      if (detailsMemory.isMissing(ctx.tenantId, productId)) throw notFound();
    }
    const generation = detailsMemory.generation(ctx.tenantId);
    const row = await readDetailsRow(db, ctx.tenantId, productId);
    if (!row || (row.status !== 'ACTIVE' && !view.preview)) {
      detailsMemory.setMissing(ctx.tenantId, productId, generation);
      throw notFound();
    }
    const details = detailsOf(ctx, row, low);
    // A preview may show a draft: only what every shopper may see is kept.
    if (row.status === 'ACTIVE')
      detailsMemory.set(ctx.tenantId, key, generation, {
        details,
        low,
        refs: [productId, ...row.related.map((r) => r.productId)],
      });
    return details;
  }

  return {
    list(ctx: TenantContext, q: ProductListQuery): Promise<ProductPage> {
      return page(ctx, q, q.sort);
    },

    async search(ctx: TenantContext, q: SearchQuery): Promise<SearchResult> {
      let result = await page(ctx, q, q.sort, q.searchText);
      let searchedFor: string | null = null;
      if (result.total === 0 && !usesOperators(q.searchText)) {
        const corrected = correctQuery(queryWords(q.searchText), await vocabulary(ctx.tenantId));
        if (corrected) {
          const retry = await page(ctx, q, q.sort, corrected);
          if (retry.total > 0) {
            result = retry;
            searchedFor = corrected;
          }
        }
      }
      // Nothing at all: offer the store's biggest categories to browse instead.
      const suggestions = result.total === 0 ? (await indexes.get(ctx.tenantId)).topCategories(4) : [];
      return { ...result, searchText: q.searchText, searchedFor, suggestions };
    },

    /**
     * The tenant's catalog changed. With product ids alone (an edit, a few products): those are
     * patched into the loaded index and their cards dropped, no rebuild. Without ids, or when
     * categories changed (a rename, a move): the index and cards are read afresh.
     */
    catalogChanged(tenantId: string, change: { productIds?: string[]; categoryIds?: string[] } = {}) {
      vocabularies.drop(tenantId);
      if (change.productIds?.length && !change.categoryIds?.length) {
        detailsMemory.drop(tenantId, change.productIds);
        dropCards(tenantId, change.productIds);
        indexes.productsChanged(tenantId, change.productIds);
        return;
      }
      detailsMemory.drop(tenantId);
      dropCards(tenantId);
      categoryLists.drop(tenantId);
      indexes.invalidate(tenantId);
    },

    /** Stock of these products changed (an order took or gave back stock). */
    stockChanged(tenantId: string, productIds: string[]) {
      indexes.stockChanged(tenantId, productIds);
      detailsMemory.drop(tenantId, productIds);
      dropCards(tenantId, productIds);
    },

    /** Changes may have been missed (events lost): every store's index, cards and words are read afresh. */
    allChanged() {
      for (const { tenantId } of indexes.stats()) {
        dropCards(tenantId);
        indexes.invalidate(tenantId);
      }
      vocabularies.clear();
      categoryLists.clear();
      detailsMemory.clear();
    },

    /** A product's reviews changed: its cards and every page that shows it show the new rating. */
    reviewsChanged(tenantId: string, productId: string) {
      detailsMemory.drop(tenantId, [productId]);
      dropCards(tenantId, [productId]);
    },

    /** Builds the tenant's search index now if it is not loaded; figures of the loaded indexes. */
    async searchIndexStats(tenantId?: string) {
      if (tenantId) await indexes.get(tenantId);
      return indexes.stats();
    },

    /** How many full builds and incremental patches the search indexes have had (tests, benches). */
    searchIndexCounters() {
      return indexes.counters();
    },

    /**
     * Suggestions while the shopper types: products whose words start with what is typed (the last
     * word as a prefix), in the order the results page would show them (exact name, then names that
     * start with the text, then relevance), from the tenant's index; categories by name or
     * description.
     */
    async autocomplete(ctx: TenantContext, text: string) {
      const words = queryWords(text);
      if (!words.length) return { products: [], categories: [] };
      const lower = text.toLowerCase();
      const [index, tsq, firstCats] = await Promise.all([
        indexes.get(ctx.tenantId),
        prefixQuery(words),
        categoriesLike(ctx, lower),
      ]);
      if (!tsq) return { products: [], categories: [] };
      let top = index.best(index.match(tsq), { plan: index.rankPlan(tsq), text: lower }, 6);
      let cats = firstCats;
      // The typed prefix matches nothing: suggest what the corrected words find, as the results page
      // searches for them. Only this path pays for the correction; a matching prefix is as before.
      if (top.length === 0 && !usesOperators(text)) {
        const corrected = correctQuery(words, await vocabulary(ctx.tenantId));
        const ctsq = corrected ? await prefixQuery(queryWords(corrected)) : null;
        if (corrected && ctsq) {
          top = index.best(index.match(ctsq), { plan: index.rankPlan(ctsq), text: corrected }, 6);
          if (cats.length === 0) cats = await categoriesLike(ctx, corrected);
        }
      }
      const found = await cardsFor(ctx, index, top);
      return {
        products: found.map(({ row: r }) => ({
          productId: r.productId,
          productName: r.productName,
          slug: r.slug,
          imageUrl: absoluteMediaUrl(ctx, r.smallImageUrl ?? r.mediumImageUrl ?? r.detailImageUrl),
          price: r.effectivePrice ?? r.listPrice,
          currencyUomId: r.currencyUomId,
        })),
        categories: cats.map((c) => ({ productCategoryId: c.productCategoryId, label: categoryLabel(c) })),
      };
    },

    async brands(ctx: TenantContext): Promise<string[]> {
      const rows = await db
        .selectDistinct({ brand: p.brandName })
        .from(p)
        .where(and(eq(p.tenantId, ctx.tenantId), eq(p.status, 'ACTIVE'), sql`${p.brandName} IS NOT NULL`))
        .orderBy(asc(p.brandName));
      return rows.map((r) => r.brand as string);
    },

    async subcategories(ctx: TenantContext, categoryId: string): Promise<SubcategoryResult> {
      const row = await categoryRow(ctx, categoryId);
      if (!row) throw AppError.notFound(`Category ${categoryId} does not exist in this store.`);
      const r = schema.categoryRollups;
      const children = await db
        .select({
          productCategoryId: cat.productCategoryId,
          categoryName: cat.categoryName,
          description: cat.description,
          linkTwoImageUrl: cat.linkTwoImageUrl,
          linkTwoImageUrlS3: cat.linkTwoImageUrlS3,
          // Products shoppers can see: drafts and archived ones are not counted.
          productCount: sql<number>`(SELECT count(*)::int FROM ${pc} JOIN ${p} ON ${p.tenantId} = ${pc.tenantId} AND ${p.productId} = ${pc.productId} AND ${p.status} = 'ACTIVE' WHERE ${pc.tenantId} = ${ctx.tenantId} AND ${pc.productCategoryId} = ${cat.productCategoryId})`,
        })
        .from(r)
        .innerJoin(cat, and(eq(cat.tenantId, r.tenantId), eq(cat.productCategoryId, r.productCategoryId)))
        .where(and(eq(r.tenantId, ctx.tenantId), eq(r.parentProductCategoryId, categoryId)))
        .orderBy(asc(r.sequenceNum), asc(cat.productCategoryId));
      return {
        category: {
          productCategoryId: row.productCategoryId,
          categoryName: row.categoryName,
          description: row.description,
          longDescription: row.longDescription,
          linkTwoImageUrl: absoluteMediaUrl(ctx, row.linkTwoImageUrl),
          linkTwoImageUrlS3: row.linkTwoImageUrlS3,
        },
        breadcrumb: await breadcrumb(ctx, categoryId),
        subcategories: children.map((c) => ({ ...c, linkTwoImageUrl: absoluteMediaUrl(ctx, c.linkTwoImageUrl) })),
      };
    },

    /**
     * The product page's data. A draft or archived product is "not found" for shoppers; with
     * `preview` (the owner or staff with the catalog permission: the caller decides) it is shown,
     * its status saying what it is.
     */
    async details(
      ctx: TenantContext,
      productId: string,
      view: { preview?: boolean; variantId?: string } = {},
    ): Promise<ProductDetails> {
      const details = await productPage(ctx, productId, view);
      // The selection is applied to the kept page, not part of it: one page per product, any ?variant=.
      const selectedVariantId = selectVariant(details, view.variantId);
      return selectedVariantId === details.selectedVariantId ? details : { ...details, selectedVariantId };
    },

    /** Prices a configuration: every option of the product chosen once, from its own choices. */
    async configPrice(
      ctx: TenantContext,
      req: { productId: string; variantId?: string | undefined; selections: Record<string, string>; quantity: number },
    ): Promise<ConfigPrice> {
      const row = await productRow(ctx, req.productId);
      if (!row) throw AppError.notFound(`Product ${req.productId} does not exist in this store.`);
      const o = schema.productConfigOptions;
      const ch = schema.productConfigChoices;
      const pv = schema.productVariants;
      const [options, choices, variants] = await Promise.all([
        db
          .select()
          .from(o)
          .where(and(eq(o.tenantId, ctx.tenantId), eq(o.productId, req.productId)))
          .orderBy(asc(o.sequenceNum)),
        db
          .select()
          .from(ch)
          .where(and(eq(ch.tenantId, ctx.tenantId), eq(ch.productId, req.productId))),
        // A configuration of a chosen variant starts from that variant's price (decision 112), not
        // from the product's "from" price, which is its cheapest variant's.
        req.variantId === undefined
          ? Promise.resolve([])
          : db
              .select({ title: pv.title, effectivePrice: pv.effectivePrice, listPrice: pv.listPrice })
              .from(pv)
              .where(
                and(
                  eq(pv.tenantId, ctx.tenantId),
                  eq(pv.productId, req.productId),
                  eq(pv.variantId, req.variantId),
                  eq(pv.enabled, true),
                  isNull(pv.removedAt),
                ),
              ),
      ]);
      const [variant] = variants;
      if (req.variantId !== undefined && !variant) {
        throw new AppError(
          422,
          'VARIANT_UNAVAILABLE',
          `variantId: ${req.variantId} is not a variant of ${row.productName} on sale in this store.`,
        );
      }
      if (!options.length) throw AppError.badRequest(`${row.productName} has no options to configure.`);
      const errors: string[] = [];
      for (const key of Object.keys(req.selections)) {
        if (!options.some((op) => op.optionId === key)) errors.push(`selections.${key}: not an option of this product`);
      }
      const selections = options.flatMap((op) => {
        const chosen = req.selections[op.optionId];
        if (!chosen) {
          errors.push(`selections.${op.optionId}: choose a ${op.optionName.toLowerCase()}`);
          return [];
        }
        const c = choices.find((x) => x.optionId === op.optionId && x.choiceId === chosen);
        if (!c) {
          errors.push(`selections.${op.optionId}: ${chosen} is not a choice of ${op.optionName}`);
          return [];
        }
        return [
          {
            optionId: op.optionId,
            optionName: op.optionName,
            choiceId: c.choiceId,
            label: c.label,
            priceDelta: c.priceDelta,
          },
        ];
      });
      if (errors.length) throw AppError.badRequest(errors[0] as string, errors);
      const basePrice = variant ? (variant.effectivePrice ?? variant.listPrice) : (row.effectivePrice ?? row.listPrice);
      const unitPrice = Math.max(0, basePrice + selections.reduce((s, x) => s + x.priceDelta, 0));
      return {
        productId: row.productId,
        currencyUomId: row.currencyUomId,
        basePrice,
        unitPrice,
        quantity: req.quantity,
        totalPrice: unitPrice * req.quantity,
        selections,
      };
    },

    async content(ctx: TenantContext, productId: string, contentId: string) {
      const c = schema.productContents;
      const [row] = await db
        .select()
        .from(c)
        .where(and(eq(c.tenantId, ctx.tenantId), eq(c.productId, productId), eq(c.contentId, contentId)));
      if (!row) throw AppError.notFound(`Product ${productId} has no downloadable content ${contentId}.`);
      return row;
    },
  };
}

export type ProductsService = ReturnType<typeof createProductsService>;
