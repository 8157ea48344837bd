import { z } from 'zod';
import type { FormOutcome } from './storefront';

// Catalog administration (decision 035): a store's
// catalogs, their top categories, the category rollup (parent/child links) and the categories'
// own fields. Parameter names are the clients' (productStoreId, prodCatalogId, productCategoryId).

/** The most categories a lookup returns: a picker shows a short list and narrows as one types. */
export const CATEGORY_LOOKUP_LIMIT = 20;
/** How deep the dashboard's tree is drawn; the rollup refuses cycles, this only bounds a very deep one. */
export const CATEGORY_TREE_MAX_DEPTH = 8;

const ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** An id the client names (an existing row): any text a row may carry, bounded. */
const refId = (field: string) =>
  z
    .string({ error: `${field} is required.` })
    .trim()
    .min(1, `${field} is required.`)
    .max(100, `${field} is longer than 100 characters.`);

/** An id the owner gives a new row: letters, digits, - and _ (it appears in the page's address). */
const newId = (field: string) =>
  refId(field)
    .max(60, `${field} is longer than 60 characters.`)
    .regex(ID_PATTERN, `${field} may contain only letters, digits, - and _.`);

const sequenceNum = z
  .number({ error: 'sequenceNum must be a whole number.' })
  .int('sequenceNum must be a whole number.')
  .min(0, 'sequenceNum must be 0 or more.')
  .max(1_000_000, 'sequenceNum must be at most 1000000.');

const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text.` })
    .trim()
    .max(max, `${field} is longer than ${max} characters.`)
    .transform((s) => (s === '' ? null : s))
    .nullish();

// ---- Stores and catalogs ------------------------------------------------------------------------

/** GET /catalog/stores/editproductstorecatalogs?productStoreId= (the host's store when absent). */
export const storeCatalogsQuerySchema = z.object({
  productStoreId: z.string().trim().max(32, 'productStoreId is longer than 32 characters.').optional(),
});

/** POST /catalog/stores/createproductstorecatalog: link an existing catalog, or create one, at a place. */
export const createProductStoreCatalogSchema = z
  .strictObject({
    productStoreId: z.string().trim().max(32, 'productStoreId is longer than 32 characters.').optional(),
    /** An existing catalog of this site to link; or the id of the new one (made from the name when absent). */
    prodCatalogId: newId('prodCatalogId').optional(),
    /** Required for a new catalog; renames an existing one when given. */
    catalogName: z
      .string({ error: 'catalogName must be text.' })
      .trim()
      .min(1, 'catalogName is required.')
      .max(100, 'catalogName is longer than 100 characters.')
      .optional(),
    sequenceNum: sequenceNum.optional(),
    /**
     * Read-only: one catalog as GET .../stores/editproductstorecatalogs lists it can be sent back as
     * it is; its categoryCount is taken when as read, else a 400 naming it.
     */
    categoryCount: z.number().int().min(0).optional(),
  })
  .refine((b) => b.prodCatalogId || b.catalogName, {
    path: ['catalogName'],
    message: 'catalogName is required for a new catalog (or give the prodCatalogId of an existing one).',
  });
export type CreateProductStoreCatalog = z.infer<typeof createProductStoreCatalogSchema>;

/** POST /catalog/stores/deleteproductstorecatalog: unlink (the catalog and its categories are kept). */
export const deleteProductStoreCatalogSchema = z.strictObject({
  productStoreId: z.string().trim().max(32, 'productStoreId is longer than 32 characters.').optional(),
  prodCatalogId: refId('prodCatalogId'),
});

export const storeCatalogSchema = z.object({
  prodCatalogId: z.string(),
  /** Null for a catalog of the site that no store shows. */
  productStoreId: z.string().nullable(),
  catalogName: z.string(),
  sequenceNum: z.number().int(),
  /** Its top categories. */
  categoryCount: z.number().int(),
});
export type StoreCatalog = z.infer<typeof storeCatalogSchema>;

export const storeCatalogsSchema = z.object({
  productStoreId: z.string(),
  /** The store's catalogs in the order the category bar shows them. */
  catalogs: z.array(storeCatalogSchema),
  /** The site's catalogs no store shows, ready to be linked again. */
  unlinked: z.array(storeCatalogSchema),
});
export type StoreCatalogs = z.infer<typeof storeCatalogsSchema>;

// ---- A catalog's top categories -----------------------------------------------------------------

export const prodCatalogQuerySchema = z.object({ prodCatalogId: refId('prodCatalogId') });

/** POST /catalog/category/content/createProdCatalogCategory: add a top category, or change its place. */
export const prodCatalogCategorySchema = z.strictObject({
  prodCatalogId: refId('prodCatalogId'),
  productCategoryId: refId('productCategoryId'),
  sequenceNum: sequenceNum.optional(),
});

/** POST /catalog/category/content/deleteProdCatalogCategory: the category stays, only the link goes. */
export const prodCatalogCategoryDeleteSchema = z.strictObject({
  prodCatalogId: refId('prodCatalogId'),
  productCategoryId: refId('productCategoryId'),
});

/** POST /catalog/category/content/reorderProdCatalogCategories: every top category once, in order. */
export const prodCatalogCategoriesReorderSchema = z.strictObject({
  prodCatalogId: refId('prodCatalogId'),
  productCategoryIds: z
    .array(refId('productCategoryIds'), { error: 'productCategoryIds must be a list.' })
    .max(500, 'productCategoryIds lists more than 500 categories.'),
});

export const categoryRefSchema = z.object({
  productCategoryId: z.string(),
  categoryName: z.string().nullable(),
  description: z.string().nullable(),
  sequenceNum: z.number().int(),
});
export type CategoryRef = z.infer<typeof categoryRefSchema>;

export const prodCatalogCategoriesSchema = z.object({
  prodCatalogId: z.string(),
  catalogName: z.string(),
  productStoreId: z.string().nullable(),
  categories: z.array(categoryRefSchema),
});
export type ProdCatalogCategories = z.infer<typeof prodCatalogCategoriesSchema>;

// ---- The rollup (parent/child links) ------------------------------------------------------------

export const categoryQuerySchema = z.object({ productCategoryId: refId('productCategoryId') });

/** POST /catalog/category/rollup/create/parent: put the category under a(nother) parent. */
export const rollupParentSchema = z.strictObject({
  productCategoryId: refId('productCategoryId'),
  parentProductCategoryId: refId('parentProductCategoryId'),
  sequenceNum: sequenceNum.optional(),
});

/**
 * PUT /catalog/category/rollup/create/parent: change a link: its place (sequenceNum), or, with
 * fromParentProductCategoryId, move the category from that parent to parentProductCategoryId.
 */
export const rollupParentChangeSchema = rollupParentSchema.extend({
  fromParentProductCategoryId: refId('fromParentProductCategoryId').optional(),
});

/** POST /catalog/category/rollup/delete/parent. */
export const rollupParentDeleteSchema = z.strictObject({
  productCategoryId: refId('productCategoryId'),
  parentProductCategoryId: refId('parentProductCategoryId'),
});

/**
 * POST /catalog/category/movecategory: the dashboard's drag and drop and its "Move to" menu in one
 * step: from a catalog's top or a parent, to a catalog's top or a parent, at a position (0 first;
 * absent: last). One of each from/to pair.
 */
export const categoryMoveSchema = z
  .strictObject({
    productCategoryId: refId('productCategoryId'),
    fromProdCatalogId: refId('fromProdCatalogId').optional(),
    fromParentProductCategoryId: refId('fromParentProductCategoryId').optional(),
    toProdCatalogId: refId('toProdCatalogId').optional(),
    toParentProductCategoryId: refId('toParentProductCategoryId').optional(),
    position: z
      .number({ error: 'position must be a whole number.' })
      .int('position must be a whole number.')
      .min(0, 'position must be 0 or more.')
      .max(100_000, 'position must be at most 100000.')
      .optional(),
  })
  .refine((b) => !(b.fromProdCatalogId && b.fromParentProductCategoryId), {
    path: ['fromParentProductCategoryId'],
    message: 'Give fromProdCatalogId or fromParentProductCategoryId, not both.',
  })
  .refine((b) => !!b.toProdCatalogId !== !!b.toParentProductCategoryId, {
    path: ['toParentProductCategoryId'],
    message: 'Give either toProdCatalogId or toParentProductCategoryId.',
  });
export type CategoryMove = z.infer<typeof categoryMoveSchema>;

export const categoryRollupSchema = z.object({
  productCategoryId: z.string(),
  categoryName: z.string().nullable(),
  parents: z.array(categoryRefSchema),
  children: z.array(categoryRefSchema),
  /** The catalogs it is a top category of. */
  catalogs: z.array(z.object({ prodCatalogId: z.string(), catalogName: z.string(), sequenceNum: z.number().int() })),
});
export type CategoryRollup = z.infer<typeof categoryRollupSchema>;

// ---- Lookup -------------------------------------------------------------------------------------

/** GET /catalog/autocomplete/LookupProductCategory?productCategoryId= : a prefix of an id or a name. */
export const categoryLookupQuerySchema = z.object({
  productCategoryId: z.string().trim().max(100, 'productCategoryId is longer than 100 characters.').default(''),
});

export const categoryLookupSchema = z.array(
  z.object({ productCategoryId: z.string(), categoryName: z.string().nullable() }),
);
export type CategoryLookup = z.infer<typeof categoryLookupSchema>;

// ---- A category's own fields --------------------------------------------------------------------

/** A hosted picture: an https (or http) address; the storefront shows it as given. */
const imageUrl = z
  .string({ error: 'linkTwoImageUrl must be text.' })
  .trim()
  .max(1000, 'linkTwoImageUrl is longer than 1000 characters.')
  .refine((s) => s === '' || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(s), 'linkTwoImageUrl must be an http(s) address.')
  .transform((s) => (s === '' ? null : s))
  .nullish();

export const categoryFieldsSchema = z.strictObject({
  categoryName: z
    .string({ error: 'categoryName is required.' })
    .trim()
    .min(1, 'categoryName is required.')
    .max(100, 'categoryName is longer than 100 characters.'),
  description: optionalText('description', 255),
  /** An image hosted elsewhere; the uploaded picture (mediaId) wins when both are given. */
  linkTwoImageUrl: imageUrl,
  /** A picture of this store's media library (uploaded through POST /api/media/upload). */
  mediaId: optionalText('mediaId', 100),
  /** True: drop the picture. */
  removeImage: z.union([z.boolean(), z.enum(['true', 'false', 'on', ''])]).optional(),
  seoTitle: optionalText('seoTitle', 120),
  seoDescription: optionalText('seoDescription', 320),
});
export type CategoryFields = z.infer<typeof categoryFieldsSchema>;

/** POST /catalog/category/createcategory: the fields, and where it goes (a catalog's top or under a parent). */
export const categoryCreateSchema = categoryFieldsSchema
  .extend({
    /** Made from the name when absent. */
    productCategoryId: newId('productCategoryId').optional(),
    prodCatalogId: refId('prodCatalogId').optional(),
    parentProductCategoryId: refId('parentProductCategoryId').optional(),
  })
  .refine((b) => !(b.prodCatalogId && b.parentProductCategoryId), {
    path: ['parentProductCategoryId'],
    message: 'Give prodCatalogId or parentProductCategoryId, not both.',
  });

/**
 * PUT /catalog/category/updatecategory: a patch, so every field but the id is optional (fields left
 * out keep their values). What the category read answers can be sent back as it is: its counts and
 * imageMediaId are read-only, and its linkTwoImageUrl as read (a /media/ path too) keeps the picture;
 * the server takes those out before this schema judges the rest.
 */
export const categoryUpdateSchema = categoryFieldsSchema
  .partial()
  .extend({ productCategoryId: refId('productCategoryId') });

/** POST /catalog/category/deletecategory. */
export const categoryDeleteSchema = z.strictObject({ productCategoryId: refId('productCategoryId') });

export const categoryDetailSchema = z.object({
  productCategoryId: z.string(),
  categoryName: z.string().nullable(),
  description: z.string().nullable(),
  /** The picture's address as stored: an http address, or this store's /media/ path. */
  linkTwoImageUrl: z.string().nullable(),
  imageMediaId: z.string().nullable(),
  seoTitle: z.string().nullable(),
  seoDescription: z.string().nullable(),
  productCount: z.number().int(),
  childCount: z.number().int(),
});
export type CategoryDetail = z.infer<typeof categoryDetailSchema>;

// ---- The dashboard's Categories page ------------------------------------------------------------

export interface CategoryNode {
  productCategoryId: string;
  categoryName: string | null;
  productCount: number;
  /** Empty at the depth limit too (hasMore says so). */
  children: CategoryNode[];
  hasMore: boolean;
}

export interface CategoriesPageCatalog {
  prodCatalogId: string;
  catalogName: string;
  sequenceNum: number;
  tree: CategoryNode[];
}

export interface CategoriesPageData {
  productStoreId: string;
  catalogs: CategoriesPageCatalog[];
  unlinked: StoreCatalog[];
  /** Every category of the site (id and name), for the "Move to" menus; bounded. */
  all: CategoryLookup;
  /** Categories no catalog and no parent holds (shown so none gets lost). */
  orphans: CategoryNode[];
}

export interface CategoryEditorData {
  category: CategoryDetail;
  rollup: CategoryRollup;
}

export type CategoryFormField =
  | 'categoryName'
  | 'description'
  | 'linkTwoImageUrl'
  | 'mediaId'
  | 'seoTitle'
  | 'seoDescription'
  | 'productCategoryId'
  | 'catalogName'
  | 'prodCatalogId'
  | 'to';

export type CategoriesActionResult =
  | { ok: true; message: string; productCategoryId?: string }
  | FormOutcome<CategoryFormField>;

/** The Categories pages' functions (apps/api modules/catalog/admin); the 'catalog' permission. */
export interface CatalogAdminPages {
  categoriesPage(): Promise<CategoriesPageData>;
  /** Null when the category does not exist on this site (the page shows its 404). */
  categoryEditor(productCategoryId: string): Promise<CategoryEditorData | null>;
  /**
   * One form, one intent: create, update, delete, move, move-up, move-down, link-catalog,
   * unlink-catalog, create-catalog. Values as the form posts them.
   */
  categoriesAction(form: Record<string, string>): Promise<CategoriesActionResult>;
}
