import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { type Refusal, Refused, refuse } from '../../../lib/result';

const cat = schema.categories;
const cl = schema.catalogs;
const cc = schema.catalogCategories;
const r = schema.categoryRollups;

/** Where a category sits: a catalog's top, or under a parent category. */
export type Place = { kind: 'catalog'; id: string } | { kind: 'parent'; id: string };

/** Sequence numbers are rewritten as 10, 20, 30... so a client's own sequenceNum can slot between. */
export const STEP = 10;

export function label(row: { productCategoryId: string; categoryName: string | null }) {
  return row.categoryName ? `"${row.categoryName}" (${row.productCategoryId})` : row.productCategoryId;
}

/** A new row's id made from its name: GARDEN_FERNS. */
export function idFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase()
    .slice(0, 40);
  return base || 'CATEGORY';
}

export async function categoryRow(
  q: Tx | Db,
  ctx: RequestContext,
  productCategoryId: string,
  field = 'productCategoryId',
) {
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

export async function catalogRow(q: Tx | Db, ctx: RequestContext, prodCatalogId: string) {
  const [row] = await q
    .select()
    .from(cl)
    .where(and(eq(cl.tenantId, ctx.tenantId), eq(cl.prodCatalogId, prodCatalogId)));
  if (!row) throw AppError.notFound(`There is no catalog ${prodCatalogId.slice(0, 100)} in this store.`);
  return row;
}

/** The categories below `productCategoryId`, at any depth (UNION stops on a loop, should one exist). */
export async function isInside(tx: Tx, ctx: RequestContext, candidate: string, ancestor: string): Promise<boolean> {
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

/**
 * A parent link that would put a category inside itself (decision 088): CONFLICT naming both. The
 * operations that link a parent return it; found inside their transaction, it is thrown as `Refused`.
 */
export type CategoryLoopRefusal = Refusal<'CONFLICT'>;

/** Refuses (409, naming both) a parent link that would put a category inside itself: throws `Refused`. */
export async function refuseCycle(tx: Tx, ctx: RequestContext, childId: string, parentId: string) {
  const child = await categoryRow(tx, ctx, childId);
  const parent = await categoryRow(tx, ctx, parentId, 'parentProductCategoryId');
  if (childId === parentId) {
    throw new Refused(refuse(409, 'CONFLICT', `A category cannot be its own parent: ${label(child)}.`));
  }
  if (await isInside(tx, ctx, parentId, childId)) {
    throw new Refused(
      refuse(
        409,
        'CONFLICT',
        `Cannot put ${label(child)} under ${label(parent)}: ${label(parent)} is already inside ${label(child)}, so the link would make a loop.`,
      ),
    );
  }
  return { child, parent };
}

/** The ids at a place, in order. */
export async function siblings(tx: Tx, ctx: RequestContext, place: Place): Promise<string[]> {
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
export async function renumber(tx: Tx, ctx: RequestContext, place: Place, ids: string[]) {
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

export async function isAt(tx: Tx, ctx: RequestContext, id: string, place: Place): Promise<boolean> {
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

export async function detach(tx: Tx, ctx: RequestContext, id: string, place: Place) {
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
export async function placeAt(tx: Tx, ctx: RequestContext, id: string, place: Place, position?: number) {
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
export async function setSequence(tx: Tx, ctx: RequestContext, id: string, place: Place, sequenceNum: number) {
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

export async function placeExists(tx: Tx, ctx: RequestContext, place: Place) {
  if (place.kind === 'catalog') await catalogRow(tx, ctx, place.id);
  else await categoryRow(tx, ctx, place.id, 'parentProductCategoryId');
}

export async function uniqueId(tx: Tx, ctx: RequestContext, base: string, kind: 'category' | 'catalog') {
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
