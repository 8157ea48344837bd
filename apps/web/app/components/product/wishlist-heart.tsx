import { Heart } from 'lucide-react';
import { Link, useLocation, useNavigation, useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../../root';
import { PostForm } from '../ui/post-form';

/** Where every heart posts: the wishlist page's action, which sends the shopper back (`redirectTo`). */
export const WISHLIST_ACTION = '/account/wishlist';

const PRODUCT_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/** The `wishlist` parameter of a login or sign-up page when it looks like a product id; else none. */
export function carriedWishlistId(value: string | null | undefined): string | null {
  return value && PRODUCT_ID.test(value) ? value : null;
}

/**
 * A guest's heart opens login with the page to come back to and the product to add. The product
 * travels as a hidden field of the login form, so it is added by the CSRF-protected login post and
 * never by a GET (a link or an image elsewhere cannot fill someone's wishlist).
 */
export function wishlistLoginUrl(returnTo: string, productId: string): string {
  return `/auth/login?redirectUrl=${encodeURIComponent(returnTo)}&wishlist=${encodeURIComponent(productId)}`;
}

/**
 * The heart: a toggle for a signed-in shopper (a form posting add or remove, aria-pressed), a link to
 * login for a guest. It reads whether the product is saved from the frame's wishlist ids, and shows
 * the new state as soon as its form is sent. Works without JavaScript: the action redirects back here.
 */
export function WishlistHeart({
  productId,
  productName,
  variant,
}: {
  productId: string;
  productName: string;
  /** `button`: a labelled button (product page); `icon`: a round icon over a product card's picture. */
  variant: 'button' | 'icon';
}) {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const location = useLocation();
  const navigation = useNavigation();
  const here = `${location.pathname}${location.search}`;
  const pending =
    navigation.formAction === WISHLIST_ACTION && navigation.formData?.get('productId') === productId
      ? navigation.formData.get('intent')
      : null;
  const saved = pending ? pending === 'add' : Boolean(root?.wishlist.includes(productId));
  const label = saved ? 'Remove from wishlist' : 'Add to wishlist';
  // A card's heart is one of many on a page: its name says which product it is for.
  const cardLabel = saved ? `Remove ${productName} from wishlist` : `Add ${productName} to wishlist`;

  const icon = <Heart aria-hidden className={`size-5 transition-colors ${saved ? 'fill-red-600 text-red-600' : ''}`} />;
  const cls =
    variant === 'icon'
      ? 'flex size-10 items-center justify-center rounded-full bg-white/95 text-slate-800 shadow-sm ring-1 ring-slate-900/10 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-action'
      : 'flex h-12 w-full items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-6 text-base font-semibold text-slate-900 hover:border-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-action';

  if (!root?.user) {
    return (
      <Link
        to={wishlistLoginUrl(here, productId)}
        className={cls}
        aria-label={variant === 'icon' ? cardLabel : undefined}
        title={variant === 'icon' ? label : undefined}
        data-testid={variant === 'icon' ? 'card-wishlist-heart' : 'wishlist-heart'}
      >
        {icon}
        {variant === 'button' && <span>{label}</span>}
      </Link>
    );
  }

  return (
    <PostForm action={WISHLIST_ACTION} preventScrollReset data-testid="wishlist-heart-form">
      <input type="hidden" name="intent" value={saved ? 'remove' : 'add'} />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="redirectTo" value={here} />
      <button
        type="submit"
        className={cls}
        aria-pressed={saved}
        aria-label={variant === 'icon' ? cardLabel : undefined}
        title={variant === 'icon' ? label : undefined}
        data-testid={variant === 'icon' ? 'card-wishlist-heart' : 'wishlist-heart'}
      >
        {icon}
        {variant === 'button' && <span>{label}</span>}
      </button>
    </PostForm>
  );
}
