import { z } from 'zod';
import type { FormOutcome } from './storefront';

/** The marketplaces a store can connect to; Bonanza is the one the product's rules names (/manage-store/bonanza-connect). */
export const MARKETPLACES = ['bonanza'] as const;
export type Marketplace = (typeof MARKETPLACES)[number];

/**
 * Bonanza booth names: 3 to 60 letters, digits, spaces, dots, dashes, underscores and apostrophes,
 * beginning and ending with a letter or digit (a booth's address is built from its name).
 */
export const BOOTH_NAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9 ._'-]*[A-Za-z0-9])?$/;
/** The marketplace's API token: printable ASCII without spaces, 16 to 256 characters. */
export const MARKETPLACE_TOKEN_PATTERN = /^[\x21-\x7e]+$/;

/**
 * POST /api/marketplace/bonanza/connect and the page's form. `token` may be left empty when a
 * connection already holds one ("Stored. Leave empty to keep it."); it is never sent back.
 */
export const bonanzaConnectSchema = z.object({
  accountEmail: z
    .string()
    .trim()
    .min(1, 'Enter the email of your Bonanza account.')
    .max(254, 'The email is longer than 254 characters.')
    .pipe(z.email('Enter an email address like name@example.com.')),
  boothName: z
    .string()
    .trim()
    .min(3, 'The booth name has at least 3 characters.')
    .max(60, 'The booth name has at most 60 characters.')
    .regex(
      BOOTH_NAME_PATTERN,
      'Use letters, digits, spaces, dots, dashes, underscores or apostrophes, starting and ending with a letter or digit.',
    ),
  token: z
    .string()
    .trim()
    .max(256, 'The token has at most 256 characters.')
    .refine((v) => v === '' || v.length >= 16, 'The token has at least 16 characters.')
    .refine((v) => v === '' || MARKETPLACE_TOKEN_PATTERN.test(v), 'The token has no spaces or special characters.')
    .optional()
    .default(''),
});
export type BonanzaConnectInput = z.infer<typeof bonanzaConnectSchema>;
export const BONANZA_FIELDS = ['accountEmail', 'boothName', 'token'] as const;
export type BonanzaField = (typeof BONANZA_FIELDS)[number];

/** The API's body: the form's fields and the store they are for. */
export const bonanzaConnectBodySchema = z.strictObject({
  tenantId: z.string().trim().min(1, 'tenantId is required.').max(64),
  ...bonanzaConnectSchema.shape,
});

export const marketplaceTenantBodySchema = z.strictObject({
  tenantId: z.string().trim().min(1, 'tenantId is required.').max(64),
});

/** Why a product is not in the feed although it is active and in stock. */
export const FEED_SKIP_REASONS = {
  no_image: 'No image',
  no_price: 'No price',
  /** A product with variants whose id Google cannot take as item_group_id (1-50 of A-Z a-z 0-9 _ -). */
  bad_group_id: 'Product id not usable as a variant group',
  /** Two variants of a product that neither Google's attributes nor the title tell apart. */
  indistinct_variants: 'Variants not told apart',
} as const;
export type FeedSkipReason = keyof typeof FEED_SKIP_REASONS;

export const feedSkippedSchema = z.object({
  productId: z.string(),
  title: z.string(),
  reasons: z.array(z.string()),
});
export type FeedSkipped = z.infer<typeof feedSkippedSchema>;

/** The store's product feed as the owner's page shows it. */
export const productFeedSchema = z.object({
  /** Absolute URL on the store's canonical host; carries the unguessable token. */
  url: z.string(),
  /** False while no marketplace is connected: the URL answers 404 then. */
  active: z.boolean(),
  /** False: the store is private, so the feed answers 404 whatever is connected. */
  storePublic: z.boolean(),
  productCount: z.number().int(),
  builtAt: z.string().nullable(),
  lastFetchedAt: z.string().nullable(),
  lastFetchedBy: z.string().nullable(),
  fetchCount: z.number().int(),
  /** The first 50 products left out of the last build, and how many more. */
  skipped: z.array(feedSkippedSchema),
  skippedMore: z.number().int(),
});
export type ProductFeed = z.infer<typeof productFeedSchema>;

/** The Bonanza connection: never the token, only whether one is stored. */
export const bonanzaConnectionSchema = z.object({
  status: z.enum(['connected', 'disconnected']),
  accountEmail: z.string(),
  boothName: z.string(),
  tokenSet: z.boolean(),
  /** What a page shows in the token's place when one is stored: a fixed mask. */
  tokenMask: z.string().nullable(),
  connectedAt: z.string(),
  updatedAt: z.string(),
});
export type BonanzaConnection = z.infer<typeof bonanzaConnectionSchema>;

export const marketplaceStateSchema = z.object({
  tenantId: z.string(),
  connection: bonanzaConnectionSchema.nullable(),
  feed: productFeedSchema,
});
export type MarketplaceState = z.infer<typeof marketplaceStateSchema>;

export type BonanzaFormValues = Partial<Record<BonanzaField, string>>;
export type MarketplaceActionResult = { ok: true; message: string } | FormOutcome<BonanzaField>;

export interface MarketplacePages {
  /** The bonanza-connect page's data; the catalog permission. */
  marketplacePage(): Promise<MarketplaceState>;
  saveBonanzaConnection(values: BonanzaFormValues): Promise<MarketplaceActionResult>;
  disconnectBonanza(): Promise<MarketplaceActionResult>;
  regenerateFeedUrl(): Promise<MarketplaceActionResult>;
}
