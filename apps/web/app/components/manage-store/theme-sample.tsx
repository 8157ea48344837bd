import { parseRgb } from '@app/contracts/client';

const rgb = (v: string, alpha = 1) => {
  const p = parseRgb(v);
  return p ? `rgba(${p.join(', ')}, ${alpha})` : 'transparent';
};

/**
 * A small sketch of the storefront in the colours being edited: header accent and links in the
 * brand colour with its light (0.2) and extra-light (0.1) tints, a button in the action colour,
 * medium text, and the dark footer. Only a sketch: "Preview" shows the real store.
 */
export function ThemeSample({
  colors,
  template,
}: {
  colors: { primary: string; secondary: string; banner: string; action: string };
  template: string;
}) {
  return (
    <div
      aria-hidden
      className="overflow-hidden rounded-lg border border-neutral-200 text-xs"
      data-testid="theme-sample"
    >
      <div className="flex items-center justify-between gap-2 border-b border-neutral-200 bg-white px-3 py-2">
        <span className="font-bold" style={{ color: rgb(colors.primary) }}>
          Your store
        </span>
        <span className="text-neutral-600">{template === 'ONE' ? 'Shopping Cart · My Wishlist' : 'Cart'}</span>
      </div>
      <div className="space-y-2 px-3 py-3" style={{ background: rgb(colors.primary, 0.1) }}>
        <p style={{ color: rgb(colors.secondary) }}>New arrivals this week</p>
        <div className="flex flex-wrap items-center gap-2">
          <span className="rounded-md px-2.5 py-1 font-semibold text-white" style={{ background: rgb(colors.action) }}>
            Add to cart
          </span>
          <span
            className="rounded-md px-2 py-1"
            style={{ background: rgb(colors.primary, 0.2), color: rgb(colors.primary) }}
          >
            On sale
          </span>
          <span className="underline" style={{ color: rgb(colors.primary) }}>
            See all
          </span>
        </div>
      </div>
      <div className="px-3 py-2 text-white" style={{ background: rgb(colors.banner) }}>
        Footer · Company address
      </div>
    </div>
  );
}
