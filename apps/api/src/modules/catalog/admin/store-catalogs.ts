/**
 * A store's catalogs and each catalog's top categories: link, unlink, add, remove, reorder.
 */
import type { CreateProductStoreCatalog, ProdCatalogCategories, StoreCatalogs } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { type Ok, ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../../lib/result';
import { takeReadOnly } from '../../../lib/write-back';
import { storeIdFor } from '../../../plugins/tenancy';
import { type CatalogAdminDeps, catalogAdminHelpers, guard, refs } from './catalog-admin-helpers';
import {
  catalogRow,
  categoryRow,
  detach,
  idFromName,
  isAt,
  type Place,
  placeAt,
  renumber,
  STEP,
  setSequence,
  siblings,
  uniqueId,
} from './category-places';

const cat = schema.categories;
const cl = schema.catalogs;
const cc = schema.catalogCategories;

/** Linking a catalog to the store: another store of the site shows it; unlink it there first (CONFLICT). */
export type LinkCatalogRefusal = Refusal<'CONFLICT'>;

export function createStoreCatalogs(db: Db, deps: CatalogAdminDeps) {
  const { audit } = deps;
  const { write, catalogsOf } = catalogAdminHelpers(db, deps);

  const catalogs = {
    // ---- Stores and catalogs ---------------------------------------------------------------------

    async storeCatalogs(ctx: RequestContext, requestedStore?: string | null): Promise<StoreCatalogs> {
      guard(ctx);
      const productStoreId = await storeIdFor(ctx, deps.tenants, requestedStore);
      const [catalogs, unlinked] = await Promise.all([catalogsOf(ctx, productStoreId), catalogsOf(ctx, null)]);
      return { productStoreId, catalogs, unlinked };
    },

    /** Links an existing catalog (or a new one) to the store at a place in its order. */
    async linkCatalog(
      ctx: RequestContext,
      body: CreateProductStoreCatalog,
    ): Promise<Result<StoreCatalogs, LinkCatalogRefusal>> {
      guard(ctx);
      const productStoreId = await storeIdFor(ctx, deps.tenants, body.productStoreId);
      if (body.prodCatalogId) {
        // One catalog as the read lists it, sent back: its count as read, and
        // nothing written, audited or announced when it is linked here already, as asked.
        const shown = (await catalogsOf(ctx, productStoreId)).find((c) => c.prodCatalogId === body.prodCatalogId);
        takeReadOnly(body, { categoryCount: shown?.categoryCount }, ['categoryCount']);
        if (
          shown &&
          body.sequenceNum === shown.sequenceNum &&
          (body.catalogName ?? shown.catalogName) === shown.catalogName
        ) {
          return ok(await catalogs.storeCatalogs(ctx, productStoreId));
        }
      } else if (body.categoryCount !== undefined) {
        takeReadOnly(body, {}, ['categoryCount']);
      }
      return returnRefusals<Ok<StoreCatalogs>, LinkCatalogRefusal>(async () => {
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
              throw new Refused(
                refuse(
                  409,
                  'CONFLICT',
                  `Catalog ${existing.prodCatalogId} is shown by store ${existing.productStoreId}; unlink it there first.`,
                ),
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
        return ok(await catalogs.storeCatalogs(ctx, productStoreId));
      });
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
      return catalogs.storeCatalogs(ctx, productStoreId);
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
      return catalogs.catalogCategories(ctx, body.prodCatalogId);
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
      return catalogs.catalogCategories(ctx, body.prodCatalogId);
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
      return catalogs.catalogCategories(ctx, body.prodCatalogId);
    },
  };
  return catalogs;
}
