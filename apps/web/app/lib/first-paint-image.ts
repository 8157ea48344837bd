/**
 * The pictures a page paints first: the home banner, the product picture, the first cards of a
 * grid. They load before everything else (`fetchpriority="high"`), and the browser reports when
 * each is on screen (Element Timing, `elementtiming`): the app starts only after that, so
 * hydration never holds up the page's largest paint (paint-first.ts, decision 015).
 */
declare module 'react' {
  interface ImgHTMLAttributes<T> {
    /** Element Timing API: the browser reports the time this picture was presented. */
    elementtiming?: string;
  }
}

export const FIRST_PAINT_IMAGE = { fetchPriority: 'high', elementtiming: 'first-paint' } as const;
