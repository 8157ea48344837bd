/**
 * The dashboard's categories page: the store's catalogs with their trees, unlinked catalogs, every category, the orphans.
 */
import { CATEGORY_TREE_MAX_DEPTH, type CategoriesPageData, type CategoryNode } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import { ALL_LIMIT, type CatalogAdminDeps, catalogAdminHelpers, guard } from './catalog-admin-helpers';

const cat = schema.categories;
const cc = schema.catalogCategories;
const r = schema.categoryRollups;
const pc = schema.productCategories;

export function createCategoriesPage(db: Db, deps: CatalogAdminDeps) {
  const { catalogsOf } = catalogAdminHelpers(db, deps);

  return {
    // ---- The dashboard page ----------------------------------------------------------------------

    async page(ctx: RequestContext): Promise<CategoriesPageData> {
      guard(ctx);
      const productStoreId = ctx.productStoreId;
      const [catalogs, unlinked, all, tops, links] = await Promise.all([
        catalogsOf(ctx, productStoreId),
        catalogsOf(ctx, null),
        db
          // The storefront's label (categoryName, else description), so the page names every row.
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
}
