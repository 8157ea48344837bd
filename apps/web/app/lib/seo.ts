import type { SeoMetaEntry } from '@app/contracts';

/** The SEO entry of a path: its own route entry, else the search prefix, else the default. */
export function seoFor(entries: SeoMetaEntry[], pathname: string, fallbackName: string): SeoMetaEntry {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const exact = entries.find((e) => e.route === path);
  if (exact) return exact;
  const prefix = entries
    .filter((e) => e.route !== '/' && e.route !== 'default' && path.startsWith(`${e.route}/`))
    .sort((a, b) => b.route.length - a.route.length)[0];
  if (prefix) return prefix;
  return (
    entries.find((e) => e.route === 'default') ?? {
      route: 'default',
      title: fallbackName,
      keywords: fallbackName,
      description: fallbackName,
    }
  );
}
