import type { ProductCsvColumn } from './product-csv';

/** The most an import file may weigh; the upload is refused past it while streaming. */
export const PRODUCT_IMPORT_MAX_BYTES = 50 * 1024 * 1024;

/** What each column of the product CSV holds, as the import page documents it for owners. */
export const PRODUCT_CSV_COLUMN_HELP: Record<ProductCsvColumn, string> = {
  sku: 'The variant’s code, unique in the store. A variant is matched by variant_id, else by its SKU; a new SKU in a product adds a variant (a new product when it is the product’s only row).',
  name: 'The product name shoppers see, on the product’s first row. The rows after it with the product columns empty are its other variants.',
  slug: 'The web address after /product/ (a-z, 0-9, hyphens). Empty: made from the name on create, kept on update.',
  status: 'ACTIVE (on sale), DRAFT (hidden) or ARCHIVED. Empty: ACTIVE on create, kept on update.',
  brand: 'The brand name, or empty.',
  list_price: 'The price with a decimal point in the store’s currency, no currency sign: 12.50 or 1,299.00.',
  sale_price: 'A lower price while on sale, written like list_price; empty for none.',
  currency: 'Three-letter code (USD). Empty: the product’s or the store’s currency.',
  stock:
    'This variant’s units in stock, a whole number; the difference from the count now is recorded as a correction “CSV import”. Empty leaves stock as it is.',
  weight_grams: 'Shipping weight in whole grams, or empty.',
  categories: 'Category ids separated by | (as the export writes them). Empty removes the product from all categories.',
  featured: 'true or false.',
  short_description: 'One or two lines for product cards.',
  description: 'The full description; HTML allowed (scripts are removed). Line breaks inside quotes are kept.',
  seo_title: 'Title for search engines (up to 70 characters), or empty.',
  seo_description: 'Description for search engines (up to 320 characters), or empty.',
  product_id:
    'Written by the export: the rows of a product are matched to it by this id, else by the first row’s variant, else by slug. Empty on a new product.',
  images:
    'The product’s pictures as this store’s media URLs (/media/…), separated by |, as the export writes them. They are changed in the product editor: a different list is refused. Empty leaves them as they are.',
  tax_class:
    'standard, reduced or exempt: how checkout taxes the product (Settings, Taxes). On the product’s first row. Empty: standard on create, kept on update.',
  option1_name:
    'The first option’s name (Finish, Size), on the product’s first row only. Empty for a product without options.',
  option1_value: 'This variant’s value of the first option (Brass), on every row of the product.',
  option2_name: 'The second option’s name, on the first row only, or empty.',
  option2_value: 'This variant’s value of the second option, or empty.',
  option3_name: 'The third option’s name, on the first row only, or empty.',
  option3_value: 'This variant’s value of the third option, or empty.',
  variant_id: 'Written by the export; matches the row to that variant. Empty on a new variant.',
  barcode: 'GTIN, UPC or EAN: 8 to 14 digits, or empty. The marketplace feed sends it as the gtin.',
  enabled: 'true or false: a disabled variant is kept and shown to you, not sold. Empty: true.',
  variant_images:
    'This variant’s pictures, among the product’s (the images column), as media URLs separated by |. Empty for none.',
};
