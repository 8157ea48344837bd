import {
  CATEGORY_LOOKUP_LIMIT,
  CATEGORY_TREE_MAX_DEPTH,
  type CategoriesPageData,
  type CategoryDetail,
  type CategoryLookup,
  type CategoryMove,
  type CategoryNode,
  type CategoryRef,
  type CategoryRollup,
  type CreateProductStoreCatalog,
  categoryCreateSchema,
  type categoryFieldsSchema,
  categoryUpdateSchema,
  type ProdCatalogCategories,
  type StoreCatalog,
  type StoreCatalogs,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { requireAccess } from '../../lib/access';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { isPlainObject, takeReadOnly } from '../../lib/write-back';
import { storeIdFor } from '../../plugins/tenancy';
import type { AuditService } from '../audit/index';
import type { MediaService } from '../media/index';
import type { TenantService } from '../tenant/index';

export interface CatalogAdminDeps {
  audit: AuditService;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  media: Pick<MediaService, 'find'>;
  tenants: TenantService;
}

const cat = schema.categories;
const cl = schema.catalogs;
const cc = schema.catalogCategories;
const r = schema.categoryRollups;
const pc = schema.productCategories;

/** Where a category sits: a catalog's top, or under a parent category. */
type Place = { kind: 'catalog'; id: string } | { kind: 'parent'; id: string };

/** Sequence numbers are rewritten as 10, 20, 30... so a client's own sequenceNum can slot between. */
const STEP = 10;
/** The most categories the page's "Move to" menus list. */
const ALL_LIMIT = 2000;

function label(row: { productCategoryId: string; categoryName: string | null }) {
  return row.categoryName ? `"${row.categoryName}" (${row.productCategoryId})` : row.productCategoryId;
}

/** A new row's id made from its name: GARDEN_FERNS. */
function idFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase()
    .slice(0, 40);
  return base || 'CATEGORY';
}

/**
 * Catalog administration (issue 16 points 1 and 2, decision 035). Every write checks the 'catalog'
 * permission, runs in one transaction with its audit entry, and emits `catalog.changed` with the
 * categories it touched after the commit: the public read cache (main data, the shell, category
 * pages) and the search index follow on every process (app.ts subscribes).
 */
export function createCatalogAdminService(db: Db, deps: CatalogAdminDeps) {
  const { audit, events } = deps;

  function guard(ctx: RequestContext) {
    requireAccess(ctx, 'catalog');
  }

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

  async function categoryRow(q: Tx | Db, ctx: RequestContext, productCategoryId: string, field = 'productCategoryId') {
    const [row] = await q
      .select()
      .from(cat)
      .where(and(eq(cat.tenantId, ctx.tenantId), eq(cat.productCategoryId, productCategoryId)));
    if (!row) {
      const err = AppError.notFound(`There is no category ${productCategoryId.slice(0, 100)} in this store.`);
      err.field = field;
      err.fieldMessage = 'There is no such category in this store.';
      throw err;
    }
    return row;
  }

  async function catalogRow(q: Tx | Db, ctx: RequestContext, prodCatalogId: string) {
    const [row] = await q
      .select()
      .from(cl)
      .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.prodCatalogId, prodCatalogId)));
    if (!row) throw AppError.notFound(`There is no catalog ${prodCatalogId.slice(0, 100)} in this store.`);
    return row;
  }

  /** The categories below `productCategoryId`, at any depth (UNION stops on a loop, should one exist). */
  async function isInside(tx: Tx, ctx: RequestContext, candidate: string, ancestor: string): Promise<boolean> {
    const rows = await tx.execute(sql`
      WITH RECURSIVE below(id) AS (
        SELECT product_category_id FROM category_rollups
          WHERE tenant_id = ${ctx.tenantId} AND parent_product_category_id = ${ancestor}
        UNION
        SELECT x.product_category_id FROM category_rollups x JOIN below ON x.parent_product_category_id = below.id
          WHERE x.tenant_id = ${ctx.tenantId}
      )
      SELECT 1 AS hit FROM below WHERE id = ${candidate} LIMIT 1`);
    const list = Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows;
    return list.length > 0;
  }

  /** Refuses (409, naming both) a parent link that would put a category inside itself. */
  async function refuseCycle(tx: Tx, ctx: RequestContext, childId: string, parentId: string) {
    const child = await categoryRow(tx, ctx, childId);
    const parent = await categoryRow(tx, ctx, parentId, 'parentProductCategoryId');
    if (childId === parentId) {
      throw AppError.conflict(`A category cannot be its own parent: ${label(child)}.`);
    }
    if (await isInside(tx, ctx, parentId, childId)) {
      throw AppError.conflict(
        `Cannot put ${label(child)} under ${label(parent)}: ${label(parent)} is already inside ${label(child)}, so the link would make a loop.`,
      );
    }
    return { child, parent };
  }

  /** The ids at a place, in order. */
  async function siblings(tx: Tx, ctx: RequestContext, place: Place): Promise<string[]> {
    if (place.kind === 'catalog') {
      const rows = await tx
        .select({ id: cc.productCategoryId })
        .from(cc)
        .where(and(eq(cc.tenantId, ctx.tenantId), eq(cc.prodCatalogId, place.id)))
        .orderBy(asc(cc.sequenceNum), asc(cc.productCategoryId));
      return rows.map((x) => x.id);
    }
    const rows = await tx
      .select({ id: r.productCategoryId })
      .from(r)
      .where(and(eq(r.tenantId, ctx.tenantId), eq(r.parentProductCategoryId, place.id)))
      .orderBy(asc(r.sequenceNum), asc(r.productCategoryId));
    return rows.map((x) => x.id);
  }

  /** Writes the order of a place as 10, 20, 30... (only the rows whose number changes). */
  async function renumber(tx: Tx, ctx: RequestContext, place: Place, ids: string[]) {
    for (const [i, id] of ids.entries()) {
      const seq = (i + 1) * STEP;
      if (place.kind === 'catalog') {
        await tx
          .update(cc)
          .set({ sequenceNum: seq })
          .where(
            and(
              eq(cc.tenantId, ctx.tenantId),
              eq(cc.prodCatalogId, place.id),
              eq(cc.productCategoryId, id),
              sql`${cc.sequenceNum} <> ${seq}`,
            ),
          );
      } else {
        await tx
          .update(r)
          .set({ sequenceNum: seq })
          .where(
            and(
              eq(r.tenantId, ctx.tenantId),
              eq(r.parentProductCategoryId, place.id),
              eq(r.productCategoryId, id),
              sql`${r.sequenceNum} <> ${seq}`,
            ),
          );
      }
    }
  }

  async function isAt(tx: Tx, ctx: RequestContext, id: string, place: Place): Promise<boolean> {
    const rows =
      place.kind === 'catalog'
        ? await tx
            .select({ id: cc.productCategoryId })
            .from(cc)
            .where(and(eq(cc.tenantId, ctx.tenantId), eq(cc.prodCatalogId, place.id), eq(cc.productCategoryId, id)))
        : await tx
            .select({ id: r.productCategoryId })
            .from(r)
            .where(
              and(eq(r.tenantId, ctx.tenantId), eq(r.parentProductCategoryId, place.id), eq(r.productCategoryId, id)),
            );
    return rows.length > 0;
  }

  async function detach(tx: Tx, ctx: RequestContext, id: string, place: Place) {
    if (place.kind === 'catalog') {
      await tx
        .delete(cc)
        .where(and(eq(cc.tenantId, ctx.tenantId), eq(cc.prodCatalogId, place.id), eq(cc.productCategoryId, id)));
    } else {
      await tx
        .delete(r)
        .where(and(eq(r.tenantId, ctx.tenantId), eq(r.parentProductCategoryId, place.id), eq(r.productCategoryId, id)));
    }
  }

  /** Puts `id` at `position` of a place (last when absent), inserting the link when it is not there. */
  async function placeAt(tx: Tx, ctx: RequestContext, id: string, place: Place, position?: number) {
    const others = (await siblings(tx, ctx, place)).filter((x) => x !== id);
    const at = position === undefined ? others.length : Math.min(position, others.length);
    if (!(await isAt(tx, ctx, id, place))) {
      const values = { tenantId: ctx.tenantId, productCategoryId: id, sequenceNum: (at + 1) * STEP };
      if (place.kind === 'catalog') await tx.insert(cc).values({ ...values, prodCatalogId: place.id });
      else await tx.insert(r).values({ ...values, parentProductCategoryId: place.id });
    }
    others.splice(at, 0, id);
    await renumber(tx, ctx, place, others);
  }

  /** A place's sequence number for `sequenceNum` as a client gives it (kept as given). */
  async function setSequence(tx: Tx, ctx: RequestContext, id: string, place: Place, sequenceNum: number) {
    if (place.kind === 'catalog') {
      await tx
        .update(cc)
        .set({ sequenceNum })
        .where(and(eq(cc.tenantId, ctx.tenantId), eq(cc.prodCatalogId, place.id), eq(cc.productCategoryId, id)));
    } else {
      await tx
        .update(r)
        .set({ sequenceNum })
        .where(and(eq(r.tenantId, ctx.tenantId), eq(r.parentProductCategoryId, place.id), eq(r.productCategoryId, id)));
    }
  }

  async function placeExists(tx: Tx, ctx: RequestContext, place: Place) {
    if (place.kind === 'catalog') await catalogRow(tx, ctx, place.id);
    else await categoryRow(tx, ctx, place.id, 'parentProductCategoryId');
  }

  function refs(
    rows: { productCategoryId: string; categoryName: string | null; description: string | null; sequenceNum: number }[],
  ): CategoryRef[] {
    return rows.map((x) => ({
      productCategoryId: x.productCategoryId,
      categoryName: x.categoryName,
      description: x.description,
      sequenceNum: x.sequenceNum,
    }));
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

  async function uniqueId(tx: Tx, ctx: RequestContext, base: string, kind: 'category' | 'catalog') {
    for (let n = 1; n < 100; n++) {
      const id = n === 1 ? base : `${base}_${n}`;
      const taken =
        kind === 'category'
          ? await tx
              .select({ id: cat.productCategoryId })
              .from(cat)
              .where(and(eq(cat.tenantId, ctx.tenantId), eq(cat.productCategoryId, id)))
          : await tx
              .select({ id: cl.prodCatalogId })
              .from(cl)
              .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.prodCatalogId, id)));
      if (!taken.length) return id;
    }
    return `${base}_${Date.now().toString(36).toUpperCase()}`;
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

  function parse<S extends z.ZodType>(s: S, input: unknown): z.infer<S> {
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

  const service = {
    // ---- Stores and catalogs ---------------------------------------------------------------------

    async storeCatalogs(ctx: RequestContext, requestedStore?: string | null): Promise<StoreCatalogs> {
      guard(ctx);
      const productStoreId = await storeIdFor(ctx, deps.tenants, requestedStore);
      const [catalogs, unlinked] = await Promise.all([catalogsOf(ctx, productStoreId), catalogsOf(ctx, null)]);
      return { productStoreId, catalogs, unlinked };
    },

    /** Links an existing catalog (or a new one) to the store at a place in its order. */
    async linkCatalog(ctx: RequestContext, body: CreateProductStoreCatalog): Promise<StoreCatalogs> {
      guard(ctx);
      const productStoreId = await storeIdFor(ctx, deps.tenants, body.productStoreId);
      if (body.prodCatalogId) {
        // One catalog as the read lists it, sent back (issue 30 point 6): its count as read, and
        // nothing written, audited or announced when it is linked here already, as asked.
        const shown = (await catalogsOf(ctx, productStoreId)).find((c) => c.prodCatalogId === body.prodCatalogId);
        takeReadOnly(body, { categoryCount: shown?.categoryCount }, ['categoryCount']);
        if (
          shown &&
          body.sequenceNum === shown.sequenceNum &&
          (body.catalogName ?? shown.catalogName) === shown.catalogName
        ) {
          return service.storeCatalogs(ctx, productStoreId);
        }
      } else if (body.categoryCount !== undefined) {
        takeReadOnly(body, {}, ['categoryCount']);
      }
      await write(ctx, async (tx) => {
        const [existing] = body.prodCatalogId
          ? await tx
              .select()
              .from(cl)
              .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.prodCatalogId, body.prodCatalogId)))
              .for('update')
          : [];
        const mine = await tx
          .select({ id: cl.prodCatalogId })
          .from(cl)
          .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.productStoreId, productStoreId)))
          .orderBy(asc(cl.sequenceNum), asc(cl.prodCatalogId));
        const sequenceNum =
          body.sequenceNum ?? (mine.filter((x) => x.id !== existing?.prodCatalogId).length + 1) * STEP;
        if (existing) {
          if (existing.productStoreId && existing.productStoreId !== productStoreId) {
            throw AppError.conflict(
              `Catalog ${existing.prodCatalogId} is shown by store ${existing.productStoreId}; unlink it there first.`,
            );
          }
          const after = {
            productStoreId,
            sequenceNum,
            catalogName: body.catalogName ?? existing.catalogName,
          };
          await tx
            .update(cl)
            .set(after)
            .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.prodCatalogId, existing.prodCatalogId)));
          await audit.record(tx, ctx, {
            entity: 'catalog',
            entityId: existing.prodCatalogId,
            action: 'link-store',
            before: {
              productStoreId: existing.productStoreId,
              sequenceNum: existing.sequenceNum,
              catalogName: existing.catalogName,
            },
            after,
          });
          return;
        }
        const name = body.catalogName;
        if (!name) throw AppError.notFound(`There is no catalog ${body.prodCatalogId} in this store.`);
        const prodCatalogId = body.prodCatalogId ?? (await uniqueId(tx, ctx, idFromName(name), 'catalog'));
        const row = { tenantId: ctx.tenantId, prodCatalogId, productStoreId, catalogName: name, sequenceNum };
        await tx.insert(cl).values(row);
        await audit.record(tx, ctx, {
          entity: 'catalog',
          entityId: prodCatalogId,
          action: 'create',
          after: { productStoreId, catalogName: name, sequenceNum },
        });
      });
      return service.storeCatalogs(ctx, productStoreId);
    },

    /** Unlinks a catalog from the store: it and its categories stay on the site, unlinked. */
    async unlinkCatalog(
      ctx: RequestContext,
      body: { productStoreId?: string; prodCatalogId: string },
    ): Promise<StoreCatalogs> {
      guard(ctx);
      const productStoreId = await storeIdFor(ctx, deps.tenants, body.productStoreId);
      await write(ctx, async (tx, touched) => {
        const row = await catalogRow(tx, ctx, body.prodCatalogId);
        if (row.productStoreId !== productStoreId) {
          throw AppError.notFound(`Catalog ${row.prodCatalogId} is not linked to store ${productStoreId}.`);
        }
        await tx
          .update(cl)
          .set({ productStoreId: null })
          .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.prodCatalogId, row.prodCatalogId)));
        for (const id of await siblings(tx, ctx, { kind: 'catalog', id: row.prodCatalogId })) touched.add(id);
        await audit.record(tx, ctx, {
          entity: 'catalog',
          entityId: row.prodCatalogId,
          action: 'unlink-store',
          before: { productStoreId },
          after: { productStoreId: null },
        });
      });
      return service.storeCatalogs(ctx, productStoreId);
    },

    // ---- A catalog's top categories --------------------------------------------------------------

    async catalogCategories(ctx: RequestContext, prodCatalogId: string): Promise<ProdCatalogCategories> {
      guard(ctx);
      const row = await catalogRow(db, ctx, prodCatalogId);
      const rows = await db
        .select({
          productCategoryId: cat.productCategoryId,
          categoryName: cat.categoryName,
          description: cat.description,
          sequenceNum: cc.sequenceNum,
        })
        .from(cc)
        .innerJoin(cat, and(eq(cat.tenantId, cc.tenantId), eq(cat.productCategoryId, cc.productCategoryId)))
        .where(and(eq(cc.tenantId, ctx.tenantId), eq(cc.prodCatalogId, prodCatalogId)))
        .orderBy(asc(cc.sequenceNum), asc(cc.productCategoryId));
      return {
        prodCatalogId: row.prodCatalogId,
        catalogName: row.catalogName,
        productStoreId: row.productStoreId,
        categories: refs(rows),
      };
    },

    /** Adds a top category to a catalog (last, or at sequenceNum), or changes its sequenceNum. */
    async addCatalogCategory(
      ctx: RequestContext,
      body: { prodCatalogId: string; productCategoryId: string; sequenceNum?: number },
    ): Promise<ProdCatalogCategories> {
      await write(ctx, async (tx, touched) => {
        await catalogRow(tx, ctx, body.prodCatalogId);
        await categoryRow(tx, ctx, body.productCategoryId);
        const place: Place = { kind: 'catalog', id: body.prodCatalogId };
        const was = await isAt(tx, ctx, body.productCategoryId, place);
        if (body.sequenceNum === undefined) {
          if (!was) await placeAt(tx, ctx, body.productCategoryId, place);
        } else {
          if (!was) await placeAt(tx, ctx, body.productCategoryId, place);
          await setSequence(tx, ctx, body.productCategoryId, place, body.sequenceNum);
        }
        touched.add(body.productCategoryId);
        await audit.record(tx, ctx, {
          entity: 'catalog.category',
          entityId: `${body.prodCatalogId}/${body.productCategoryId}`,
          action: was ? 'update' : 'create',
          after: {
            prodCatalogId: body.prodCatalogId,
            productCategoryId: body.productCategoryId,
            sequenceNum: body.sequenceNum ?? null,
          },
        });
      });
      return service.catalogCategories(ctx, body.prodCatalogId);
    },

    async removeCatalogCategory(
      ctx: RequestContext,
      body: { prodCatalogId: string; productCategoryId: string },
    ): Promise<ProdCatalogCategories> {
      await write(ctx, async (tx, touched) => {
        await catalogRow(tx, ctx, body.prodCatalogId);
        const place: Place = { kind: 'catalog', id: body.prodCatalogId };
        if (!(await isAt(tx, ctx, body.productCategoryId, place))) {
          throw AppError.notFound(`Category ${body.productCategoryId} is not a top category of ${body.prodCatalogId}.`);
        }
        await detach(tx, ctx, body.productCategoryId, place);
        touched.add(body.productCategoryId);
        await audit.record(tx, ctx, {
          entity: 'catalog.category',
          entityId: `${body.prodCatalogId}/${body.productCategoryId}`,
          action: 'delete',
          before: { prodCatalogId: body.prodCatalogId, productCategoryId: body.productCategoryId },
        });
      });
      return service.catalogCategories(ctx, body.prodCatalogId);
    },

    async reorderCatalogCategories(
      ctx: RequestContext,
      body: { prodCatalogId: string; productCategoryIds: string[] },
    ): Promise<ProdCatalogCategories> {
      await write(ctx, async (tx, touched) => {
        await catalogRow(tx, ctx, body.prodCatalogId);
        const place: Place = { kind: 'catalog', id: body.prodCatalogId };
        const current = await siblings(tx, ctx, place);
        const wanted = body.productCategoryIds;
        if (
          wanted.length !== current.length ||
          new Set(wanted).size !== wanted.length ||
          wanted.some((x) => !current.includes(x))
        ) {
          throw AppError.field(
            422,
            'UNPROCESSABLE',
            'productCategoryIds',
            'list every top category of the catalog exactly once.',
          );
        }
        await renumber(tx, ctx, place, wanted);
        for (const id of wanted) touched.add(id);
        await audit.record(tx, ctx, {
          entity: 'catalog',
          entityId: body.prodCatalogId,
          action: 'reorder-categories',
          before: { order: current.join(',') },
          after: { order: wanted.join(',') },
        });
      });
      return service.catalogCategories(ctx, body.prodCatalogId);
    },

    // ---- The rollup ------------------------------------------------------------------------------

    async rollup(ctx: RequestContext, productCategoryId: string): Promise<CategoryRollup> {
      guard(ctx);
      const row = await categoryRow(db, ctx, productCategoryId);
      const pick = {
        productCategoryId: cat.productCategoryId,
        categoryName: cat.categoryName,
        description: cat.description,
        sequenceNum: r.sequenceNum,
      };
      const [parents, children, catalogs] = await Promise.all([
        db
          .select(pick)
          .from(r)
          .innerJoin(cat, and(eq(cat.tenantId, r.tenantId), eq(cat.productCategoryId, r.parentProductCategoryId)))
          .where(and(eq(r.tenantId, ctx.tenantId), eq(r.productCategoryId, productCategoryId)))
          .orderBy(asc(cat.categoryName), asc(cat.productCategoryId)),
        db
          .select(pick)
          .from(r)
          .innerJoin(cat, and(eq(cat.tenantId, r.tenantId), eq(cat.productCategoryId, r.productCategoryId)))
          .where(and(eq(r.tenantId, ctx.tenantId), eq(r.parentProductCategoryId, productCategoryId)))
          .orderBy(asc(r.sequenceNum), asc(r.productCategoryId)),
        db
          .select({ prodCatalogId: cl.prodCatalogId, catalogName: cl.catalogName, sequenceNum: cc.sequenceNum })
          .from(cc)
          .innerJoin(cl, and(eq(cl.tenantId, cc.tenantId), eq(cl.prodCatalogId, cc.prodCatalogId)))
          .where(and(eq(cc.tenantId, ctx.tenantId), eq(cc.productCategoryId, productCategoryId)))
          .orderBy(asc(cl.sequenceNum), asc(cl.prodCatalogId)),
      ]);
      return {
        productCategoryId: row.productCategoryId,
        categoryName: row.categoryName,
        parents: refs(parents),
        children: refs(children),
        catalogs,
      };
    },

    /** POST create/parent: a new parent link (last among its siblings, or at sequenceNum). */
    async addParent(
      ctx: RequestContext,
      body: { productCategoryId: string; parentProductCategoryId: string; sequenceNum?: number },
    ): Promise<CategoryRollup> {
      await write(ctx, async (tx, touched) => {
        await refuseCycle(tx, ctx, body.productCategoryId, body.parentProductCategoryId);
        const place: Place = { kind: 'parent', id: body.parentProductCategoryId };
        if (await isAt(tx, ctx, body.productCategoryId, place)) {
          throw AppError.conflict(
            `Category ${body.productCategoryId} is already under ${body.parentProductCategoryId}; use PUT to change its sequenceNum.`,
          );
        }
        await placeAt(tx, ctx, body.productCategoryId, place);
        if (body.sequenceNum !== undefined) await setSequence(tx, ctx, body.productCategoryId, place, body.sequenceNum);
        touched.add(body.productCategoryId).add(body.parentProductCategoryId);
        await audit.record(tx, ctx, {
          entity: 'category.rollup',
          entityId: body.productCategoryId,
          action: 'add-parent',
          after: { parentProductCategoryId: body.parentProductCategoryId, sequenceNum: body.sequenceNum ?? null },
        });
      });
      return service.rollup(ctx, body.productCategoryId);
    },

    /** PUT create/parent: the link's sequenceNum, or a move from fromParentProductCategoryId. */
    async changeParent(
      ctx: RequestContext,
      body: {
        productCategoryId: string;
        parentProductCategoryId: string;
        sequenceNum?: number;
        fromParentProductCategoryId?: string;
      },
    ): Promise<CategoryRollup> {
      await write(ctx, async (tx, touched) => {
        const to: Place = { kind: 'parent', id: body.parentProductCategoryId };
        const from = body.fromParentProductCategoryId;
        if (from && from !== body.parentProductCategoryId) {
          if (!(await isAt(tx, ctx, body.productCategoryId, { kind: 'parent', id: from }))) {
            throw AppError.notFound(`Category ${body.productCategoryId} is not under ${from}.`);
          }
          await refuseCycle(tx, ctx, body.productCategoryId, body.parentProductCategoryId);
          await detach(tx, ctx, body.productCategoryId, { kind: 'parent', id: from });
          await placeAt(tx, ctx, body.productCategoryId, to);
          touched.add(from);
        } else {
          await categoryRow(tx, ctx, body.productCategoryId);
          if (!(await isAt(tx, ctx, body.productCategoryId, to))) {
            throw AppError.notFound(`Category ${body.productCategoryId} is not under ${body.parentProductCategoryId}.`);
          }
        }
        if (body.sequenceNum !== undefined) await setSequence(tx, ctx, body.productCategoryId, to, body.sequenceNum);
        touched.add(body.productCategoryId).add(body.parentProductCategoryId);
        await audit.record(tx, ctx, {
          entity: 'category.rollup',
          entityId: body.productCategoryId,
          action: from && from !== body.parentProductCategoryId ? 'move' : 'update',
          before: from ? { parentProductCategoryId: from } : null,
          after: { parentProductCategoryId: body.parentProductCategoryId, sequenceNum: body.sequenceNum ?? null },
        });
      });
      return service.rollup(ctx, body.productCategoryId);
    },

    async removeParent(
      ctx: RequestContext,
      body: { productCategoryId: string; parentProductCategoryId: string },
    ): Promise<CategoryRollup> {
      await write(ctx, async (tx, touched) => {
        await categoryRow(tx, ctx, body.productCategoryId);
        const place: Place = { kind: 'parent', id: body.parentProductCategoryId };
        if (!(await isAt(tx, ctx, body.productCategoryId, place))) {
          throw AppError.notFound(`Category ${body.productCategoryId} is not under ${body.parentProductCategoryId}.`);
        }
        await detach(tx, ctx, body.productCategoryId, place);
        touched.add(body.productCategoryId).add(body.parentProductCategoryId);
        await audit.record(tx, ctx, {
          entity: 'category.rollup',
          entityId: body.productCategoryId,
          action: 'remove-parent',
          before: { parentProductCategoryId: body.parentProductCategoryId },
        });
      });
      return service.rollup(ctx, body.productCategoryId);
    },

    /**
     * The dashboard's move (drag and drop, the "Move to" menu): out of one place and into another at a
     * position, in one transaction. Without a from-place the category is added at the new place.
     */
    async move(ctx: RequestContext, body: CategoryMove): Promise<CategoryRollup> {
      await write(ctx, async (tx, touched) => {
        const id = body.productCategoryId;
        await categoryRow(tx, ctx, id);
        const from: Place | null = body.fromProdCatalogId
          ? { kind: 'catalog', id: body.fromProdCatalogId }
          : body.fromParentProductCategoryId
            ? { kind: 'parent', id: body.fromParentProductCategoryId }
            : null;
        const to: Place = body.toProdCatalogId
          ? { kind: 'catalog', id: body.toProdCatalogId }
          : { kind: 'parent', id: body.toParentProductCategoryId as string };
        if (from && !(await isAt(tx, ctx, id, from))) {
          throw AppError.notFound(`Category ${id} is not in ${from.id}.`);
        }
        await placeExists(tx, ctx, to);
        if (to.kind === 'parent') await refuseCycle(tx, ctx, id, to.id);
        const same = from && from.kind === to.kind && from.id === to.id;
        if (from && !same) {
          await detach(tx, ctx, id, from);
          await renumber(tx, ctx, from, await siblings(tx, ctx, from));
        }
        await placeAt(tx, ctx, id, to, body.position);
        touched.add(id);
        if (from?.kind === 'parent') touched.add(from.id);
        if (to.kind === 'parent') touched.add(to.id);
        await audit.record(tx, ctx, {
          entity: 'category.rollup',
          entityId: id,
          action: 'move',
          before: from ? { [from.kind === 'catalog' ? 'prodCatalogId' : 'parentProductCategoryId']: from.id } : null,
          after: {
            [to.kind === 'catalog' ? 'prodCatalogId' : 'parentProductCategoryId']: to.id,
            position: body.position ?? null,
          },
        });
      });
      return service.rollup(ctx, body.productCategoryId);
    },

    /** One step up or down among its siblings (the keyboard's and the no-JavaScript reorder). */
    async moveStep(ctx: RequestContext, productCategoryId: string, place: Place, by: -1 | 1) {
      await write(ctx, async (tx, touched) => {
        await placeExists(tx, ctx, place);
        const ids = await siblings(tx, ctx, place);
        const i = ids.indexOf(productCategoryId);
        if (i < 0) throw AppError.notFound(`Category ${productCategoryId} is not in ${place.id}.`);
        const j = i + by;
        if (j < 0 || j >= ids.length) return;
        [ids[i], ids[j]] = [ids[j] as string, ids[i] as string];
        await renumber(tx, ctx, place, ids);
        touched.add(productCategoryId);
        await audit.record(tx, ctx, {
          entity: 'category.rollup',
          entityId: productCategoryId,
          action: by < 0 ? 'move-up' : 'move-down',
          after: { [place.kind === 'catalog' ? 'prodCatalogId' : 'parentProductCategoryId']: place.id, position: j },
        });
      });
    },

    // ---- Lookup ----------------------------------------------------------------------------------

    /** Categories whose id or name starts with `prefix` (case-insensitive), ids first; indexed. */
    async lookup(ctx: RequestContext, prefix: string): Promise<CategoryLookup> {
      guard(ctx);
      const like = `${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db.execute(sql`
        (SELECT product_category_id, category_name, 0 AS rank FROM categories
          WHERE tenant_id = ${ctx.tenantId} AND lower(product_category_id) LIKE ${like}
          ORDER BY lower(product_category_id) LIMIT ${CATEGORY_LOOKUP_LIMIT})
        UNION ALL
        (SELECT product_category_id, category_name, 1 AS rank FROM categories
          WHERE tenant_id = ${ctx.tenantId} AND lower(category_name) LIKE ${like}
          ORDER BY lower(category_name) LIMIT ${CATEGORY_LOOKUP_LIMIT})`);
      const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
        product_category_id: string;
        category_name: string | null;
      }[];
      const seen = new Set<string>();
      const out: CategoryLookup = [];
      for (const x of list) {
        if (seen.has(x.product_category_id)) continue;
        seen.add(x.product_category_id);
        out.push({ productCategoryId: x.product_category_id, categoryName: x.category_name });
        if (out.length >= CATEGORY_LOOKUP_LIMIT) break;
      }
      return out;
    },

    // ---- A category's own fields -----------------------------------------------------------------

    async category(ctx: RequestContext, productCategoryId: string): Promise<CategoryDetail> {
      guard(ctx);
      const row = await categoryRow(db, ctx, productCategoryId);
      const n = await counts(ctx, [row.productCategoryId]);
      return {
        productCategoryId: row.productCategoryId,
        categoryName: row.categoryName,
        description: row.description,
        linkTwoImageUrl: row.linkTwoImageUrl ?? row.linkTwoImageUrlS3,
        imageMediaId: row.imageMediaId,
        seoTitle: row.seoTitle,
        seoDescription: row.seoDescription,
        productCount: n.products.get(row.productCategoryId) ?? 0,
        childCount: n.children.get(row.productCategoryId) ?? 0,
      };
    },

    /** A new category, at a catalog's top or under a parent (or nowhere yet). */
    async createCategory(ctx: RequestContext, input: unknown): Promise<CategoryDetail> {
      guard(ctx);
      const f = parse(categoryCreateSchema, input);
      const image = await imageColumns(ctx, f);
      const id = await write(ctx, async (tx, touched) => {
        let productCategoryId = f.productCategoryId;
        if (productCategoryId) {
          const [taken] = await tx
            .select({ id: cat.productCategoryId })
            .from(cat)
            .where(and(eq(cat.tenantId, ctx.tenantId), eq(cat.productCategoryId, productCategoryId)));
          if (taken) throw AppError.field(409, 'CONFLICT', 'productCategoryId', 'another category has this id.');
        } else {
          productCategoryId = await uniqueId(tx, ctx, idFromName(f.categoryName), 'category');
        }
        if (f.prodCatalogId) await catalogRow(tx, ctx, f.prodCatalogId);
        if (f.parentProductCategoryId) await categoryRow(tx, ctx, f.parentProductCategoryId, 'parentProductCategoryId');
        const fields = {
          categoryName: f.categoryName,
          description: f.description ?? null,
          seoTitle: f.seoTitle ?? null,
          seoDescription: f.seoDescription ?? null,
          linkTwoImageUrl: null,
          linkTwoImageUrlS3: null,
          imageMediaId: null,
          ...image,
        };
        await tx.insert(cat).values({ tenantId: ctx.tenantId, productCategoryId, ...fields });
        if (f.prodCatalogId) await placeAt(tx, ctx, productCategoryId, { kind: 'catalog', id: f.prodCatalogId });
        if (f.parentProductCategoryId) {
          await placeAt(tx, ctx, productCategoryId, { kind: 'parent', id: f.parentProductCategoryId });
          touched.add(f.parentProductCategoryId);
        }
        touched.add(productCategoryId);
        await audit.record(tx, ctx, {
          entity: 'category',
          entityId: productCategoryId,
          action: 'create',
          after: {
            ...fields,
            prodCatalogId: f.prodCatalogId ?? null,
            parentProductCategoryId: f.parentProductCategoryId ?? null,
          },
        });
        return productCategoryId;
      });
      return service.category(ctx, id);
    },

    /**
     * The update's body with what the category read answers besides its fields taken back (issue
     * 30 point 6): productCount, childCount and imageMediaId when they are as read (else a 400 naming
     * the field), linkTwoImageUrl as read (which keeps the picture). The category is looked up
     * first: another store's id is a 404 whatever the rest of the body. Runs before the body's schema.
     */
    async categoryUpdateBody(ctx: RequestContext, body: unknown): Promise<unknown> {
      guard(ctx);
      if (!isPlainObject(body) || typeof body.productCategoryId !== 'string') return body;
      const current = await service.category(ctx, body.productCategoryId);
      const out = takeReadOnly(body, current, ['productCount', 'childCount', 'imageMediaId']);
      if (out.linkTwoImageUrl === current.linkTwoImageUrl) delete out.linkTwoImageUrl;
      return out;
    },

    /**
     * Changes a category's fields: a patch, fields left out keep their values (the picture too).
     * A write that changes nothing writes, audits and announces nothing.
     */
    async updateCategory(ctx: RequestContext, input: unknown): Promise<CategoryDetail> {
      guard(ctx);
      const f = parse(categoryUpdateSchema, input);
      const image = await imageColumns(ctx, f);
      const current = await categoryRow(db, ctx, f.productCategoryId);
      const keep = <K extends 'categoryName' | 'description' | 'seoTitle' | 'seoDescription'>(k: K) =>
        f[k] === undefined ? current[k] : (f[k] ?? null);
      const after = {
        categoryName: keep('categoryName'),
        description: keep('description'),
        seoTitle: keep('seoTitle'),
        seoDescription: keep('seoDescription'),
        ...image,
      };
      if (Object.entries(after).every(([k, v]) => current[k as keyof typeof current] === v)) {
        return service.category(ctx, f.productCategoryId);
      }
      await write(ctx, async (tx, touched) => {
        const before = await categoryRow(tx, ctx, f.productCategoryId);
        await tx
          .update(cat)
          .set(after)
          .where(and(eq(cat.tenantId, ctx.tenantId), eq(cat.productCategoryId, f.productCategoryId)));
        touched.add(f.productCategoryId);
        const pickBefore: Record<string, unknown> = {};
        for (const k of Object.keys(after)) pickBefore[k] = before[k as keyof typeof before] ?? null;
        await audit.record(tx, ctx, {
          entity: 'category',
          entityId: f.productCategoryId,
          action: 'update',
          before: pickBefore,
          after,
        });
      });
      return service.category(ctx, f.productCategoryId);
    },

    /** Deletes a category with no products and no subcategories; otherwise 409 with the reason. */
    async deleteCategory(ctx: RequestContext, productCategoryId: string): Promise<{ productCategoryId: string }> {
      await write(ctx, async (tx, touched) => {
        const row = await categoryRow(tx, ctx, productCategoryId);
        const [prod] = await tx
          .select({ n: count() })
          .from(pc)
          .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.productCategoryId, productCategoryId)));
        const [kids] = await tx
          .select({ n: count() })
          .from(r)
          .where(and(eq(r.tenantId, ctx.tenantId), eq(r.parentProductCategoryId, productCategoryId)));
        const products = Number(prod?.n ?? 0);
        const children = Number(kids?.n ?? 0);
        if (products || children) {
          const parts = [
            products ? `${products} product${products === 1 ? '' : 's'}` : '',
            children ? `${children} subcategor${children === 1 ? 'y' : 'ies'}` : '',
          ].filter(Boolean);
          throw AppError.conflict(
            `${label(row)} still has ${parts.join(' and ')}; move or remove ${products + children === 1 ? 'it' : 'them'} first.`,
          );
        }
        const parents = await tx
          .select({ id: r.parentProductCategoryId })
          .from(r)
          .where(and(eq(r.tenantId, ctx.tenantId), eq(r.productCategoryId, productCategoryId)));
        for (const p of parents) touched.add(p.id);
        // Its catalog and parent links go with it (foreign keys cascade).
        await tx.delete(cat).where(and(eq(cat.tenantId, ctx.tenantId), eq(cat.productCategoryId, productCategoryId)));
        touched.add(productCategoryId);
        await audit.record(tx, ctx, {
          entity: 'category',
          entityId: productCategoryId,
          action: 'delete',
          before: {
            categoryName: row.categoryName,
            description: row.description,
            linkTwoImageUrl: row.linkTwoImageUrl,
            seoTitle: row.seoTitle,
            seoDescription: row.seoDescription,
          },
        });
      });
      return { productCategoryId };
    },

    // ---- The dashboard page ----------------------------------------------------------------------

    async page(ctx: RequestContext): Promise<CategoriesPageData> {
      guard(ctx);
      const productStoreId = ctx.productStoreId;
      const [catalogs, unlinked, all, tops, links] = await Promise.all([
        catalogsOf(ctx, productStoreId),
        catalogsOf(ctx, null),
        db
          // The storefront's label (SPEC.md: categoryName, else description), so the page names every row.
          .select({
            productCategoryId: cat.productCategoryId,
            categoryName: sql<string | null>`coalesce(${cat.categoryName}, ${cat.description})`,
          })
          .from(cat)
          .where(eq(cat.tenantId, ctx.tenantId))
          .orderBy(asc(cat.categoryName), asc(cat.productCategoryId))
          .limit(ALL_LIMIT),
        db
          .select({ prodCatalogId: cc.prodCatalogId, id: cc.productCategoryId })
          .from(cc)
          .where(eq(cc.tenantId, ctx.tenantId))
          .orderBy(asc(cc.sequenceNum), asc(cc.productCategoryId)),
        db
          .select({ parent: r.parentProductCategoryId, id: r.productCategoryId })
          .from(r)
          .where(eq(r.tenantId, ctx.tenantId))
          .orderBy(asc(r.sequenceNum), asc(r.productCategoryId)),
      ]);
      const names = new Map(all.map((x) => [x.productCategoryId, x.categoryName]));
      const productCounts = new Map(
        (
          await db
            .select({ id: pc.productCategoryId, n: count() })
            .from(pc)
            .where(eq(pc.tenantId, ctx.tenantId))
            .groupBy(pc.productCategoryId)
        ).map((x) => [x.id, Number(x.n)]),
      );
      const childrenOf = new Map<string, string[]>();
      for (const l of links) childrenOf.set(l.parent, [...(childrenOf.get(l.parent) ?? []), l.id]);
      const node = (id: string, depth: number, path: Set<string>): CategoryNode => {
        const kids = childrenOf.get(id) ?? [];
        const deeper = depth < CATEGORY_TREE_MAX_DEPTH;
        return {
          productCategoryId: id,
          categoryName: names.get(id) ?? null,
          productCount: productCounts.get(id) ?? 0,
          children: deeper
            ? kids.filter((k) => !path.has(k)).map((k) => node(k, depth + 1, new Set([...path, k])))
            : [],
          hasMore: !deeper && kids.length > 0,
        };
      };
      const placed = new Set<string>([...tops.map((x) => x.id), ...links.map((x) => x.id)]);
      return {
        productStoreId,
        catalogs: catalogs.map((c) => ({
          prodCatalogId: c.prodCatalogId,
          catalogName: c.catalogName,
          sequenceNum: c.sequenceNum,
          tree: tops.filter((t) => t.prodCatalogId === c.prodCatalogId).map((t) => node(t.id, 1, new Set([t.id]))),
        })),
        unlinked,
        all,
        orphans: all
          .filter((x) => !placed.has(x.productCategoryId))
          .map((x) => node(x.productCategoryId, 1, new Set([x.productCategoryId]))),
      };
    },
  };
  return service;
}

export type CatalogAdminService = ReturnType<typeof createCatalogAdminService>;
export type { Place as CategoryPlace };
