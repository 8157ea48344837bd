import type { Catalog, MainData } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { absoluteMediaUrl } from '../../lib/urls';

export function createCatalogService(db: Db) {
  return {
    /** Catalogs of a store in display order, each with its categories. */
    async mainData(ctx: TenantContext, productStoreId: string): Promise<MainData> {
      const c = schema.catalogs;
      const catalogs = await db
        .select()
        .from(c)
        .where(and(eq(c.tenantId, ctx.tenantId), eq(c.productStoreId, productStoreId)))
        .orderBy(asc(c.sequenceNum), asc(c.prodCatalogId));
      const ids = catalogs.map((x) => x.prodCatalogId);
      const cc = schema.catalogCategories;
      const cat = schema.categories;
      const links = ids.length
        ? await db
            .select({
              prodCatalogId: cc.prodCatalogId,
              productCategoryId: cat.productCategoryId,
              categoryName: cat.categoryName,
              description: cat.description,
              linkTwoImageUrl: cat.linkTwoImageUrl,
              linkTwoImageUrlS3: cat.linkTwoImageUrlS3,
            })
            .from(cc)
            .innerJoin(cat, and(eq(cat.tenantId, cc.tenantId), eq(cat.productCategoryId, cc.productCategoryId)))
            .where(and(eq(cc.tenantId, ctx.tenantId), inArray(cc.prodCatalogId, ids)))
            .orderBy(asc(cc.prodCatalogId), asc(cc.sequenceNum), asc(cat.productCategoryId))
        : [];
      const byCatalog = new Map<string, Catalog['categoryList']>();
      for (const l of links) {
        const list = byCatalog.get(l.prodCatalogId) ?? [];
        list.push({
          productCategoryId: l.productCategoryId,
          categoryName: l.categoryName,
          description: l.description,
          linkTwoImageUrl: absoluteMediaUrl(ctx, l.linkTwoImageUrl),
          linkTwoImageUrlS3: l.linkTwoImageUrlS3,
        });
        byCatalog.set(l.prodCatalogId, list);
      }
      return {
        productStoreId,
        catalogCol: catalogs.map((x) => ({
          prodCatalogId: x.prodCatalogId,
          productStoreId,
          catalogName: x.catalogName,
          categoryList: byCatalog.get(x.prodCatalogId) ?? [],
        })),
      };
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
