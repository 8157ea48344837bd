import type { MetaDescriptor } from 'react-router';

type Match = { id: string; meta?: MetaDescriptor[] } | undefined;

function keyOf(d: MetaDescriptor): string | null {
  const r = d as Record<string, unknown>;
  if ('title' in r) return 'title';
  if (typeof r.name === 'string') return `name:${r.name}`;
  if (typeof r.property === 'string') return `property:${r.property}`;
  if (r.tagName === 'link' && typeof r.rel === 'string') return `link:${r.rel}`;
  return null;
}

/**
 * A route's `meta` replaces its parents' in React Router, so a page that sets its own title would
 * lose the root's canonical link, keywords and Open Graph tags. This keeps the root's tags and lets
 * the page override them one by one.
 */
export function withRootMeta(matches: readonly Match[], own: MetaDescriptor[]): MetaDescriptor[] {
  const root = matches.find((m) => m?.id === 'root')?.meta ?? [];
  const ownKeys = new Set(own.map(keyOf).filter(Boolean));
  return [...root.filter((d) => !ownKeys.has(keyOf(d) ?? '')), ...own];
}
