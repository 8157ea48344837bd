/**
 * What every catalog admin use case shares: the permission, the write (one transaction per write,
 * its advisory lock, `catalog.changed` after the commit), the input check, and a few reads.
 */
import type { CategoryRef, categoryFieldsSchema, StoreCatalog } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { requireAccess } from '../../../lib/access';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import type { AuditService } from '../../audit/index';
import type { MediaService } from '../../media/index';
import type { TenantService } from '../../tenant/index';

export interface CatalogAdminDeps {
  audit: AuditService;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  media: Pick<MediaService, 'find'>;
  tenants: TenantService;
}

const cl = schema.catalogs;
const r = schema.categoryRollups;
const pc = schema.productCategories;

/** The most categories the page's "Move to" menus list. */
export const ALL_LIMIT = 2000;

export function guard(ctx: RequestContext) {
  requireAccess(ctx, 'catalog');
}

export function refs(
  rows: { productCategoryId: string; categoryName: string | null; description: string | null; sequenceNum: number }[],
): CategoryRef[] {
  return rows.map((x) => ({
    productCategoryId: x.productCategoryId,
    categoryName: x.categoryName,
    description: x.description,
    sequenceNum: x.sequenceNum,
  }));
}

export function parse<S extends z.ZodType>(s: S, input: unknown): z.infer<S> {
  const parsed = s.safeParse(input);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const field = String(first?.path[0] ?? '');
  const message = first?.message ?? 'not valid.';
  const err = new AppError(
    400,
    'VALIDATION_FAILED',
    message.startsWith(field) ? message : `${field}: ${message}`,
    parsed.error.issues
      .slice(0, 20)
      .map((i) => (i.message.startsWith(String(i.path[0])) ? i.message : `${i.path.join('.')}: ${i.message}`)),
  );
  err.field = field;
  err.fieldMessage = message;
  throw err;
}

/** The catalog admin's helpers that read the database or use a dependency. */
export function catalogAdminHelpers(db: Db, deps: CatalogAdminDeps) {
  const { events } = deps;

  /** One write: the permission, a transaction, and the event after commit. */
  async function write<T>(ctx: RequestContext, work: (tx: Tx, touched: Set<string>) => Promise<T>): Promise<T> {
    guard(ctx);
    return events.transaction(async (tx) => {
      // One rollup writer per tenant at a time: two moves checked for cycles side by side could
      // otherwise each pass and together make a loop.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`catalog-admin:${ctx.tenantId}`}))`);
      const touched = new Set<string>();
      const out = await work(tx, touched);
      events.emitAfterCommit(tx, 'catalog.changed', { tenantId: ctx.tenantId, categoryIds: [...touched] });
      return out;
    });
  }

  async function catalogsOf(ctx: RequestContext, storeId: string | null): Promise<StoreCatalog[]> {
    const rows = await db
      .select({
        prodCatalogId: cl.prodCatalogId,
        productStoreId: cl.productStoreId,
        catalogName: cl.catalogName,
        sequenceNum: cl.sequenceNum,
        categoryCount: sql<number>`(SELECT count(*)::int FROM catalog_categories x WHERE x.tenant_id = catalogs.tenant_id AND x.prod_catalog_id = catalogs.prod_catalog_id)`,
      })
      .from(cl)
      .where(and(eq(cl.tenantId, ctx.tenantId), storeId ? eq(cl.productStoreId, storeId) : isNull(cl.productStoreId)))
      .orderBy(asc(cl.sequenceNum), asc(cl.prodCatalogId));
    return rows.map((x) => ({ ...x, categoryCount: Number(x.categoryCount) }));
  }

  /** The picture columns for the owner's choice: a library picture, an http address, none, or unchanged. */
  async function imageColumns(
    ctx: RequestContext,
    f: Pick<z.infer<typeof categoryFieldsSchema>, 'mediaId' | 'linkTwoImageUrl' | 'removeImage'>,
  ) {
    const remove = f.removeImage === true || f.removeImage === 'true' || f.removeImage === 'on';
    if (f.mediaId) {
      const found = (await deps.media.find(ctx, [f.mediaId])).get(f.mediaId);
      if (!found) throw AppError.field(422, 'UNPROCESSABLE', 'mediaId', 'no such picture in your media library.');
      return { linkTwoImageUrl: found.url, linkTwoImageUrlS3: null, imageMediaId: found.mediaId };
    }
    if (f.linkTwoImageUrl) return { linkTwoImageUrl: f.linkTwoImageUrl, linkTwoImageUrlS3: null, imageMediaId: null };
    if (remove) return { linkTwoImageUrl: null, linkTwoImageUrlS3: null, imageMediaId: null };
    return {};
  }

  async function counts(ctx: RequestContext, ids: string[]) {
    if (!ids.length) return { products: new Map<string, number>(), children: new Map<string, number>() };
    const [prod, kids] = await Promise.all([
      db
        .select({ id: pc.productCategoryId, n: count() })
        .from(pc)
        .where(and(eq(pc.tenantId, ctx.tenantId), inArray(pc.productCategoryId, ids)))
        .groupBy(pc.productCategoryId),
      db
        .select({ id: r.parentProductCategoryId, n: count() })
        .from(r)
        .where(and(eq(r.tenantId, ctx.tenantId), inArray(r.parentProductCategoryId, ids)))
        .groupBy(r.parentProductCategoryId),
    ]);
    return {
      products: new Map(prod.map((x) => [x.id, Number(x.n)])),
      children: new Map(kids.map((x) => [x.id, Number(x.n)])),
    };
  }

  return { write, catalogsOf, imageColumns, counts };
}
