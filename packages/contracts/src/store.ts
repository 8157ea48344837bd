import { z } from 'zod';

export const TEMPLATES = ['DEFAULT', 'ONE'] as const;
export const DEFAULT_THEME = 'THEME_FASHION';
export const PAGE_LINK_FLAGS = ['TOP', 'MENU', 'BOTTOM', 'FOOTER'] as const;
export type PageLinkFlag = (typeof PAGE_LINK_FLAGS)[number];

/** "R, G, B" with each part 0-255: the form the product's rules gives, so the client can build rgba() tints. */
export const rgbSchema = z
  .string()
  .trim()
  .regex(/^\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}$/, 'must be three comma-separated numbers "R, G, B"')
  .refine((v) => v.split(',').every((p) => Number(p) <= 255), 'each of R, G, B must be 0 to 255');

export const themeColorsSchema = z.object({
  /** Brand colour (header, links, tints at 0.2 and 0.1). */
  primary: rgbSchema,
  /** Medium tone: borders, secondary text on brand. */
  secondary: rgbSchema,
  /** Dark tone: banner and footer backgrounds. */
  banner: rgbSchema,
  /** Primary action: buttons and badges. */
  action: rgbSchema,
});
export type ThemeColors = z.infer<typeof themeColorsSchema>;

export const chatSchema = z.object({ dataWidgetId: z.string().nullable() });

/** The store configuration fetched at start-up. */
export const storeConfigSchema = z.object({
  productStoreId: z.string(),
  /** Stored value; the client renders DEFAULT or ONE, and for any other value no footer. */
  template: z.string(),
  theme: z.string(),
  themeColors: themeColorsSchema,
  chat: chatSchema,
});
export type StoreConfig = z.infer<typeof storeConfigSchema>;

export const productStoreQuerySchema = z.object({
  productStoreId: z.string().trim().min(1).max(32).optional(),
});

export const storeDetailsSchema = z.object({
  productStoreId: z.string(),
  storeName: z.string(),
  template: z.string(),
  theme: z.string(),
  themeColors: themeColorsSchema,
  logo: z.object({
    url: z.string().nullable(),
    headerTitle: z.string().nullable(),
    headerDescription: z.string().nullable(),
  }),
  newsLetter: z.object({ iframe: z.string().nullable() }),
  contactPage: z.string().nullable(),
  companyName: z.string().nullable(),
  companyAddress: z.object({
    address1: z.string().nullable(),
    address2: z.string().nullable(),
    city: z.string().nullable(),
    countryGeoId: z.string().nullable(),
    postalCode: z.string().nullable(),
  }),
  emailAddress: z.string().nullable(),
  companyContact: z.object({
    countryCode: z.string().nullable(),
    areaCode: z.string().nullable(),
    contactNumber: z.string().nullable(),
  }),
  pageTitle: z.string().nullable(),
  promotionTitle: z.string().nullable(),
  currencyUomId: z.string(),
  chat: chatSchema,
});
export type StoreDetails = z.infer<typeof storeDetailsSchema>;

export const cmsPageSchema = z.object({
  id: z.string(),
  productStoreId: z.string(),
  pageTitle: z.string(),
  pageUrl: z.string(),
  pageLinks: z.array(z.enum(PAGE_LINK_FLAGS)),
  /** Sanitised HTML; present when one page is asked for by pageUrl. */
  content: z.string().optional(),
  /** The page's search title and description (empty: the defaults); present with the content. */
  seoTitle: z.string().optional(),
  seoDescription: z.string().optional(),
  /** Only in the owner's answer (decision 034): Draft, Published, or Published, with changes. */
  status: z.enum(['Draft', 'Published', 'Published, with changes']).optional(),
  updatedAt: z.string().optional(),
});
export type CmsPage = z.infer<typeof cmsPageSchema>;

export const cmsFetchQuerySchema = z.object({
  pageUrl: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'pageUrl may hold lower-case letters, digits and dashes')
    .optional(),
  pageLink: z.enum(PAGE_LINK_FLAGS).optional(),
});

export const bannerSchema = z.object({
  bannerId: z.string(),
  title: z.string(),
  subtitle: z.string().nullable(),
  imageUrl: z.string(),
  /** Describes the picture for people who cannot see it. */
  altText: z.string(),
  linkUrl: z.string().nullable(),
  ctaLabel: z.string().nullable(),
});
export type Banner = z.infer<typeof bannerSchema>;

export const seoMetaEntrySchema = z.object({
  route: z.string(),
  title: z.string(),
  keywords: z.string(),
  description: z.string(),
});
export type SeoMetaEntry = z.infer<typeof seoMetaEntrySchema>;
