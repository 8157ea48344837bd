import {
  type AdminProductQuery,
  PRODUCT_BULK_INLINE_MAX,
  type ProductBulkAction,
  type ProductBulkAnswer,
  type ProductBulkJob,
  type ProductBulkRequest,
  type ProductBulkResult,
  type ProductListFilter,
  type ProductListPage,
  type ProductListRow,
  type ProductStatus,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import type { AuditService } from '../../audit/index';
import type { JobRunner } from '../../jobs/index';
import { createBulkBatch } from './bulk-batch';
import { exportProductsCsv } from './csv-export';
import { encodeCursor, type FilterParts, filterPartsFor, filterWhereFor, keyset } from './product-list.query';

export { bulkPrice, statusTransition } from './bulk-batch';

export const BULK_JOB = 'product-list.bulk';
/** Products changed per transaction by a bulk job: one progress step each. */
const JOB_BATCH = 200;

const p = schema.products;
const ps = schema.productStores;
const c = schema.categories;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(r: unknown) => (r as Rows<T>).rows;

/**
 * Who asked for a bulk job, kept in its payload so each product's audit entry names the person, not
 * the job (the job's own context is the platform's). Permissions are not kept: they were checked when
 * the job was asked for.
 */
interface JobActor {
  userId: string;
  firstName: string;
  userLoginId: string;
  role: 'admin' | 'staff';
}
interface BulkPayload {
  action: ProductBulkAction;
  productIds?: string[];
  filter?: ProductListFilter;
  actor: JobActor | null;
}

type ListRow = {
  product_id: string;
  product_name: string;
  sku: string;
  brand_name: string | null;
  status: ProductStatus;
  list_price: number;
  sale_price: number | null;
  currency_uom_id: string;
  stock_quantity: number;
  price_max: number;
  effective_price: number;
  variant_count: number;
  small_image_url: string | null;
  updated_at: string | Date;
  introduction_date: string | Date;
  k: string;
};

/**
 * Rows of the list's own order a search walks before it asks the search's indexes instead. A
 * common word fills a page within the first rows of the walk (under a millisecond); a rare one, or
 * one whose products are all old, would walk every product (150 ms at 100,000), and the planner
 * cannot tell the two apart: it takes matches to be spread evenly (decision 112).
 */
export const SEARCH_WALK_ROWS = 2000;

export function createProductListService(db: Db, deps: { audit: AuditService; events: EventBus; jobs: JobRunner }) {
  async function threshold(ctx: TenantContext): Promise<number> {
    const [row] = await db
      .select({ t: ps.lowStockThreshold })
      .from(ps)
      .where(and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId)));
    return row?.t ?? 5;
  }

  /**
   * A page's rows (one more than the page, to tell whether there is a next). A search first walks the
   * list's index for SEARCH_WALK_ROWS rows; when that does not fill the page, the search's own indexes
   * answer: every match is read through them (a BitmapOr) and the page is the top of their sort. Index
   * walks are switched off for that read, in its own transaction, because the planner would walk again.
   */
  async function pageRows(query: AdminProductQuery, parts: FilterParts, k: ReturnType<typeof keyset>) {
    const scope = k.after ? sql`${parts.scope} AND ${k.after}` : parts.scope;
    const select = (from: SQL, where: SQL) => sql`
      SELECT p.product_id, p.product_name, p.sku, p.brand_name, p.status, p.list_price, p.sale_price,
        p.currency_uom_id, p.stock_quantity, p.price_max, p.effective_price, p.variant_count, p.small_image_url,
        p.updated_at, p.introduction_date, ${k.keyText} AS k
      FROM ${from} WHERE ${where}
      ORDER BY ${k.orderBy} LIMIT ${query.limit + 1}`;
    if (!parts.search) return rowsOf<ListRow>(await db.execute(select(sql`products p`, scope)));
    const walked = rowsOf<ListRow>(
      await db.execute(
        select(
          sql`(SELECT * FROM products p WHERE ${scope} ORDER BY ${k.orderBy} LIMIT ${SEARCH_WALK_ROWS}) p`,
          parts.search,
        ),
      ),
    );
    if (walked.length > query.limit) return walked;
    const all = select(sql`products p`, sql`${scope} AND ${parts.search}`);
    if (!parts.indexed) return rowsOf<ListRow>(await db.execute(all));
    return db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_indexscan = off`);
      return rowsOf<ListRow>(await tx.execute(all));
    });
  }

  async function list(ctx: TenantContext, query: AdminProductQuery): Promise<ProductListPage> {
    const low = await threshold(ctx);
    const k = keyset(query);
    const rows = await pageRows(query, await filterPartsFor(db, ctx.tenantId, query, low), k);
    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    const cats = await categoriesOf(
      ctx,
      page.map((r) => r.product_id),
    );
    const iso = (v: string | Date) => new Date(v).toISOString();
    const out: ProductListRow[] = page.map((r) => {
      const names = cats.get(r.product_id) ?? [];
      return {
        productId: r.product_id,
        name: r.product_name,
        sku: r.sku,
        brand: r.brand_name,
        status: r.status,
        listPrice: Number(r.list_price),
        salePrice: r.sale_price == null ? null : Number(r.sale_price),
        currency: r.currency_uom_id,
        stock: Number(r.stock_quantity),
        ...(Number(r.variant_count) > 1
          ? {
              variantCount: Number(r.variant_count),
              ...(Number(r.price_max) > Number(r.effective_price) ? { priceMax: Number(r.price_max) } : {}),
            }
          : {}),
        // A picture address longer than this is not a thumbnail link; leaving it out keeps pages small.
        image: r.small_image_url && r.small_image_url.length <= 300 ? r.small_image_url : null,
        categories: names.slice(0, 3).map((n) => n.slice(0, 60)),
        categoryCount: names.length,
        updatedAt: iso(r.updated_at),
        createdAt: iso(r.introduction_date),
      };
    });
    const last = page.at(-1);
    return {
      rows: out,
      nextCursor:
        more && last ? encodeCursor({ sort: query.sort, dir: k.dir, key: last.k, id: last.product_id }) : null,
      lowStockThreshold: low,
    };
  }

  /** Category names of these products (by name), one query. */
  async function categoriesOf(ctx: TenantContext, ids: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (!ids.length) return out;
    const rows = rowsOf<{ product_id: string; name: string }>(
      await db.execute(sql`
        SELECT pc.product_id, coalesce(c.category_name, c.description, c.product_category_id) AS name
        FROM product_categories pc
        JOIN categories c ON c.tenant_id = pc.tenant_id AND c.product_category_id = pc.product_category_id
        WHERE pc.tenant_id = ${ctx.tenantId} AND pc.product_id IN ${ids}
        ORDER BY pc.product_id, name`),
    );
    for (const r of rows) {
      const list = out.get(r.product_id) ?? [];
      list.push(r.name);
      out.set(r.product_id, list);
    }
    return out;
  }

  /** The filter pickers: the store's categories and brands (both small next to the products). */
  async function choices(
    ctx: TenantContext,
  ): Promise<{ categories: { id: string; name: string }[]; brands: string[] }> {
    const [categories, brands] = await Promise.all([
      db
        .select({
          id: c.productCategoryId,
          name: sql<string>`coalesce(${c.categoryName}, ${c.description}, ${c.productCategoryId})`,
        })
        .from(c)
        .where(eq(c.tenantId, ctx.tenantId))
        .orderBy(asc(sql`2`))
        .limit(500),
      // Distinct brands by skipping through the brand index (a loose index scan): one probe per brand.
      db.execute(sql`
        WITH RECURSIVE b AS (
          (SELECT brand_name FROM products WHERE tenant_id = ${ctx.tenantId} AND brand_name IS NOT NULL ORDER BY brand_name LIMIT 1)
          UNION ALL
          SELECT (SELECT brand_name FROM products WHERE tenant_id = ${ctx.tenantId} AND brand_name > b.brand_name ORDER BY brand_name LIMIT 1)
          FROM b WHERE b.brand_name IS NOT NULL
        )
        SELECT brand_name FROM b WHERE brand_name IS NOT NULL LIMIT 500`),
    ]);
    return { categories, brands: rowsOf<{ brand_name: string }>(brands).map((b) => b.brand_name) };
  }

  /** The (filtered) list as CSV (csv-export.ts), streamed. */
  async function* exportCsv(ctx: TenantContext, filter: ProductListFilter): AsyncGenerator<string> {
    yield* exportProductsCsv(db, ctx, filter, await threshold(ctx));
  }

  /** Ids of every product the filter selects, in id order (keyset by id, a page at a time). */
  async function idsOf(
    ctx: TenantContext,
    filter: ProductListFilter,
    cap = Number.POSITIVE_INFINITY,
  ): Promise<string[]> {
    const low = await threshold(ctx);
    const base = await filterWhereFor(db, ctx.tenantId, filter, low);
    const ids: string[] = [];
    let after: string | null = null;
    while (ids.length < cap) {
      const batch: { product_id: string }[] = rowsOf<{ product_id: string }>(
        await db.execute(sql`
          SELECT p.product_id FROM products p
          WHERE ${after === null ? base : sql`${base} AND p.product_id > ${after}`}
          ORDER BY p.product_id LIMIT ${Math.min(5000, cap - ids.length)}`),
      );
      for (const r of batch) ids.push(r.product_id);
      if (batch.length < Math.min(5000, cap - ids.length + batch.length)) break;
      after = batch[batch.length - 1]?.product_id ?? null;
    }
    return ids;
  }

  /** Checks what the action names (a category of this store) before anything runs. */
  async function checkAction(ctx: TenantContext, action: ProductBulkAction) {
    if (action.kind === 'category.add' || action.kind === 'category.remove') {
      const [found] = await db
        .select({ id: c.productCategoryId })
        .from(c)
        .where(and(eq(c.tenantId, ctx.tenantId), eq(c.productCategoryId, action.categoryId)));
      if (!found)
        throw AppError.field(422, 'VALIDATION_FAILED', 'categoryId', `no category ${action.categoryId} in this store`);
    }
    if (action.kind === 'price' && action.mode === 'set' && action.value < 0) {
      throw AppError.field(422, 'VALIDATION_FAILED', 'value', 'a price cannot be negative');
    }
    if (action.kind === 'stock' && action.mode === 'set' && action.value < 0) {
      throw AppError.field(422, 'VALIDATION_FAILED', 'value', 'stock cannot be negative');
    }
  }

  const { emptyResult, applyBatch } = createBulkBatch(deps);

  async function run(
    ctx: RequestContext,
    action: ProductBulkAction,
    ids: string[],
    progress?: (done: number) => Promise<void>,
  ) {
    const acc = emptyResult();
    for (let i = 0; i < ids.length; i += JOB_BATCH) {
      await applyBatch(ctx, action, ids.slice(i, i + JOB_BATCH), acc);
      if (progress) await progress(Math.min(i + JOB_BATCH, ids.length));
    }
    return acc;
  }

  // A large bulk change runs as a job, a batch per transaction with progress. At most once: a percent
  // or amount change applied twice would be wrong, so a job interrupted mid-way fails (its progress
  // says how far it got) instead of running again from the start.
  deps.jobs.register<BulkPayload>(
    BULK_JOB,
    async (job, { progress, signal }) => {
      const ctx: RequestContext = job.payload.actor
        ? {
            ...job.ctx,
            actor: {
              kind: 'staff',
              ...job.payload.actor,
              permissions: new Set(),
              session: { token: '', via: 'cookie' },
            },
          }
        : job.ctx;
      const ids = job.payload.productIds
        ? await existingIds(ctx, job.payload.productIds)
        : await idsOf(ctx, job.payload.filter ?? { sort: 'updated' });
      await progress({ done: 0, total: ids.length });
      const result = await run(ctx, job.payload.action, ids, async (done) => {
        signal.throwIfAborted();
        await progress({ done, total: ids.length });
      });
      return result;
    },
    { maxAttempts: 1 },
  );

  async function existingIds(ctx: TenantContext, ids: string[]): Promise<string[]> {
    const found: string[] = [];
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await db
        .select({ id: p.productId })
        .from(p)
        .where(and(eq(p.tenantId, ctx.tenantId), inArray(p.productId, ids.slice(i, i + 1000))))
        .orderBy(asc(p.productId));
      for (const r of rows) found.push(r.id);
    }
    return found;
  }

  return {
    list,
    choices,
    exportCsv,

    /** The plan of a page's query (EXPLAIN), for the benchmark: a missing index shows as a Seq Scan. */
    async explain(ctx: TenantContext, query: AdminProductQuery): Promise<string[]> {
      const k = keyset(query);
      const where = await filterWhereFor(db, ctx.tenantId, query, await threshold(ctx));
      const plan = rowsOf<{ 'QUERY PLAN': string }>(
        await db.execute(
          sql`EXPLAIN SELECT p.product_id FROM products p WHERE ${where} ORDER BY ${k.orderBy} LIMIT ${query.limit + 1}`,
        ),
      );
      return plan.map((r) => r['QUERY PLAN']);
    },

    /** The store's currency: the bulk form's prices are decimals in it. */
    async currency(ctx: TenantContext): Promise<string> {
      const [row] = await db
        .select({ c: ps.currencyUomId })
        .from(ps)
        .where(and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId)));
      return row?.c ?? 'USD';
    },

    /**
     * A bulk action on chosen products or on the whole filtered list. Up to PRODUCT_BULK_INLINE_MAX
     * products change at once; more run as a job (poll `job`). Chosen ids that are not this store's
     * products refuse the whole request (404) and change nothing.
     */
    async bulk(ctx: RequestContext, req: ProductBulkRequest): Promise<ProductBulkAnswer> {
      await checkAction(ctx, req.action);
      let ids: string[];
      if (req.productIds) {
        const wanted = [...new Set(req.productIds)];
        ids = await existingIds(ctx, wanted);
        if (ids.length !== wanted.length) {
          throw AppError.notFound(`${wanted.length - ids.length} of the chosen products do not exist in this store.`);
        }
      } else {
        const filter = req.filter ?? { sort: 'updated' as const };
        ids = await idsOf(ctx, filter, PRODUCT_BULK_INLINE_MAX + 1);
        if (ids.length > PRODUCT_BULK_INLINE_MAX) {
          const total = (await idsOf(ctx, filter)).length;
          return enqueue(ctx, { action: req.action, filter }, total);
        }
      }
      if (ids.length > PRODUCT_BULK_INLINE_MAX)
        return enqueue(ctx, { action: req.action, productIds: ids }, ids.length);
      return { mode: 'done', result: await run(ctx, req.action, ids) };
    },

    /** A bulk job of this store (another store's, or another kind of job, is not found). */
    async job(ctx: TenantContext, jobId: string): Promise<ProductBulkJob | null> {
      const j = await deps.jobs.get(ctx, jobId);
      if (!j || j.type !== BULK_JOB) return null;
      return {
        jobId: j.id,
        status: j.status,
        done: j.progress?.done ?? 0,
        total: j.progress?.total ?? 0,
        result: j.status === 'succeeded' ? (j.result as ProductBulkResult) : null,
        error: j.status === 'failed' ? 'The change stopped before the end; the products done so far keep it.' : null,
      };
    },
  };

  async function enqueue(
    ctx: RequestContext,
    what: Omit<BulkPayload, 'actor'>,
    total: number,
  ): Promise<ProductBulkAnswer> {
    const a = ctx.actor;
    const actor: JobActor | null =
      a.kind === 'staff'
        ? { userId: a.userId, firstName: a.firstName, userLoginId: a.userLoginId, role: a.role }
        : null;
    const job = await deps.jobs.enqueue(ctx, { type: BULK_JOB, payload: { ...what, actor } });
    return { mode: 'job', jobId: job.id, total };
  }
}

export type ProductListService = ReturnType<typeof createProductListService>;
