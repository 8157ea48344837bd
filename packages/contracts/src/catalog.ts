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

/** Main data (SPEC.md section 3): the store id and its catalogs with their categories. */
export const mainDataSchema = z.object({
  productStoreId: z.string(),
  catalogCol: z.array(catalogSchema),
});
export type MainData = z.infer<typeof mainDataSchema>;

/** Category label rule of SPEC.md section 2 (category bar): name, else description, else id. */
export function categoryLabel(c: Pick<Category, 'categoryName' | 'description' | 'productCategoryId'>): string {
  return c.categoryName?.trim() || c.description?.trim() || c.productCategoryId;
}

/** Footer label rule of SPEC.md section 2: description, else name, else id. */
export function categoryFooterLabel(c: Pick<Category, 'categoryName' | 'description' | 'productCategoryId'>): string {
  return c.description?.trim() || c.categoryName?.trim() || c.productCategoryId;
}

/** Image rule: linkTwoImageUrl when it starts with http, else the S3 key, else null (placeholder). */
export function categoryImage(c: Pick<Category, 'linkTwoImageUrl' | 'linkTwoImageUrlS3'>): string | null {
  if (c.linkTwoImageUrl?.startsWith('http')) return c.linkTwoImageUrl;
  return c.linkTwoImageUrlS3 || null;
}

/** Product display image: the first of small, medium, detail that starts with http. */
export function productDisplayImage(p: {
  smallImageUrl?: string | null;
  mediumImageUrl?: string | null;
  detailImageUrl?: string | null;
}): string | null {
  for (const u of [p.smallImageUrl, p.mediumImageUrl, p.detailImageUrl]) {
    if (u?.startsWith('http')) return u;
  }
  return null;
}
