/**
 * The category tree (the rollup): a category's parents and children, moves between places, and the lookup by id prefix.
 */
import { CATEGORY_LOOKUP_LIMIT, type CategoryLookup, type CategoryMove, type CategoryRollup } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { type Ok, ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../../lib/result';
import { type CatalogAdminDeps, catalogAdminHelpers, guard, refs } from './catalog-admin-helpers';
import {
  type CategoryLoopRefusal,
  categoryRow,
  detach,
  isAt,
  type Place,
  placeAt,
  placeExists,
  refuseCycle,
  renumber,
  setSequence,
  siblings,
} from './category-places';

const cat = schema.categories;
const cl = schema.catalogs;
const cc = schema.catalogCategories;
const r = schema.categoryRollups;

/** Adding a parent link: it would make a loop, or the category is under that parent already (CONFLICT). */
export type AddParentRefusal = Refusal<'CONFLICT'>;

export function createCategoryTree(db: Db, deps: CatalogAdminDeps) {
  const { audit } = deps;
  const { write } = catalogAdminHelpers(db, deps);

  const tree = {
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
    ): Promise<Result<CategoryRollup, AddParentRefusal>> {
      return returnRefusals<Ok<CategoryRollup>, AddParentRefusal>(async () => {
        await write(ctx, async (tx, touched) => {
          await refuseCycle(tx, ctx, body.productCategoryId, body.parentProductCategoryId);
          const place: Place = { kind: 'parent', id: body.parentProductCategoryId };
          if (await isAt(tx, ctx, body.productCategoryId, place)) {
            throw new Refused(
              refuse(
                409,
                'CONFLICT',
                `Category ${body.productCategoryId} is already under ${body.parentProductCategoryId}; use PUT to change its sequenceNum.`,
              ),
            );
          }
          await placeAt(tx, ctx, body.productCategoryId, place);
          if (body.sequenceNum !== undefined)
            await setSequence(tx, ctx, body.productCategoryId, place, body.sequenceNum);
          touched.add(body.productCategoryId).add(body.parentProductCategoryId);
          await audit.record(tx, ctx, {
            entity: 'category.rollup',
            entityId: body.productCategoryId,
            action: 'add-parent',
            after: { parentProductCategoryId: body.parentProductCategoryId, sequenceNum: body.sequenceNum ?? null },
          });
        });
        return ok(await tree.rollup(ctx, body.productCategoryId));
      });
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
    ): Promise<Result<CategoryRollup, CategoryLoopRefusal>> {
      return returnRefusals<Ok<CategoryRollup>, CategoryLoopRefusal>(async () => {
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
              throw AppError.notFound(
                `Category ${body.productCategoryId} is not under ${body.parentProductCategoryId}.`,
              );
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
        return ok(await tree.rollup(ctx, body.productCategoryId));
      });
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
      return tree.rollup(ctx, body.productCategoryId);
    },

    /**
     * The dashboard's move (drag and drop, the "Move to" menu): out of one place and into another at a
     * position, in one transaction. Without a from-place the category is added at the new place.
     */
    async move(ctx: RequestContext, body: CategoryMove): Promise<Result<CategoryRollup, CategoryLoopRefusal>> {
      return returnRefusals<Ok<CategoryRollup>, CategoryLoopRefusal>(async () => {
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
        return ok(await tree.rollup(ctx, body.productCategoryId));
      });
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
  };
  return tree;
}
