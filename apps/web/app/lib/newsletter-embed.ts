import type { StoreDetails } from '@app/contracts';

/** Where the footer's frame loads a store's newsletter embed from (routes/storefront/newsletter-embed.tsx). */
export const NEWSLETTER_EMBED_PATH = '/newsletter/embed';

/**
 * The frame's policy: the owner's sign-up form (sanitised when saved) may post to its provider and
 * nothing else. It runs no script, and only pages of the store may frame it.
 */
export const NEWSLETTER_EMBED_CSP = [
  'sandbox allow-forms allow-popups',
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src https: data:',
  'form-action https:',
  "frame-ancestors 'self'",
  "base-uri 'none'",
].join('; ');

/** The document of the footer's newsletter frame: the store's embed in the footer's colours. */
export function newsletterEmbedDocument(store: Pick<StoreDetails, 'newsLetter' | 'themeColors'>): string | null {
  if (!store.newsLetter.iframe) return null;
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;font:14px system-ui,sans-serif;color:#fff;background:transparent}form{display:flex;gap:8px;flex-wrap:wrap;align-items:center}label{flex-basis:100%;font-weight:600}input{flex:1;min-width:0;height:40px;border-radius:6px;border:1px solid #cbd5e1;padding:0 12px;font:inherit}button{height:40px;border:0;border-radius:6px;padding:0 16px;font:600 14px system-ui,sans-serif;background:rgb(${store.themeColors.action});color:#fff;cursor:pointer}</style></head><body>${store.newsLetter.iframe}</body></html>`;
}
