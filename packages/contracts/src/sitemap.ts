import { z } from 'zod';
import type { FormOutcome } from './storefront';

/** POST /api/sitemap/generate: the tenant whose sitemap to build. */
export const sitemapGenerateSchema = z.strictObject({
  tenantId: z.string().trim().min(1, 'tenantId is required.').max(64, 'tenantId is longer than 64 characters.'),
});
export type SitemapGenerateRequest = z.infer<typeof sitemapGenerateSchema>;

export const sitemapJobStatusSchema = z.enum(['pending', 'running', 'succeeded', 'failed']);

/** The generation job as the settings page shows it. */
export const sitemapJobSchema = z.object({
  jobId: z.string(),
  status: sitemapJobStatusSchema,
  /** Steps done of total (one step per store, plus writing), while it runs and after. */
  progress: z.object({ done: z.number().int(), total: z.number().int() }).nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type SitemapJob = z.infer<typeof sitemapJobSchema>;

/** One store host's sitemap as last generated. */
export const sitemapStoreSchema = z.object({
  productStoreId: z.string(),
  hostName: z.string(),
  /** Absolute URL of the store's /sitemap.xml. */
  sitemapUrl: z.string(),
  /** False: the store is private; it has no sitemap and robots.txt disallows everything. */
  indexed: z.boolean(),
  generatedAt: z.string().nullable(),
  urls: z.object({
    total: z.number().int(),
    products: z.number().int(),
    categories: z.number().int(),
    pages: z.number().int(),
  }),
  files: z.number().int(),
});
export type SitemapStore = z.infer<typeof sitemapStoreSchema>;

/** The "Search engines" settings page and GET /api/sitemap/fetch. */
export const sitemapStatusSchema = z.object({
  tenantId: z.string(),
  /** The latest generation job, running or finished; null before the first one. */
  job: sitemapJobSchema.nullable(),
  stores: z.array(sitemapStoreSchema),
});
export type SitemapStatus = z.infer<typeof sitemapStatusSchema>;

export type SitemapGenerateResult = { ok: true; message: string; job: SitemapJob } | FormOutcome<never>;

export interface SitemapPages {
  /** The settings page's data; the settings permission (a visitor gets 401, a shopper 403). */
  sitemapStatus(): Promise<SitemapStatus>;
  /** Starts a generation (or answers the one already waiting or running). */
  generateSitemap(): Promise<SitemapGenerateResult>;
}
