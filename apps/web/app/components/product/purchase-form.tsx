import type { CartActionOutcome, ConfigPrice, ProductDetails, ProductVariant } from '@app/contracts';
import { CSRF_FIELD, formatMoney, GENERIC_ERROR_MESSAGE } from '@app/contracts/client';
import { Loader2, Minus, Plus, ShoppingBag } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useFetcher, useNavigate, useRouteLoaderData } from 'react-router';
import type { loadFrameData } from '../../lib/frame-data';
import { useValueChangedBeforeHydration } from '../../lib/use-value-before-hydration';
import { useToast } from '../ui/toast';
import { Price } from './price';

const CONFIG_PRICE_URL = '/skulocity/api/v1/crmsfa/orders/getConfigDetailsEvent';
const MIN_QTY = 1;
const MAX_QTY = 99;

type Selections = Record<string, string>;

const clampQty = (n: number) => (Number.isFinite(n) ? Math.min(MAX_QTY, Math.max(MIN_QTY, Math.round(n))) : MIN_QTY);

function defaultSelections(options: ProductDetails['configOptions']): Selections {
  const out: Selections = {};
  for (const o of options) {
    const c = o.choices.find((x) => x.isDefault) ?? o.choices[0];
    if (c) out[o.optionId] = c.choiceId;
  }
  return out;
}

function deltaOf(options: ProductDetails['configOptions'], selections: Selections): number {
  let sum = 0;
  for (const o of options) sum += o.choices.find((c) => c.choiceId === selections[o.optionId])?.priceDelta ?? 0;
  return sum;
}

/**
 * The cart's answer to Add to cart, with JavaScript: taken, the shopper goes to the cart and is told;
 * refused (more than the stock, a choice no longer sold), the shopper stays on the product with the
 * reason under the button, as Shopify's product form does, instead of landing on a cart that does not
 * hold what they asked for. Without JavaScript the form posts to /cart, which shows either answer.
 */
function useAddToCart() {
  const fetcher = useFetcher<{ result: CartActionOutcome }>();
  const navigate = useNavigate();
  const toast = useToast();
  const answer = fetcher.data?.result;
  const handled = useRef<CartActionOutcome | undefined>(undefined);
  useEffect(() => {
    if (!answer?.ok || handled.current === answer) return;
    handled.current = answer;
    toast('success', answer.message);
    navigate('/cart');
  }, [answer, navigate, toast]);
  const refusal =
    answer && !answer.ok ? (answer.fieldErrors.quantity ?? answer.fieldErrors.selections ?? answer.message) : null;
  return { fetcher, refusal, adding: fetcher.state === 'submitting' };
}

/**
 * Price, options, quantity and Add to cart. One form posting to /cart: without JavaScript the option
 * radios and the quantity field are what it sends (productId, variantId, quantity,
 * selections[optionId]). With JavaScript, a changed option is priced by the server
 * (getConfigDetailsEvent); the last good price stays on screen while the new one loads, and the form
 * posts in place (useAddToCart).
 *
 * `variant`: the variant chosen (decision 112): its price, and Add to cart only when it can be bought.
 * `picker`: the variant picker, inside the form so that its values are what the form sends.
 */
export function PurchaseForm({
  product,
  variant,
  picker,
}: {
  product: ProductDetails;
  variant?: ProductVariant | undefined;
  picker?: ReactNode;
}) {
  const options = product.configOptions;
  const configurable = product.productType === 'CONFIGURABLE' && options.length > 0;
  const [selections, setSelections] = useState<Selections>(() => defaultSelections(options));
  const [quantity, setQuantity] = useState<number | ''>(1);
  const quantityRef = useRef<HTMLInputElement>(null);
  useValueChangedBeforeHydration(quantityRef, String(quantity), (v) =>
    setQuantity(v === '' ? '' : clampQty(Number(v))),
  );
  const [unitPrice, setUnitPrice] = useState(() => product.price + deltaOf(options, defaultSelections(options)));
  const [pricing, setPricing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inflight = useRef<AbortController | null>(null);
  const root = useRouteLoaderData<typeof loadFrameData>('root');
  const { fetcher, refusal, adding } = useAddToCart();

  useEffect(() => () => inflight.current?.abort(), []);

  async function reprice(next: Selections) {
    inflight.current?.abort();
    const controller = new AbortController();
    inflight.current = controller;
    setPricing(true);
    setError(null);
    try {
      const res = await fetch(CONFIG_PRICE_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ productId: product.productId, selections: next, quantity: clampQty(Number(quantity)) }),
        signal: controller.signal,
      });
      const body = (await res.json().catch(() => null)) as { data?: ConfigPrice; message?: string } | null;
      if (!res.ok || !body?.data) {
        setError(body?.message || GENERIC_ERROR_MESSAGE);
        return;
      }
      setUnitPrice(body.data.unitPrice);
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      setError(GENERIC_ERROR_MESSAGE);
    } finally {
      if (inflight.current === controller) {
        inflight.current = null;
        setPricing(false);
      }
    }
  }

  const choose = (optionId: string, choiceId: string) => {
    const next = { ...selections, [optionId]: choiceId };
    setSelections(next);
    void reprice(next);
  };

  // The list price moves with the options exactly as the price does; a variant's price replaces the
  // product's ("from") one, the options' price changes on top.
  const base = variant ?? product;
  const price = base.price + (unitPrice - product.price);
  const onSale = base.salePrice != null && base.salePrice < base.listPrice;
  const compareAt = onSale ? base.listPrice + (price - base.price) : null;
  const qty = quantity === '' ? MIN_QTY : quantity;
  const buyable = variant ? variant.available : product.inStock;

  return (
    <fetcher.Form method="post" action="/cart" className="space-y-6" data-testid="add-to-cart-form">
      <input type="hidden" name={CSRF_FIELD} value={root?.csrfToken ?? ''} />
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={product.productId} />
      {/* The cart takes the product's id until it takes variants (then this one wins). */}
      {variant && <input type="hidden" name="variantId" value={variant.variantId} />}
      {/* Enter in a field adds to the cart, as before the picker's "Show" button came first. */}
      {picker && (
        <button type="submit" hidden tabIndex={-1} aria-hidden disabled={!buyable}>
          Add to cart
        </button>
      )}

      <div aria-live="polite" aria-busy={pricing} data-testid="product-price">
        <div className={`flex items-center gap-3 transition-opacity ${pricing ? 'opacity-60' : ''}`}>
          <Price price={price} compareAt={compareAt} currency={product.currencyUomId} size="lg" />
          {pricing && <Loader2 aria-label="Updating price" className="size-5 animate-spin text-slate-500" />}
        </div>
        {qty > 1 && (
          <p className="mt-1 text-sm text-slate-600" data-testid="price-total">
            {formatMoney(price * qty, product.currencyUomId)} for {qty}
          </p>
        )}
        {configurable && <p className="mt-1 text-xs text-slate-500">Price depends on the options you choose.</p>}
      </div>
      {error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}

      {picker}

      {configurable &&
        options.map((o) => {
          const chosen = o.choices.find((c) => c.choiceId === selections[o.optionId]);
          return (
            <fieldset key={o.optionId} data-testid="config-option">
              <legend className="mb-2 text-sm text-slate-700">
                <span className="font-semibold text-slate-900">{o.optionName}</span>
                {chosen && <span>: {chosen.label}</span>}
              </legend>
              <div className="flex flex-wrap gap-2">
                {o.choices.map((c) => (
                  <label key={c.choiceId} className="relative">
                    <input
                      type="radio"
                      name={`selections[${o.optionId}]`}
                      value={c.choiceId}
                      checked={selections[o.optionId] === c.choiceId}
                      onChange={() => choose(o.optionId, c.choiceId)}
                      className="peer absolute inset-0 size-full cursor-pointer appearance-none rounded-full"
                    />
                    <span className="flex h-10 items-center gap-1.5 rounded-full border border-slate-300 px-4 text-sm text-slate-900 peer-checked:border-slate-900 peer-checked:bg-slate-900 peer-checked:text-white peer-hover:border-slate-900">
                      {c.label}
                      {c.priceDelta !== 0 && (
                        <span className="text-xs opacity-75">
                          {c.priceDelta > 0 ? '+' : '−'}
                          {formatMoney(Math.abs(c.priceDelta), product.currencyUomId, { trim: true })}
                        </span>
                      )}
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          );
        })}

      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="quantity" className="mb-2 block text-sm font-semibold text-slate-900">
            Quantity
          </label>
          <div className="flex h-12 w-36 items-center rounded-md border border-slate-300 focus-within:border-slate-900 focus-within:ring-1 focus-within:ring-slate-900">
            <button
              type="button"
              onClick={() => setQuantity(clampQty(qty - 1))}
              disabled={qty <= MIN_QTY}
              aria-label="Decrease quantity"
              className="flex h-full w-11 items-center justify-center text-slate-700 hover:text-slate-900 disabled:text-slate-300"
            >
              <Minus aria-hidden className="size-4" />
            </button>
            <input
              ref={quantityRef}
              id="quantity"
              name="quantity"
              type="number"
              inputMode="numeric"
              min={MIN_QTY}
              max={MAX_QTY}
              step={1}
              required
              value={quantity}
              onChange={(e) => setQuantity(e.target.value === '' ? '' : clampQty(Number(e.target.value)))}
              onBlur={() => setQuantity(qty)}
              className="h-full w-full min-w-0 [appearance:textfield] border-0 bg-transparent text-center text-base font-medium text-slate-900 focus:outline-none [&::-webkit-inner-spin-button]:appearance-none"
              data-testid="quantity"
            />
            <button
              type="button"
              onClick={() => setQuantity(clampQty(qty + 1))}
              disabled={qty >= MAX_QTY}
              aria-label="Increase quantity"
              className="flex h-full w-11 items-center justify-center text-slate-700 hover:text-slate-900 disabled:text-slate-300"
            >
              <Plus aria-hidden className="size-4" />
            </button>
          </div>
        </div>
        <button
          type="submit"
          disabled={!buyable}
          aria-disabled={adding || undefined}
          onClick={(e) => {
            // A second press while the first is on its way would add twice.
            if (adding) e.preventDefault();
          }}
          className="flex h-12 min-w-[10rem] flex-1 items-center justify-center gap-2 rounded-md bg-action px-6 text-base font-semibold text-white hover:opacity-90 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-700"
          data-testid="add-to-cart"
        >
          {buyable && !adding && <ShoppingBag aria-hidden className="size-5" />}
          {buyable && adding && <Loader2 aria-hidden className="size-5 animate-spin" />}
          {buyable ? 'Add to cart' : 'Sold out'}
        </button>
      </div>
      {refusal && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          data-testid="add-to-cart-error"
        >
          {refusal}
        </p>
      )}
    </fetcher.Form>
  );
}
