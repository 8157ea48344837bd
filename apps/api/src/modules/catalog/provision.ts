import { schema, type Tx } from '@app/db';

/** A category a new store starts with. */
export interface StarterCategory {
  id: string;
  name: string;
  description: string;
}

/**
 * A new store's catalog, written by the catalog domain in sign-up's transaction (decision 110): its
 * one catalog, and the starter's categories in it, in the order given.
 */
export async function openStoreCatalog(
  tx: Tx,
  store: { tenantId: string; productStoreId: string; catalogId: string; catalogName: string },
  categories: readonly StarterCategory[],
): Promise<void> {
  const { tenantId, catalogId } = store;
  await tx.insert(schema.catalogs).values({
    tenantId,
    prodCatalogId: catalogId,
    productStoreId: store.productStoreId,
    catalogName: store.catalogName,
    sequenceNum: 0,
  });
  if (categories.length === 0) return;
  await tx
    .insert(schema.categories)
    .values(
      categories.map((c) => ({ tenantId, productCategoryId: c.id, categoryName: c.name, description: c.description })),
    );
  await tx
    .insert(schema.catalogCategories)
    .values(
      categories.map((c, i) => ({ tenantId, prodCatalogId: catalogId, productCategoryId: c.id, sequenceNum: i })),
    );
}
