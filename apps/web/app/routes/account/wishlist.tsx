import type { WishlistAction, WishlistActionOutcome, WishlistItem } from '@app/contracts';
import { CircleCheck, CircleX, Heart, ShoppingBag, Trash2, TriangleAlert } from 'lucide-react';
import { data, Link, redirect, useNavigation } from 'react-router';
import { Price } from '../../components/product/price';
import { NO_PRODUCT_IMAGE, productHref } from '../../components/product/product-card';
import { wishlistLoginUrl } from '../../components/product/wishlist-heart';
import { FormAlert } from '../../components/ui/form-field';
import { EmptyState } from '../../components/ui/page';
import { PostForm } from '../../components/ui/post-form';
import { loginUrlFor, safeRedirect } from '../../lib/safe-redirect';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/wishlist';
import { AccountLayout } from './account-nav';

const INTENTS = ['add', 'remove', 'move-to-cart'] as const;

export async function loader({ context }: Route.LoaderArgs) {
  return { wishlist: await context.api.wishlist() };
}

export function meta() {
  return [{ title: 'Wishlist' }, { name: 'robots', content: 'noindex' }];
}

/**
 * One action for the wishlist, switching on the form's intent. This page's own forms stay here; a
 * heart elsewhere sends `redirectTo`, its page, and goes back there once the change is made.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const text = (name: string, max = 100) => String(form.get(name) ?? '').slice(0, max);
  const intent = text('intent') as WishlistAction['intent'];
  const productId = text('productId');
  const redirectTo = form.has('redirectTo') ? safeRedirect(text('redirectTo', 2000)) : null;
  if (!INTENTS.includes(intent)) {
    const result: WishlistActionOutcome = {
      ok: false,
      status: 400,
      message: 'Unknown wishlist action.',
      fieldErrors: {},
    };
    return data({ result }, 400);
  }
  const result = await context.api.wishlistAction({ intent, productId });
  if (redirectTo && result.ok) throw redirect(redirectTo);
  // The session ended since the page was shown: log in again, and a heart's product comes along.
  if (redirectTo && !result.ok && result.status === 401) {
    throw redirect(intent === 'add' ? wishlistLoginUrl(redirectTo, productId) : loginUrlFor(redirectTo));
  }
  // Anything else refused (a full wishlist, a product gone) is said here, next to the list it is about.
  return data({ result }, { status: result.ok ? 200 : result.status });
}

export default function WishlistPage({ loaderData, actionData }: Route.ComponentProps) {
  const { wishlist } = loaderData;
  const result = actionData?.result;
  useActionToast(result);
  const failure = result && !result.ok ? result : null;
  const { count } = wishlist;

  return (
    <AccountLayout title="Wishlist">
      {failure && (
        <div className="mb-6">
          <FormAlert message={failure.fieldErrors.productId ?? failure.message} />
        </div>
      )}
      {count === 0 ? (
        <EmptyState
          icon={<Heart className="size-10" />}
          title="Your wishlist is empty"
          action={{ to: '/', label: 'Start shopping' }}
        >
          Tap the heart on any product to save it here for later.
        </EmptyState>
      ) : (
        <>
          <p className="-mt-3 mb-6 text-slate-600" data-testid="wishlist-summary">
            {count} saved {count === 1 ? 'product' : 'products'}
          </p>
          <ul className="grid grid-cols-2 gap-x-4 gap-y-8 sm:gap-x-6 lg:grid-cols-3" data-testid="wishlist">
            {wishlist.items.map((item) => (
              <WishlistCard key={item.productId} item={item} currency={wishlist.currency} />
            ))}
          </ul>
        </>
      )}
    </AccountLayout>
  );
}

function Stock({ item }: { item: WishlistItem }) {
  if (!item.available)
    return (
      <p className="flex items-center gap-1.5 text-sm text-slate-600" data-testid="wishlist-stock">
        <CircleX aria-hidden className="size-4 text-slate-500" /> No longer available
      </p>
    );
  if (!item.inStock)
    return (
      <p className="flex items-center gap-1.5 text-sm text-slate-600" data-testid="wishlist-stock">
        <CircleX aria-hidden className="size-4 text-slate-500" /> Sold out
      </p>
    );
  if (item.lowStock != null)
    return (
      <p className="flex items-center gap-1.5 text-sm font-medium text-amber-800" data-testid="wishlist-stock">
        <TriangleAlert aria-hidden className="size-4" /> Only {item.lowStock} left
      </p>
    );
  return (
    <p className="flex items-center gap-1.5 text-sm text-emerald-800" data-testid="wishlist-stock">
      <CircleCheck aria-hidden className="size-4" /> In stock
    </p>
  );
}

function WishlistCard({ item, currency }: { item: WishlistItem; currency: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('productId') === item.productId;
  const href = productHref(item);
  const primary =
    'flex h-11 w-full items-center justify-center gap-2 rounded-md px-4 text-sm font-semibold transition-opacity';
  return (
    <li
      className={`flex flex-col transition-opacity ${busy ? 'opacity-60' : ''}`}
      data-testid="wishlist-item"
      data-product-id={item.productId}
    >
      <Link to={href} tabIndex={-1} aria-hidden className="block aspect-square overflow-hidden rounded-lg bg-slate-100">
        <img
          src={item.imageUrl ?? NO_PRODUCT_IMAGE}
          alt=""
          width={480}
          height={480}
          loading="lazy"
          decoding="async"
          className={`size-full object-cover transition-transform duration-500 hover:scale-[1.04] ${item.inStock && item.available ? '' : 'opacity-70'}`}
        />
      </Link>
      <div className="mt-3 flex flex-1 flex-col gap-1">
        {item.brandName && (
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{item.brandName}</p>
        )}
        <h2 className="text-[15px] leading-snug font-medium text-slate-900">
          <Link to={href} className="underline-offset-4 hover:text-brand hover:underline">
            {item.productName}
          </Link>
        </h2>
        <Price price={item.price} compareAt={item.listPrice} currency={currency} />
        <Stock item={item} />
        <div className="mt-auto flex flex-col gap-2 pt-3">
          {item.configurable ? (
            <Link to={href} className={`${primary} border border-slate-900 text-slate-900 hover:bg-slate-50`}>
              Choose options<span className="sr-only"> of {item.productName}</span>
            </Link>
          ) : (
            <PostForm>
              <input type="hidden" name="intent" value="move-to-cart" />
              <input type="hidden" name="productId" value={item.productId} />
              <button
                type="submit"
                disabled={!item.inStock || !item.available || busy}
                className={`${primary} bg-action text-white hover:opacity-90 disabled:cursor-not-allowed disabled:bg-slate-200 disabled:text-slate-600`}
              >
                <ShoppingBag aria-hidden className="size-4" />
                {!item.available ? 'Unavailable' : item.inStock ? 'Move to cart' : 'Sold out'}
                <span className="sr-only"> {item.productName}</span>
              </button>
            </PostForm>
          )}
          <PostForm>
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="productId" value={item.productId} />
            <button
              type="submit"
              disabled={busy}
              className="flex h-9 w-full items-center justify-center gap-1.5 rounded-md text-sm text-slate-600 hover:bg-slate-50 hover:text-red-700"
            >
              <Trash2 aria-hidden className="size-4" />
              Remove<span className="sr-only"> {item.productName} from wishlist</span>
            </button>
          </PostForm>
        </div>
      </div>
    </li>
  );
}
