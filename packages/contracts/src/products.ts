import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PRODUCT_SORTS, SEARCH_SORTS } from './catalog-options';
import { idField as id, jsonInt, textInt } from './strict-input';
import { variantOptionViewSchema } from './variants';

/** Public catalog payloads. Money is integer minor units. */

const minor = (name: string) => textInt(name, { min: 0 });

const optionFilterField = z
  .string()
  .max(200, 'option is longer than 200 characters')
  .regex(/^[^:]*[^\s:][^:]*:.*\S/, 'option takes Name:Value, as in Colour:Brass');

/** Filters and paging shared by the category list and search. */
export const listFilterShape = {
  brand: z
    .string()
    .max(500)
    .transform((s) =>
      s
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean),
    )
    .optional(),
  priceMin: minor('priceMin').optional(),
  priceMax: minor('priceMax').optional(),
  inStock: z.enum(['true', 'false']).optional(),
  /**
   * Option values to filter by, `Name:Value` (Colour:Brass; case does not matter), repeated for more:
   * values of one option widen the list (Brass or Black), options narrow it, and a product is
   * listed when one of its enabled variants has every chosen option (decision 112).
   */
  option: z
    .union([optionFilterField, z.array(optionFilterField).max(20, 'option is repeated more than 20 times')])
    .transform((v) =>
      (Array.isArray(v) ? v : [v]).map((s) => {
        const at = s.indexOf(':');
        return { name: s.slice(0, at).trim(), value: s.slice(at + 1).trim() };
      }),
    )
    .optional(),
  page: textInt('page', { min: 1, max: 10_000 }).default(1),
  pageSize: textInt('pageSize', { min: 1, max: MAX_PAGE_SIZE }).default(DEFAULT_PAGE_SIZE),
};

export const productListQuerySchema = z.strictObject({
  productCategoryId: id('productCategoryId').optional(),
  featured: z.enum(['true', 'false']).optional(),
  sort: z.enum(PRODUCT_SORTS).default('featured'),
  ...listFilterShape,
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;

export const searchQuerySchema = z.strictObject({
  searchText: z.string().trim().min(1, 'searchText is required').max(200, 'searchText is longer than 200 characters'),
  productCategoryId: id('productCategoryId').optional(),
  sort: z.enum(SEARCH_SORTS).default('relevance'),
  ...listFilterShape,
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const productSummarySchema = z.object({
  productId: z.string(),
  productName: z.string(),
  slug: z.string(),
  brandName: z.string().nullable(),
  smallImageUrl: z.string().nullable(),
  mediumImageUrl: z.string().nullable(),
  detailImageUrl: z.string().nullable(),
  listPrice: z.number().int(),
  salePrice: z.number().int().nullable(),
  price: z.number().int(),
  currencyUomId: z.string(),
  /** False only when every variant that can be sold is sold out. */
  inStock: z.boolean(),
  /** Only when few are left ("Only 3 left"); null otherwise. */
  lowStock: z.number().int().nullable(),
  productType: z.string(),
  rating: z.object({ average: z.number().nullable(), count: z.number().int() }),
  /**
   * The highest price of its variants when they differ ("From $12" reads `price`, the lowest); null
   * when every variant costs the same (decision 112).
   */
  priceMax: z.number().int().nullable(),
  /** Its live variants; more than one: the shopper chooses on the product page. */
  variantCount: z.number().int(),
});
export type ProductSummary = z.infer<typeof productSummarySchema>;

const facetCount = z.object({ value: z.string(), label: z.string(), count: z.number().int() });
export const facetsSchema = z.object({
  categories: z.array(facetCount),
  brands: z.array(facetCount),
  prices: z.array(
    z.object({ min: z.number().int(), max: z.number().int().nullable(), label: z.string(), count: z.number().int() }),
  ),
  inStock: z.number().int(),
  /**
   * Option values of the listed products' enabled variants ("Colour: Brass (3)"): products with a
   * variant of that value (in stock, with the in-stock filter). `value` is what `option` takes.
   */
  options: z.array(z.object({ name: z.string(), value: z.string(), values: z.array(facetCount) })),
});
export type Facets = z.infer<typeof facetsSchema>;

export const productPageSchema = z.object({
  products: z.array(productSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  pageCount: z.number().int(),
  facets: facetsSchema,
});
export type ProductPage = z.infer<typeof productPageSchema>;

export const searchResultSchema = productPageSchema.extend({
  searchText: z.string(),
  /** Set when too little matched and a corrected query was searched instead. */
  searchedFor: z.string().nullable(),
  /** Other queries to try when nothing matched. */
  suggestions: z.array(z.string()),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const breadcrumbSchema = z.array(z.object({ productCategoryId: z.string(), label: z.string() }));

export const subcategoryQuerySchema = z.strictObject({ productCategoryId: id('productCategoryId') });
export const subcategoryResultSchema = z.object({
  category: z.object({
    productCategoryId: z.string(),
    categoryName: z.string().nullable(),
    description: z.string().nullable(),
    longDescription: z.string().nullable(),
    linkTwoImageUrl: z.string().nullable(),
    linkTwoImageUrlS3: z.string().nullable(),
  }),
  breadcrumb: breadcrumbSchema,
  subcategories: z.array(
    z.object({
      productCategoryId: z.string(),
      categoryName: z.string().nullable(),
      description: z.string().nullable(),
      linkTwoImageUrl: z.string().nullable(),
      linkTwoImageUrlS3: z.string().nullable(),
      productCount: z.number().int(),
    }),
  ),
});
export type SubcategoryResult = z.infer<typeof subcategoryResultSchema>;

export const productDetailsQuerySchema = z.strictObject({
  productId: id('productId'),
  /** The variant to show; an unknown, removed or another product's id shows the default one. */
  variantId: id('variantId').optional(),
});

/**
 * A variant as the product page offers it (decision 112): enabled, not removed. Its values are
 * ids, one per option in order, so 100 variants stay small in the page's data.
 */
export const productVariantSchema = z.object({
  variantId: z.string(),
  /** "Brass / Large"; '' for the default variant of a product without options. */
  title: z.string(),
  valueIds: z.array(z.string()),
  sku: z.string(),
  /** GTIN, UPC or EAN when the owner gave one (structured data's `gtin`). */
  barcode: z.string().nullable(),
  listPrice: z.number().int(),
  salePrice: z.number().int().nullable(),
  price: z.number().int(),
  available: z.boolean(),
  /** Only when few are left ("Only 3 left"); null otherwise. */
  lowStock: z.number().int().nullable(),
  /** Its pictures, among the product's `images` (their `mediaId`), first shown first. */
  imageIds: z.array(z.string()),
});
export type ProductVariant = z.infer<typeof productVariantSchema>;
export const configOptionSchema = z.object({
  optionId: z.string(),
  optionName: z.string(),
  choices: z.array(
    z.object({ choiceId: z.string(), label: z.string(), priceDelta: z.number().int(), isDefault: z.boolean() }),
  ),
});
export const productDetailsSchema = productSummarySchema.extend({
  sku: z.string(),
  shortDescription: z.string().nullable(),
  description: z.string().nullable(),
  weightGrams: z.number().int().nullable(),
  features: z.array(z.object({ label: z.string(), value: z.string() })),
  configOptions: z.array(configOptionSchema),
  contents: z.array(
    z.object({ contentId: z.string(), title: z.string(), fileName: z.string(), downloadUrl: z.string() }),
  ),
  related: z.array(productSummarySchema),
  accessories: z.array(productSummarySchema),
  reviewSummary: z.object({
    average: z.number().nullable(),
    count: z.number().int(),
    distribution: z.object({ 1: z.number(), 2: z.number(), 3: z.number(), 4: z.number(), 5: z.number() }),
    latest: z.array(
      z.object({
        authorName: z.string(),
        rating: z.number().int(),
        title: z.string().nullable(),
        body: z.string().nullable(),
        createdAt: z.string(),
        /** The store's public reply, shown under the review (decision 047). */
        reply: z.object({ text: z.string(), at: z.string() }).nullable(),
      }),
    ),
  }),
  breadcrumb: breadcrumbSchema,
  /**
   * The gallery: the product's pictures in order (media library rows, each with its alt text, the
   * product's own or else the library's); for a product without any, its detail, medium and small
   * image URLs that can be shown (one photograph at three sizes counts once), alt text null.
   */
  images: z.array(z.object({ url: z.string(), altText: z.string().nullable(), mediaId: z.string().nullable() })),
  /** The product's options (Finish, Size) with their values in order; empty without options. */
  options: z.array(variantOptionViewSchema),
  /** The variants a shopper can choose, in the owner's order; one, the default, without options. */
  variants: z.array(productVariantSchema),
  /** The variant the page shows: the one asked for when it is this product's, else the default. */
  selectedVariantId: z.string(),
  /**
   * ACTIVE for every shopper. DRAFT or ARCHIVED only reach the owner or staff with the catalog
   * permission (a preview); shoppers get a 404 for them.
   */
  status: z.enum(['DRAFT', 'ACTIVE', 'ARCHIVED']),
});
export type ProductDetails = z.infer<typeof productDetailsSchema>;

export const configPriceRequestSchema = z.strictObject({
  productId: id('productId'),
  /** The variant configured (decision 112): its price is the base; unknown, disabled or another product's: 422. */
  variantId: id('variantId').optional(),
  /** optionId → choiceId; every option of the product exactly once. */
  selections: z.record(z.string().max(64), z.string().max(64)),
  quantity: jsonInt('quantity', { min: 1, max: 999 }).default(1),
});
export const configPriceSchema = z.object({
  productId: z.string(),
  currencyUomId: z.string(),
  basePrice: z.number().int(),
  unitPrice: z.number().int(),
  quantity: z.number().int(),
  totalPrice: z.number().int(),
  selections: z.array(
    z.object({
      optionId: z.string(),
      optionName: z.string(),
      choiceId: z.string(),
      label: z.string(),
      priceDelta: z.number().int(),
    }),
  ),
});
export type ConfigPrice = z.infer<typeof configPriceSchema>;

export const autocompleteQuerySchema = z.strictObject({
  q: z.string().trim().min(1, 'q is required').max(100, 'q is longer than 100 characters'),
});
export const autocompleteSchema = z.object({
  products: z.array(
    z.object({
      productId: z.string(),
      productName: z.string(),
      slug: z.string(),
      imageUrl: z.string().nullable(),
      price: z.number().int(),
      currencyUomId: z.string(),
    }),
  ),
  categories: z.array(z.object({ productCategoryId: z.string(), label: z.string() })),
});
export type Autocomplete = z.infer<typeof autocompleteSchema>;

export const searchOptionsSchema = z.object({
  sorts: z.array(z.object({ value: z.string(), label: z.string() })),
  facets: z.array(z.enum(['category', 'brand', 'price', 'inStock'])),
  priceBands: z.array(z.object({ min: z.number().int(), max: z.number().int().nullable(), label: z.string() })),
  brands: z.array(z.string()),
  pageSizes: z.array(z.number().int()),
});

export const downloadQuerySchema = z.strictObject({ productId: id('productId'), contentId: id('contentId') });

export const faqQuerySchema = z.strictObject({
  productStoreSurveyId: z.literal('HELP_AND_FAQS', { error: 'productStoreSurveyId must be HELP_AND_FAQS' }),
});
export const faqsSchema = z.object({
  productStoreSurveyId: z.string(),
  questions: z.array(z.object({ faqId: z.string(), question: z.string(), answer: z.string() })),
});
export type Faqs = z.infer<typeof faqsSchema>;

export const countriesSchema = z.array(
  z.object({
    geoId: z.string(),
    iso2: z.string(),
    name: z.string(),
    regions: z.array(z.object({ geoId: z.string(), name: z.string() })),
  }),
);
