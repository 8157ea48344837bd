/**
 * Display rules shared by the server and the browser. Nothing here imports zod, so the storefront
 * bundle stays small and free of zod's eval probe (our CSP forbids eval): browser code imports
 * `@app/contracts/client`, never the package root.
 */
import type { Category } from './catalog';

/** Category label rule of the storefront's route rules (category bar): name, else description, else id. */
export function categoryLabel(c: Pick<Category, 'categoryName' | 'description' | 'productCategoryId'>): string {
  return c.categoryName?.trim() || c.description?.trim() || c.productCategoryId;
}

/** Footer label rule of the storefront's route rules: description, else name, else id. */
export function categoryFooterLabel(c: Pick<Category, 'categoryName' | 'description' | 'productCategoryId'>): string {
  return c.description?.trim() || c.categoryName?.trim() || c.productCategoryId;
}

/** Image rule: linkTwoImageUrl when it starts with http, else the S3 key, else null (placeholder). */
export function categoryImage(c: Pick<Category, 'linkTwoImageUrl' | 'linkTwoImageUrlS3'>): string | null {
  if (c.linkTwoImageUrl?.startsWith('http')) return c.linkTwoImageUrl;
  return c.linkTwoImageUrlS3 || null;
}

/**
 * Whether a stored image URL can be shown: an http(s) address, or the store's own uploaded picture
 * (`/media/...`, served by this deployment). The clients' rule ("starts with http") extended to uploads.
 */
export function isDisplayableImage(u: string | null | undefined): u is string {
  return !!u && (u.startsWith('http') || u.startsWith('/media/'));
}

/** Product display image: the first of small, medium, detail that is displayable (http or /media/). */
export function productDisplayImage(p: {
  smallImageUrl?: string | null;
  mediumImageUrl?: string | null;
  detailImageUrl?: string | null;
}): string | null {
  for (const u of [p.smallImageUrl, p.mediumImageUrl, p.detailImageUrl]) {
    if (isDisplayableImage(u)) return u;
  }
  return null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "Nov 23, 2026": a date as en-US `dateStyle: 'medium'` prints it, in UTC so the server and the
 * browser agree. By hand, because the first `Intl.DateTimeFormat` of a page loads ICU data on the
 * main thread (25-30 ms) while the page hydrates; money.test.ts holds it to Intl's output.
 */
export function formatDate(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}
