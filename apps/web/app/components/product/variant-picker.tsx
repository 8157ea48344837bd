import type { ProductDetails, ProductVariant } from '@app/contracts';
import { useLayoutEffect, useRef } from 'react';

type Variants = Pick<ProductDetails, 'options' | 'variants'>;

/** The option values' field names: `option.O1=O1V2`, what the "Show" button sends to the page. */
export const optionField = (optionId: string) => `option.${optionId}`;

/**
 * The variant of these values (one per option, null where none was chosen); for a combination the
 * product does not offer, the nearest one: the variant sharing the most values, the value just
 * changed (`changed`, an option's position) counting most, then the earlier options (a shopper
 * changing Size keeps the Finish when they can), one that can be bought first. Undefined only for a
 * product without variants to offer.
 */
export function variantFor(
  p: Variants,
  values: readonly (string | null | undefined)[],
  changed?: number,
): ProductVariant | undefined {
  const exact = p.variants.find((v) => v.valueIds.every((id, i) => id === values[i]));
  if (exact) return exact;
  let best: ProductVariant | undefined;
  let bestScore = -1;
  for (const v of p.variants) {
    let score = 0;
    for (const [i, id] of v.valueIds.entries()) if (values[i] === id) score += i === changed ? 16 : 2 ** (3 - i);
    const ranked = score * 2 + (v.available ? 1 : 0);
    if (ranked > bestScore) {
      best = v;
      bestScore = ranked;
    }
  }
  return best;
}

/** The variant of exactly these values, or undefined when the product does not offer the combination. */
export function exactVariant(p: Variants, values: readonly string[]): ProductVariant | undefined {
  return p.variants.find((v) => v.valueIds.every((id, i) => id === values[i]));
}

/** The id of the picker's own GET form ("Show"), beside the purchase form: forms cannot nest. */
export const showFormId = (productId: string) => `variant-show-${productId}`;

/**
 * "Show" without JavaScript: a GET form of its own, so the purchase form's CSRF token never goes
 * into an address (access logs keep query strings). The radios and the button sit in the purchase
 * form's layout and belong to this form through their `form` attribute; it sends the chosen values
 * and the variant shown before (to tell which value changed), and the loader redirects to
 * `?variant=`.
 */
export function VariantShowForm({
  productId,
  action,
  variantId,
}: {
  productId: string;
  action: string;
  variantId: string;
}) {
  return (
    <form id={showFormId(productId)} method="get" action={action} hidden data-testid="variant-show-form">
      <input type="hidden" name="variantId" value={variantId} />
    </form>
  );
}

/**
 * The picker (decision 112): a group of radio buttons per option (a swatch when the value has a
 * colour), inside the purchase form. Each value is marked against the current choice: "unavailable"
 * when no variant has it with the other values chosen (still selectable: it moves to the nearest
 * variant) and "sold out" (struck). Without JavaScript the "Show" button sends the values to the
 * product page (GET), whose loader redirects to `?variant=`; with JavaScript a choice updates the page
 * at once (`onSelect`) and the button is not shown. The radios and "Show" belong to the picker's own
 * GET form (VariantShowForm, rendered beside the purchase form), not to the purchase form.
 */
export function VariantPicker({
  product,
  selected,
  onSelect,
  showHref,
  interactive,
}: {
  product: ProductDetails;
  selected: ProductVariant;
  onSelect: (variantId: string) => void;
  /** The product page, where "Show" sends the values. */
  showHref: string;
  /** Hydrated: choices apply at once, no "Show" button. */
  interactive: boolean;
}) {
  const root = useRef<HTMLDivElement>(null);
  // A value the shopper chose before the app hydrated (the radio is native until then, and the app
  // starts at the first sign of intent, often that very click): React keeps what the browser shows
  // but not in state, so it is adopted once, at hydration, as a choice (see use-value-before-hydration).
  useLayoutEffect(() => {
    const shown = product.options.map(
      (o) =>
        root.current?.querySelector<HTMLInputElement>(`input[name="${optionField(o.optionId)}"]:checked`)?.value ??
        null,
    );
    const changed = shown.findIndex((id, i) => id !== null && id !== selected.valueIds[i]);
    if (changed < 0) return;
    const next = variantFor(product, shown, changed);
    if (next && next.variantId !== selected.variantId) onSelect(next.variantId);
  }, []);

  const choose = (position: number, valueId: string) => {
    const values = selected.valueIds.map((id, i) => (i === position ? valueId : id));
    const next = variantFor(product, values, position);
    if (next) onSelect(next.variantId);
  };

  return (
    <div ref={root} className="space-y-5" data-testid="variant-picker">
      {product.options.map((o, position) => {
        const chosen = o.values.find((v) => v.valueId === selected.valueIds[position]);
        return (
          <fieldset key={o.optionId} data-testid="variant-option">
            <legend className="mb-2 text-sm text-slate-700">
              <span className="font-semibold text-slate-900">{o.name}</span>
              {chosen && <span>: {chosen.label}</span>}
            </legend>
            <div className="flex flex-wrap gap-2">
              {o.values.map((v) => {
                const values = selected.valueIds.map((id, i) => (i === position ? v.valueId : id));
                const match = exactVariant(product, values);
                const state = !match ? 'unavailable' : match.available ? 'available' : 'sold-out';
                const note = state === 'unavailable' ? 'unavailable' : state === 'sold-out' ? 'sold out' : '';
                const checked = v.valueId === selected.valueIds[position];
                // Sold out: struck through; no such combination: a dashed outline, not struck.
                const look =
                  state === 'available'
                    ? 'border-slate-300 text-slate-900'
                    : state === 'sold-out'
                      ? 'border-slate-300 text-slate-600 line-through decoration-slate-500'
                      : 'border-dashed border-slate-400 text-slate-600';
                return (
                  <label key={v.valueId} className="relative" title={note ? `${v.label}, ${note}` : v.label}>
                    <input
                      type="radio"
                      name={optionField(o.optionId)}
                      form={showFormId(product.productId)}
                      value={v.valueId}
                      checked={checked}
                      // The name said whole ("3000 K, sold out"): from the label's text, Chromium puts
                      // a space before a hidden note's comma ("3000 K , sold out").
                      aria-label={note ? `${v.label}, ${note}` : undefined}
                      onChange={() => choose(position, v.valueId)}
                      className="peer absolute inset-0 size-full cursor-pointer appearance-none rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
                      data-state={state}
                      data-testid="variant-value"
                    />
                    {v.swatchColor ? (
                      <span
                        className={`flex h-10 items-center gap-2 rounded-full border py-1 pr-4 pl-1 text-sm peer-checked:border-slate-900 peer-checked:ring-1 peer-checked:ring-slate-900 peer-hover:border-slate-900 ${look}`}
                      >
                        <span
                          aria-hidden
                          className="size-8 rounded-full border border-black/10"
                          style={{ backgroundColor: v.swatchColor }}
                        />
                        {v.label}
                      </span>
                    ) : (
                      <span
                        className={`flex h-10 items-center rounded-full border px-4 text-sm peer-checked:border-slate-900 peer-checked:bg-slate-900 peer-checked:text-white peer-hover:border-slate-900 ${look}`}
                      >
                        {v.label}
                      </span>
                    )}
                  </label>
                );
              })}
            </div>
          </fieldset>
        );
      })}
      {!interactive && (
        // A GET to the product page with the chosen values; the loader answers with ?variant= (303).
        <button
          type="submit"
          form={showFormId(product.productId)}
          formMethod="get"
          formAction={showHref}
          formNoValidate
          className="h-10 rounded-md border border-slate-900 px-4 text-sm font-semibold text-slate-900 hover:bg-slate-100"
          data-testid="variant-show"
        >
          Show
        </button>
      )}
    </div>
  );
}
