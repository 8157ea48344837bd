/**
 * Responsive pictures for our own media: the media route resizes on `?w=` (widths of
 * MEDIA_WIDTHS in the API), so a phone downloads a picture sized for its screen.
 * Other URLs (a store's own CDN) are left alone.
 */
export function mediaSrcSet(url: string | null | undefined, widths: readonly number[]): string | undefined {
  if (!url) return undefined;
  let path: string;
  try {
    path = new URL(url, 'http://x').pathname;
  } catch {
    return undefined;
  }
  if (!path.startsWith('/media/') || url.includes('?')) return undefined;
  return widths.map((w) => `${url}?w=${w} ${w}w`).join(', ');
}
