import type { ThemeColors } from '@app/contracts';

/**
 * Theme colours arrive as "R, G, B" strings; they become custom properties so one CSS build serves
 * every store. Tints of the brand colour at 0.2 and 0.1.
 */
export function themeCss(c: ThemeColors): string {
  const clean = (v: string) =>
    v
      .split(',')
      .map((p) => Math.min(255, Math.max(0, Number.parseInt(p, 10) || 0)))
      .join(', ');
  return `:root{--brand:${clean(c.primary)};--medium:${clean(c.secondary)};--dark:${clean(c.banner)};--action:${clean(c.action)}}`;
}
