import { z } from 'zod';

export const categorySchema = z.object({
  productCategoryId: z.string(),
  categoryName: z.string().nullable(),
  description: z.string().nullable(),
  /** Absolute http URL, or empty when the image only lives in object storage. */
  linkTwoImageUrl: z.string().nullable(),
  linkTwoImageUrlS3: z.string().nullable(),
});
export type Category = z.infer<typeof categorySchema>;

export const catalogSchema = z.object({
  prodCatalogId: z.string(),
  productStoreId: z.string(),
  catalogName: z.string(),
  categoryList: z.array(categorySchema),
});
export type Catalog = z.infer<typeof catalogSchema>;

/** Main data: the store id and its catalogs with their categories. */
export const mainDataSchema = z.object({
  productStoreId: z.string(),
  catalogCol: z.array(catalogSchema),
});
export type MainData = z.infer<typeof mainDataSchema>;
