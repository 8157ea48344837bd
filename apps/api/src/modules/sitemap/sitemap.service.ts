import type { SitemapJob, SitemapStatus, SitemapStore } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import type { AuditService } from '../audit/index';
import type { JobRunner, JobView } from '../jobs/index';
import { buildSitemapFiles, MAX_URLS_PER_FILE, robotsTxt, type SitemapUrl } from './sitemap-xml';

export const SITEMAP_JOB = 'sitemap.generate';
/** The key of an owner's generation: repeated clicks while one waits or runs give that one job. */
const MANUAL_KEY = 'manual';

const sf = schema.sitemapFiles;

export interface SitemapDeps {
  jobs: JobRunner;
  events: EventBus;
  audit: AuditService;
  log: FastifyBaseLogger;
  /** scheme://host[:port] of a store's canonical host (the links mail carries use the same). */
  linkOrigin: (canonicalHost: string) => string;
  /** After a catalog or page change, regenerate at most once per this many ms; default 5 minutes. */
  debounceMs?: number;
  /** URLs per file before the sitemap is split (tests use a small number); default 50,000. */
  maxUrlsPerFile?: number;
  /** Every store's sitemap is also rebuilt nightly at this time (UTC), a safety net for a missed event. */
  dailyAtUtc?: string;
}

interface StoreRow {
  productStoreId: string;
  canonicalHost: string;
}

interface StoreResult {
  productStoreId: string;
  hostName: string;
  indexed: boolean;
  urls: { total: number; products: number; categories: number; pages: number };
  files: number;
}

const rowsOf = (res: unknown) => (res as { rows: Record<string, unknown>[] }).rows;
const asDate = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)));
const seg = encodeURIComponent;

const jobOf = (v: JobView): SitemapJob => ({
  jobId: v.id,
  status: v.status,
  progress: v.progress ? { done: v.progress.done, total: v.progress.total } : null,
  createdAt: v.createdAt,
  finishedAt: v.finishedAt,
  error: v.error,
});

export function createSitemapService(db: Db, deps: SitemapDeps) {
  const debounceMs = deps.debounceMs ?? 5 * 60_000;
  const maxPerFile = deps.maxUrlsPerFile ?? MAX_URLS_PER_FILE;

  async function isPublic(tenantId: string): Promise<boolean> {
    const [t] = await db
      .select({ accessMode: schema.tenants.accessMode })
      .from(schema.tenants)
      .where(eq(schema.tenants.tenantId, tenantId));
    // Only a public store is indexed (decision 105): every other mode shows crawlers nothing.
    return t?.accessMode === 'public';
  }

  async function storesOf(tenantId: string): Promise<StoreRow[]> {
    return db
      .select({
        productStoreId: schema.productStores.productStoreId,
        canonicalHost: schema.productStores.canonicalHost,
      })
      .from(schema.productStores)
      .where(eq(schema.productStores.tenantId, tenantId))
      .orderBy(asc(schema.productStores.productStoreId));
  }

  /**
   * CMS pages a sitemap lists. Every stored page is published today; when pages get a draft or
   * published status (the CMS work), this is the one place that filters them.
   */
  async function publishedPages(tenantId: string, productStoreId: string) {
    const p = schema.cmsPages;
    return db
      .select({ pageUrl: p.pageUrl, updatedAt: p.updatedAt })
      .from(p)
      .where(and(eq(p.tenantId, tenantId), eq(p.productStoreId, productStoreId)))
      .orderBy(asc(p.sequenceNum), asc(p.pageUrl));
  }

  /**
   * The store's URLs as the storefront builds its links: home and the public pages, every category
   * reachable from the store's catalogs (with their rollup children), the products in those
   * categories (`/<slug>/<productId>`), and its CMS pages (`/page/details/<pageUrl>`).
   */
  async function storeUrls(tenantId: string, store: StoreRow, origin: string) {
    const cats = rowsOf(
      await db.execute(sql`
        WITH RECURSIVE cats(id) AS (
          SELECT cc.product_category_id FROM catalog_categories cc
            JOIN catalogs c ON c.tenant_id = cc.tenant_id AND c.prod_catalog_id = cc.prod_catalog_id
          WHERE c.tenant_id = ${tenantId} AND c.product_store_id = ${store.productStoreId}
          UNION
          SELECT r.product_category_id FROM category_rollups r JOIN cats ON r.parent_product_category_id = cats.id
          WHERE r.tenant_id = ${tenantId}
        )
        SELECT id FROM cats ORDER BY id`),
    ).map((r) => String(r.id));
    const products = cats.length
      ? rowsOf(
          await db.execute(sql`
            SELECT DISTINCT p.product_id, p.slug, p.updated_at FROM products p
              JOIN product_categories pc ON pc.tenant_id = p.tenant_id AND pc.product_id = p.product_id
            WHERE p.tenant_id = ${tenantId} AND p.status = 'ACTIVE' AND pc.product_category_id IN (${sql.join(
              cats.map((c) => sql`${c}`),
              sql`, `,
            )})
            ORDER BY p.product_id`),
        )
      : [];
    const pages = await publishedPages(tenantId, store.productStoreId);
    // Only products shoppers can see (ACTIVE), with their last edit as lastmod; categories carry no
    // update time yet (decision 028).
    const urls: SitemapUrl[] = [
      { loc: `${origin}/` },
      { loc: `${origin}/faqs` },
      { loc: `${origin}/contact` },
      ...cats.map((id) => ({ loc: `${origin}/categories/${seg(id)}` })),
      ...products.map((r) => ({
        loc: `${origin}/${seg(String(r.slug))}/${seg(String(r.product_id))}`,
        lastmod: asDate(r.updated_at),
      })),
      ...pages.map((p) => ({ loc: `${origin}/page/details/${seg(p.pageUrl)}`, lastmod: asDate(p.updatedAt) })),
    ];
    return {
      urls,
      counts: { total: urls.length, products: products.length, categories: cats.length, pages: pages.length },
    };
  }

  /** Replaces a store's files in one transaction; a per-tenant lock keeps two generations from interleaving. */
  async function writeStore(
    tenantId: string,
    store: StoreRow,
    files: ReturnType<typeof buildSitemapFiles>,
    counts: StoreResult['urls'] | null,
    at: Date,
  ) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`sitemap:${tenantId}`}))`);
      await tx.delete(sf).where(and(eq(sf.tenantId, tenantId), eq(sf.productStoreId, store.productStoreId)));
      for (const f of files) {
        await tx.insert(sf).values({
          tenantId,
          productStoreId: store.productStoreId,
          fileName: f.fileName,
          hostName: store.canonicalHost,
          body: f.body,
          urlCount: f.urlCount,
          urlCounts: f.fileName === 'sitemap.xml' ? counts : null,
          generatedAt: at,
        });
      }
    });
  }

  // The job: every store of the tenant, one step each. Idempotent: each run replaces the files whole.
  deps.jobs.register<Record<string, never>>(
    SITEMAP_JOB,
    async (job, { progress, signal }) => {
      const tenantId = job.tenantId;
      const stores = await storesOf(tenantId);
      const indexed = await isPublic(tenantId);
      await progress({ done: 0, total: stores.length });
      const results: StoreResult[] = [];
      for (const [i, store] of stores.entries()) {
        signal.throwIfAborted();
        const at = new Date();
        if (!indexed) {
          // A private store has no sitemap: what an earlier public one listed goes.
          await writeStore(tenantId, store, [], null, at);
          results.push({
            productStoreId: store.productStoreId,
            hostName: store.canonicalHost,
            indexed,
            urls: { total: 0, products: 0, categories: 0, pages: 0 },
            files: 0,
          });
        } else {
          const origin = deps.linkOrigin(store.canonicalHost);
          const { urls, counts } = await storeUrls(tenantId, store, origin);
          const files = buildSitemapFiles(origin, urls, at, maxPerFile);
          await writeStore(tenantId, store, files, counts, at);
          results.push({
            productStoreId: store.productStoreId,
            hostName: store.canonicalHost,
            indexed,
            urls: counts,
            files: files.length,
          });
        }
        await progress({ done: i + 1, total: stores.length });
      }
      deps.events.emit('sitemap.generated', { tenantId, jobId: job.id });
      return { stores: results };
    },
    { maxAttempts: 3 },
  );

  /**
   * Settings no sitemap shows (how a store ships, taxes, takes cards, who its staff are): a change of
   * them schedules no regeneration. Any other, and '*' (a change heard from another process), does.
   */
  const SITEMAP_BLIND = new Set(['carriers', 'shipping', 'tax', 'staff', 'low_stock_threshold', 'marketplace']);

  /**
   * Debounced regeneration after catalog or content changes: one job per tenant and time window,
   * run when the window closes. Triggers within a window collapse into that job (its key); one
   * after the window has closed (even while its job runs) lands in the next window's job.
   */
  async function scheduleAfterChange(tenantId: string) {
    const stores = await storesOf(tenantId);
    const store = stores[0];
    if (!store) return;
    const now = Date.now();
    const window = Math.floor(now / debounceMs);
    const ctx: TenantContext = {
      tenantId,
      productStoreId: store.productStoreId,
      hostName: store.canonicalHost,
      origin: deps.linkOrigin(store.canonicalHost),
      viaDevAlias: false,
    };
    await deps.jobs.enqueue(ctx, {
      type: SITEMAP_JOB,
      payload: {},
      key: `auto:${window}`,
      runAt: new Date((window + 1) * debounceMs),
    });
  }

  // The key of scheduled runs is the type's name: a store's nightly run still going is not doubled.
  deps.jobs.recurring(SITEMAP_JOB, { dailyAtUtc: deps.dailyAtUtc ?? '03:00', startupDelayMs: null });

  const onChange = ({ tenantId }: { tenantId: string }) => {
    scheduleAfterChange(tenantId).catch((err) =>
      deps.log.error({ err, tenantId }, 'sitemap regeneration not scheduled'),
    );
  };
  deps.events.on('catalog.changed', onChange);
  deps.events.on('settings.changed', (p) => {
    if (!SITEMAP_BLIND.has(p.what)) onChange(p);
  });

  /** `tenantId` as a client names it: its own id, or the development alias on a host that uses it. */
  function assertOwnTenant(ctx: TenantContext, tenantId: string) {
    if (tenantId === ctx.tenantId || (tenantId === 'development' && ctx.viaDevAlias)) return;
    throw AppError.notFound(`Tenant ${tenantId.slice(0, 64)} was not found.`);
  }

  return {
    scheduleAfterChange,

    /** Starts a generation for the owner (or answers the one already waiting or running). */
    async generate(ctx: RequestContext, tenantId: string): Promise<SitemapJob> {
      assertOwnTenant(ctx, tenantId);
      const job = await deps.events.transaction(async (tx) => {
        const j = await deps.jobs.enqueue(ctx, { type: SITEMAP_JOB, payload: {}, key: MANUAL_KEY }, { tx });
        await deps.audit.record(tx, ctx, {
          entity: 'sitemap',
          entityId: ctx.tenantId,
          action: 'generate',
          after: { jobId: j.id },
        });
        deps.events.emitAfterCommit(tx, 'sitemap.requested', { tenantId: ctx.tenantId, jobId: j.id });
        return j;
      });
      // Enqueued in the audit entry's transaction: the worker finds it at its next poll (a second at most).
      return jobOf(job);
    },

    async status(ctx: TenantContext, tenantId = ctx.tenantId): Promise<SitemapStatus> {
      assertOwnTenant(ctx, tenantId);
      const [job, stores, indexed, files] = await Promise.all([
        deps.jobs.latest(ctx, SITEMAP_JOB),
        storesOf(ctx.tenantId),
        isPublic(ctx.tenantId),
        db
          .select({
            productStoreId: sf.productStoreId,
            fileName: sf.fileName,
            urlCounts: sf.urlCounts,
            generatedAt: sf.generatedAt,
          })
          .from(sf)
          .where(eq(sf.tenantId, ctx.tenantId)),
      ]);
      const out: SitemapStore[] = stores.map((s) => {
        const own = files.filter((f) => f.productStoreId === s.productStoreId);
        const main = own.find((f) => f.fileName === 'sitemap.xml');
        const counts = main?.urlCounts ?? { total: 0, products: 0, categories: 0, pages: 0 };
        return {
          productStoreId: s.productStoreId,
          hostName: s.canonicalHost,
          sitemapUrl: `${deps.linkOrigin(s.canonicalHost)}/sitemap.xml`,
          indexed,
          generatedAt: main?.generatedAt.toISOString() ?? null,
          urls: counts,
          files: own.length,
        };
      });
      return { tenantId: ctx.tenantId, job: job ? jobOf(job) : null, stores: out };
    },

    /** A stored file of the host's store; null when there is none (or the store is private). */
    async file(ctx: TenantContext, fileName: string): Promise<string | null> {
      if (!(await isPublic(ctx.tenantId))) return null;
      const [row] = await db
        .select({ body: sf.body })
        .from(sf)
        .where(
          and(eq(sf.tenantId, ctx.tenantId), eq(sf.productStoreId, ctx.productStoreId), eq(sf.fileName, fileName)),
        );
      return row?.body ?? null;
    },

    async robots(ctx: TenantContext): Promise<string> {
      const [store] = await db
        .select({ canonicalHost: schema.productStores.canonicalHost })
        .from(schema.productStores)
        .where(
          and(
            eq(schema.productStores.tenantId, ctx.tenantId),
            eq(schema.productStores.productStoreId, ctx.productStoreId),
          ),
        );
      const host = store?.canonicalHost ?? ctx.hostName;
      return robotsTxt({ indexed: await isPublic(ctx.tenantId), sitemapUrl: `${deps.linkOrigin(host)}/sitemap.xml` });
    },
  };
}

export type SitemapService = ReturnType<typeof createSitemapService>;
