/** Sitemap protocol (sitemaps.org): at most 50,000 URLs per file; more go into parts behind an index. */
export const MAX_URLS_PER_FILE = 50_000;

export interface SitemapUrl {
  /** Absolute URL on the store's canonical host. */
  loc: string;
  lastmod?: Date | null;
}

export interface SitemapFile {
  fileName: string;
  body: string;
  urlCount: number;
}

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

function urlset(urls: readonly SitemapUrl[]): string {
  const entries = urls.map(
    (u) =>
      `  <url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod.toISOString()}</lastmod>` : ''}</url>\n`,
  );
  return `${HEAD}<urlset xmlns="${NS}">\n${entries.join('')}</urlset>\n`;
}

/** The file a part is served as: /sitemaps/sitemap-<n>.xml. */
export const partFileName = (n: number) => `sitemap-${n}.xml`;
export const PART_FILE = /^sitemap-([1-9]\d{0,5})\.xml$/;

/**
 * The files of one store: `sitemap.xml` alone when the URLs fit in one file, else `sitemap.xml` as
 * an index of `sitemap-1.xml`, `sitemap-2.xml`, ... each holding up to `maxPerFile` URLs.
 */
export function buildSitemapFiles(
  origin: string,
  urls: readonly SitemapUrl[],
  generatedAt: Date,
  maxPerFile = MAX_URLS_PER_FILE,
): SitemapFile[] {
  if (urls.length <= maxPerFile) return [{ fileName: 'sitemap.xml', body: urlset(urls), urlCount: urls.length }];
  const parts: SitemapFile[] = [];
  for (let i = 0; i < urls.length; i += maxPerFile) {
    const chunk = urls.slice(i, i + maxPerFile);
    parts.push({ fileName: partFileName(parts.length + 1), body: urlset(chunk), urlCount: chunk.length });
  }
  const lastmod = generatedAt.toISOString();
  const index = `${HEAD}<sitemapindex xmlns="${NS}">\n${parts
    .map(
      (p) =>
        `  <sitemap><loc>${escapeXml(`${origin}/sitemaps/${p.fileName}`)}</loc><lastmod>${lastmod}</lastmod></sitemap>\n`,
    )
    .join('')}</sitemapindex>\n`;
  return [{ fileName: 'sitemap.xml', body: index, urlCount: urls.length }, ...parts];
}

/**
 * Paths search engines should not index (decision 028): the shopper's own pages, the dashboard,
 * search results. Written as "the path itself, or below it" (`/cart$` and `/cart/`), so that a
 * product whose slug starts with the same letters (`/cartridge-lamp/...`) stays allowed.
 */
export const NOINDEX_PATHS = ['/account', '/cart', '/checkout', '/auth', '/manage-store', '/product/search', '/order'];

export function robotsTxt(opts: { indexed: boolean; sitemapUrl: string }): string {
  if (!opts.indexed) return 'User-agent: *\nDisallow: /\n';
  const rules = NOINDEX_PATHS.flatMap((p) => [`Disallow: ${p}$`, `Disallow: ${p}/`]);
  return `User-agent: *\nAllow: /\n${rules.join('\n')}\n\nSitemap: ${opts.sitemapUrl}\n`;
}
