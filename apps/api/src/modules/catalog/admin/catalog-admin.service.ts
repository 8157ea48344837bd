import type { Db } from '@app/db';
import type { CatalogAdminDeps } from './catalog-admin-helpers';
import { createCategoriesPage } from './categories-page';
import { createCategoryFields } from './category-fields';
import { createCategoryTree } from './category-tree';
import { createStoreCatalogs } from './store-catalogs';

export type { CatalogAdminDeps } from './catalog-admin-helpers';

/**
 * Catalog administration (decision 035). Every write checks the 'catalog'
 * permission, runs in one transaction with its audit entry, and emits `catalog.changed` with the
 * categories it touched after the commit: the public read cache (main data, the shell, category
 * pages) and the search index follow on every process (app.ts subscribes).
 *
 * The use cases live beside this file (decision 090): store-catalogs.ts, category-tree.ts,
 * category-fields.ts, categories-page.ts; what they share in catalog-admin-helpers.ts and
 * category-places.ts.
 */
export function createCatalogAdminService(db: Db, deps: CatalogAdminDeps) {
  return {
    ...createStoreCatalogs(db, deps),
    ...createCategoryTree(db, deps),
    ...createCategoryFields(db, deps),
    ...createCategoriesPage(db, deps),
  };
}

export type CatalogAdminService = ReturnType<typeof createCatalogAdminService>;
export type { Place as CategoryPlace } from './category-places';
