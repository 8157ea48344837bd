/**
 * A category's own fields: read, create, update (a patch that takes back what it read), delete.
 */
import { type CategoryDetail, categoryCreateSchema, categoryUpdateSchema } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, count, eq } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import {
  type Ok,
  ok,
  type Refusal,
  Refused,
  type Result,
  refuse,
  refuseField,
  returnRefusals,
} from '../../../lib/result';
import { isPlainObject, takeReadOnly } from '../../../lib/write-back';
import { type CatalogAdminDeps, catalogAdminHelpers, guard, parse } from './catalog-admin-helpers';
import { catalogRow, categoryRow, idFromName, label, placeAt, uniqueId } from './category-places';

const cat = schema.categories;
const r = schema.categoryRollups;
const pc = schema.productCategories;

/** Creating a category: another category has the id asked for (CONFLICT on productCategoryId). */
export type CreateCategoryRefusal = Refusal<'CONFLICT'>;
/** Deleting a category: it still has products or subcategories (CONFLICT, saying how many). */
export type DeleteCategoryRefusal = Refusal<'CONFLICT'>;

export function createCategoryFields(db: Db, deps: CatalogAdminDeps) {
  const { audit } = deps;
  const { write, imageColumns, counts } = catalogAdminHelpers(db, deps);

  const fields = {
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
    async createCategory(ctx: RequestContext, input: unknown): Promise<Result<CategoryDetail, CreateCategoryRefusal>> {
      guard(ctx);
      const f = parse(categoryCreateSchema, input);
      const image = await imageColumns(ctx, f);
      return returnRefusals<Ok<CategoryDetail>, CreateCategoryRefusal>(async () => {
        const id = await write(ctx, async (tx, touched) => {
          let productCategoryId = f.productCategoryId;
          if (productCategoryId) {
            const [taken] = await tx
              .select({ id: cat.productCategoryId })
              .from(cat)
              .where(and(eq(cat.tenantId, ctx.tenantId), eq(cat.productCategoryId, productCategoryId)));
            if (taken) {
              throw new Refused(refuseField(409, 'CONFLICT', 'productCategoryId', 'another category has this id.'));
            }
          } else {
            productCategoryId = await uniqueId(tx, ctx, idFromName(f.categoryName), 'category');
          }
          if (f.prodCatalogId) await catalogRow(tx, ctx, f.prodCatalogId);
          if (f.parentProductCategoryId)
            await categoryRow(tx, ctx, f.parentProductCategoryId, 'parentProductCategoryId');
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
        return ok(await fields.category(ctx, id));
      });
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
      const current = await fields.category(ctx, body.productCategoryId);
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
        return fields.category(ctx, f.productCategoryId);
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
      return fields.category(ctx, f.productCategoryId);
    },

    /** Deletes a category with no products and no subcategories; otherwise 409 with the reason. */
    async deleteCategory(
      ctx: RequestContext,
      productCategoryId: string,
    ): Promise<Result<{ productCategoryId: string }, DeleteCategoryRefusal>> {
      return returnRefusals<Ok<{ productCategoryId: string }>, DeleteCategoryRefusal>(async () => {
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
            throw new Refused(
              refuse(
                409,
                'CONFLICT',
                `${label(row)} still has ${parts.join(' and ')}; move or remove ${products + children === 1 ? 'it' : 'them'} first.`,
              ),
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
        return ok({ productCategoryId });
      });
    },
  };
  return fields;
}
