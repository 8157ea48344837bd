export { sitemapModule } from './sitemap.module';
export { sitemapPages } from './sitemap.pages';
export { sitemapRoutes } from './sitemap.routes';
export { createSitemapService, SITEMAP_JOB, type SitemapService } from './sitemap.service';
export { buildSitemapFiles, MAX_URLS_PER_FILE, NOINDEX_PATHS, robotsTxt } from './sitemap-xml';
