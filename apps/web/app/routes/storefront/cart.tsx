import type { CartAction, CartActionOutcome, CartLine } from '@app/contracts';
import { formatMoney, orderLineVariantText } from '@app/contracts/client';
import { Lock, ShoppingBag, Tag, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { data, Link, useNavigation } from 'react-router';
import { Price } from '../../components/product/price';
import { FormAlert, submitClass } from '../../components/ui/form-field';
import { EmptyState, PageContainer, PageTitle } from '../../components/ui/page';
import { PostForm } from '../../components/ui/post-form';
import { setCookies } from '../../lib/cookies';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/cart';

export async function loader({ context }: Route.LoaderArgs) {
  return { cart: await context.api.cart() };
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '').slice(0, 100);

/** One action for the cart, switching on the form's intent (Hydrogen's cart.tsx). */
const unknownAction: CartActionOutcome = { ok: false, status: 400, message: 'Unknown cart action.', fieldErrors: {} };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = text(form, 'intent');
  let cartAction: CartAction;
  switch (intent) {
    case 'add': {
      // The product page names option choices `selections[OPTION]`.
      const selections: Record<string, string> = {};
      for (const [k, v] of form) {
        const m = /^selections\[(.{1,64})\]$/.exec(k);
        if (m?.[1]) selections[m[1]] = String(v).slice(0, 64);
      }
      cartAction = {
        intent: 'add',
        productId: text(form, 'productId'),
        // The variant picker's choice (decision 112); absent for a product with one variant.
        ...(text(form, 'variantId') ? { variantId: text(form, 'variantId') } : {}),
        quantity: text(form, 'quantity'),
        ...(Object.keys(selections).length ? { selections } : {}),
      };
      break;
    }
    case 'update':
      cartAction = { intent: 'update', lineId: text(form, 'lineId'), quantity: text(form, 'quantity') };
      break;
    case 'remove':
      cartAction = { intent: 'remove', lineId: text(form, 'lineId') };
      break;
    case 'promo':
      cartAction = { intent: 'promo', promoCode: text(form, 'promoCode') };
      break;
    case 'remove-promo':
    case 'empty':
      cartAction = { intent };
      break;
    case 'reorder':
      cartAction = { intent: 'reorder', orderId: text(form, 'orderId') };
      break;
    default:
      return data({ result: unknownAction }, 400);
  }
  const result = await context.api.cartAction(cartAction);
  if (result.ok) return data({ result }, { headers: setCookies(result.cookies) });
  return data({ result }, { status: result.status });
}

export default function CartPage({ loaderData, actionData }: Route.ComponentProps) {
  const { cart } = loaderData;
  const result = actionData?.result;
  const failure = result && !result.ok ? result : null;
  useActionToast(result);
  const round = useAnswerRound(result);

  if (cart.lines.length === 0) {
    return (
      <PageContainer>
        <PageTitle>Shopping cart</PageTitle>
        <FormAlert message={failure?.message ?? null} />
        <EmptyState
          icon={<ShoppingBag className="size-10" />}
          title="Your cart is empty"
          action={{ to: '/', label: 'Continue shopping' }}
        >
          Items you add to your cart will appear here.
        </EmptyState>
      </PageContainer>
    );
  }

  const blocked = cart.lines.some((l) => l.problem);
  return (
    <PageContainer>
      <PageTitle lead={`${cart.shoppingCartSize} ${cart.shoppingCartSize === 1 ? 'item' : 'items'}`}>
        Shopping cart
      </PageTitle>
      {failure && !failure.fieldErrors.promoCode && (
        <div className="mb-6">
          <FormAlert message={failure.fieldErrors.quantity ?? failure.message} />
        </div>
      )}
      <div className="grid gap-10 lg:grid-cols-[1fr_22rem]">
        <section aria-label="Items in your cart">
          <ul className="divide-y divide-slate-200 border-y border-slate-200" data-testid="cart-lines">
            {cart.lines.map((line) => (
              <CartLineRow key={line.lineId} line={line} currency={cart.currency} round={round} />
            ))}
          </ul>
          <div className="mt-4 flex items-center justify-between">
            <Link to="/" className="text-sm font-medium text-brand hover:underline">
              ← Continue shopping
            </Link>
            <PostForm>
              <input type="hidden" name="intent" value="empty" />
              <button type="submit" className="text-sm text-slate-600 hover:text-red-700 hover:underline">
                Empty cart
              </button>
            </PostForm>
          </div>
        </section>

        <aside aria-label="Order summary" className="h-fit rounded-2xl border border-slate-200 bg-slate-50 p-6">
          <h2 className="text-lg font-semibold text-slate-900">Order summary</h2>
          <PromoForm cart={cart} error={failure?.fieldErrors.promoCode ?? null} />
          <dl className="mt-5 space-y-2 text-sm" data-testid="cart-totals">
            <div className="flex justify-between">
              <dt className="text-slate-600">Subtotal</dt>
              <dd className="font-medium text-slate-900">{formatMoney(cart.subtotal, cart.currency)}</dd>
            </div>
            {cart.discount > 0 && (
              <div className="flex justify-between text-green-800">
                <dt>Discount ({cart.promo?.code})</dt>
                <dd data-testid="cart-discount">−{formatMoney(cart.discount, cart.currency)}</dd>
              </div>
            )}
            <div className="flex justify-between">
              <dt className="text-slate-600">Shipping and tax</dt>
              <dd className="text-slate-600">At checkout</dd>
            </div>
            <div className="flex justify-between border-t border-slate-200 pt-3 text-base">
              <dt className="font-semibold text-slate-900">Estimated total</dt>
              <dd className="font-semibold text-slate-900" data-testid="cart-total">
                {formatMoney(cart.total, cart.currency)}
              </dd>
            </div>
          </dl>
          {blocked ? (
            <p className="mt-6 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status">
              Please fix the items marked above before checking out.
            </p>
          ) : (
            <Link to="/checkout" className={`${submitClass} mt-6 flex items-center justify-center gap-2`}>
              <Lock aria-hidden className="size-4" />
              Check out
            </Link>
          )}
        </aside>
      </div>
    </PageContainer>
  );
}

/**
 * Counts the cart's answers. A quantity box is drawn afresh from its line after each one, so a refused
 * quantity (more than is left, say) goes back to what the cart holds instead of staying in the box
 * beside a total that does not match it; the refusal is said above the lines.
 */
function useAnswerRound(answer: unknown) {
  const [seen, setSeen] = useState({ answer, round: 0 });
  if (seen.answer !== answer) setSeen({ answer, round: seen.round + 1 });
  return seen.answer === answer ? seen.round : seen.round + 1;
}

function CartLineRow({ line, currency, round }: { line: CartLine; currency: string; round: number }) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('lineId') === line.lineId;
  const max = Math.max(1, Math.min(99, line.stockQuantity));
  return (
    <li className={`flex gap-4 py-5 ${busy ? 'opacity-60' : ''}`} data-testid="cart-line">
      <Link
        to={`/${line.slug}/${line.productId}`}
        className="size-20 shrink-0 overflow-hidden rounded-lg border border-slate-200 bg-white sm:size-24"
      >
        {line.imageUrl ? (
          <img src={line.imageUrl} alt="" width={96} height={96} className="size-full object-cover" />
        ) : (
          <div className="flex size-full items-center justify-center text-slate-300">
            <ShoppingBag aria-hidden className="size-8" />
          </div>
        )}
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:justify-between">
        <div className="min-w-0">
          <Link
            to={`/${line.slug}/${line.productId}`}
            className="font-medium text-slate-900 hover:text-brand hover:underline"
          >
            {line.productName}
          </Link>
          {line.variantTitle && <p className="mt-0.5 text-sm text-slate-600">{orderLineVariantText(line)}</p>}
          {line.optionsText && <p className="mt-0.5 text-sm text-slate-600">{line.optionsText}</p>}
          <div className="mt-1">
            <Price price={line.unitPrice} compareAt={line.listUnitPrice} currency={currency} />
          </div>
          {line.problem && (
            <p className="mt-1 text-sm font-medium text-red-700" data-testid="line-problem">
              {line.problem}
            </p>
          )}
        </div>
        {/* Wraps on a phone: quantity, total and remove side by side are wider than 375 px. */}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 sm:flex-col sm:flex-nowrap sm:items-end">
          <PostForm className="flex items-center gap-2">
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="lineId" value={line.lineId} />
            <label htmlFor={`qty-${line.lineId}`} className="sr-only">
              Quantity of {line.productName}
            </label>
            <input
              id={`qty-${line.lineId}`}
              name="quantity"
              type="number"
              inputMode="numeric"
              min={1}
              max={max}
              step={1}
              defaultValue={line.quantity}
              key={`${line.quantity}:${round}`}
              className="h-10 w-16 rounded-md border border-slate-300 text-center text-sm"
              data-testid="line-quantity"
            />
            <button
              type="submit"
              className="h-10 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:border-slate-900"
            >
              Update
            </button>
          </PostForm>
          <p className="text-sm font-semibold text-slate-900 sm:order-first" data-testid="line-total">
            {formatMoney(line.lineTotal, currency)}
          </p>
          <PostForm>
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="lineId" value={line.lineId} />
            <button
              type="submit"
              className="flex h-10 min-w-10 items-center justify-center gap-1 text-sm text-slate-600 hover:text-red-700"
              aria-label={`Remove ${line.productName}`}
            >
              <Trash2 aria-hidden className="size-4" />
              <span className="hidden sm:inline">Remove</span>
            </button>
          </PostForm>
        </div>
      </div>
    </li>
  );
}

function PromoForm({ cart, error }: { cart: Route.ComponentProps['loaderData']['cart']; error: string | null }) {
  if (cart.promo) {
    return (
      <div className="mt-4 rounded-md border border-green-200 bg-green-50 p-3 text-sm" data-testid="applied-promo">
        <div className="flex items-center justify-between gap-2">
          <span className="flex items-center gap-1.5 font-medium text-green-900">
            <Tag aria-hidden className="size-4" />
            {cart.promo.code}
          </span>
          <PostForm>
            <input type="hidden" name="intent" value="remove-promo" />
            <button type="submit" aria-label={`Remove promo code ${cart.promo.code}`} className="text-green-900">
              <X aria-hidden className="size-4" />
            </button>
          </PostForm>
        </div>
        <p className="mt-1 text-green-900">{cart.promo.description}</p>
        {cart.promoProblem && <p className="mt-1 font-medium text-amber-900">{cart.promoProblem}</p>}
      </div>
    );
  }
  return (
    <PostForm className="mt-4">
      <input type="hidden" name="intent" value="promo" />
      <label htmlFor="promoCode" className="mb-1 block text-sm font-medium text-slate-800">
        Promo code
      </label>
      <div className="flex gap-2">
        <input
          id="promoCode"
          name="promoCode"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'promoCode-error' : undefined}
          className="h-10 min-w-0 flex-1 rounded-md border border-slate-300 px-3 text-sm uppercase"
        />
        <button
          type="submit"
          className="h-10 rounded-md border border-slate-900 px-4 text-sm font-semibold text-slate-900 hover:bg-slate-900 hover:text-white"
        >
          Apply
        </button>
      </div>
      {error && (
        <p id="promoCode-error" className="mt-1 text-sm text-red-700" data-testid="error-promoCode">
          {error}
        </p>
      )}
    </PostForm>
  );
}
