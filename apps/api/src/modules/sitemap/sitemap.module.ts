import { defineModule } from '../../lib/module';
import { sitemapPages } from './sitemap.pages';
import { sitemapRoutes } from './sitemap.routes';
import { createSitemapService, type SitemapService } from './sitemap.service';

declare module '../../lib/module' {
  interface ModuleServices {
    sitemap: { sitemap: SitemapService };
  }
  interface BuildOptions {
    /** Sitemap regeneration after changes at most once per this many ms (default 5 min); URLs per file (tests). */
    sitemap?: { debounceMs?: number; maxUrlsPerFile?: number };
  }
}

export const sitemapModule = defineModule({
  name: 'sitemap',
  needs: ['jobs', 'audit'],
  create: ({ db, events, log, linkOrigin, config, options }, { jobs, audit }) => ({
    sitemap: createSitemapService(db, {
      jobs,
      events,
      audit,
      log,
      linkOrigin,
      dailyAtUtc: config.NIGHTLY_JOBS_AT,
      ...options.sitemap,
    }),
  }),
  routes: (app, { sitemap }) => app.register(sitemapRoutes, { sitemap }),
  pages: ({ sitemap }) => [sitemapPages({ sitemap })],
});
