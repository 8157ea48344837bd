import type { ProductCsvColumn } from './product-csv';

/** The most an import file may weigh; the upload is refused past it while streaming. */
export const PRODUCT_IMPORT_MAX_BYTES = 50 * 1024 * 1024;

/** What each column of the product CSV holds, as the import page documents it for owners. */
export const PRODUCT_CSV_COLUMN_HELP: Record<ProductCsvColumn, string> = {
  sku: 'Your product code, unique in the store. A row whose SKU exists updates that product; a new SKU creates one.',
  name: 'The product name shoppers see.',
  slug: 'The web address after /product/ (a-z, 0-9, hyphens). Empty: made from the name on create, kept on update.',
  status: 'ACTIVE (on sale), DRAFT (hidden) or ARCHIVED. Empty: ACTIVE on create, kept on update.',
  brand: 'The brand name, or empty.',
  list_price: 'The price with a decimal point in the store’s currency, no currency sign: 12.50 or 1,299.00.',
  sale_price: 'A lower price while on sale, written like list_price; empty for none.',
  currency: 'Three-letter code (USD). Empty: the product’s or the store’s currency.',
  stock: 'Units in stock, a whole number; recorded as a correction “CSV import”. Empty leaves stock as it is.',
  weight_grams: 'Shipping weight in whole grams, or empty.',
  categories: 'Category ids separated by | (as the export writes them). Empty removes the product from all categories.',
  featured: 'true or false.',
  short_description: 'One or two lines for product cards.',
  description: 'The full description; HTML allowed (scripts are removed). Line breaks inside quotes are kept.',
  seo_title: 'Title for search engines (up to 70 characters), or empty.',
  seo_description: 'Description for search engines (up to 320 characters), or empty.',
  product_id: 'Written by the export for reference; ignored on import (products are matched by SKU).',
};
