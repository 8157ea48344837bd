import type { SessionUser, StoreDetails } from '@app/contracts';
import { Heart, ShoppingBag } from 'lucide-react';
import { Link } from 'react-router';
import { SearchBox } from './search-box';
import { UserMenu } from './user-menu';

interface Props {
  store: StoreDetails;
  user: SessionUser | null;
  cartSize: number;
  /** Products on the signed-in shopper's wishlist; 0 for a guest, and then no badge. */
  wishlistCount: number;
}

/** Header of both templates; ONE adds the Shopping Cart and My Wishlist labels. */
export function Header({ store, user, cartSize, wishlistCount }: Props) {
  const one = store.template === 'ONE';
  const name = store.logo.headerTitle || store.storeName;
  return (
    <header className="border-b border-slate-200 bg-white" data-template={store.template}>
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-3 md:gap-6 md:py-4">
        {/* The logo gives way on a narrow phone (a signed-in name, the wishlist and cart badges must fit
            in 375 px without the page scrolling sideways); it keeps its proportions. */}
        <Link to="/" className="flex min-w-0 items-center" aria-label={`${name} home`} data-testid="logo">
          {store.logo.url ? (
            <img
              src={store.logo.url}
              alt={name}
              width={176}
              height={38}
              className="h-8 w-auto max-w-full object-contain object-left md:h-10"
            />
          ) : (
            <span className="truncate text-xl font-bold text-brand">{name}</span>
          )}
        </Link>
        <div className="flex flex-1 justify-center">
          <SearchBox variant="desktop" />
        </div>
        <nav aria-label="Account" className="flex items-center gap-1 md:gap-2">
          <UserMenu user={user} template={store.template} />
          <Link
            to="/account/wishlist"
            className="flex flex-row-reverse items-center gap-2 rounded-md px-2 py-2 text-sm font-medium text-slate-800 hover:text-brand"
            aria-label={`${one ? 'My Wishlist' : 'Wishlist'}${wishlistCount > 0 ? `, ${wishlistCount} ${wishlistCount === 1 ? 'item' : 'items'}` : ''}`}
            data-testid="wishlist-link"
          >
            {/* The label comes first in the markup and is drawn after the icon (row-reverse): axe reads
                visible text in markup order, and the link's name must begin with it
                (label-content-name-mismatch: speech users say what they see). */}
            {one && <span className="hidden lg:inline">My Wishlist</span>}{' '}
            <span className="relative">
              <Heart aria-hidden className="size-6" />
              {wishlistCount > 0 && (
                <span
                  data-testid="wishlist-count"
                  className="absolute -top-1.5 -right-2 flex h-5 min-w-5 items-center justify-center rounded-full bg-action px-1 text-[11px] font-bold text-white"
                >
                  {wishlistCount}
                </span>
              )}
            </span>
          </Link>
          <Link
            to="/cart"
            className="relative flex flex-row-reverse items-center gap-2 rounded-md px-2 py-2 text-sm font-medium text-slate-800 hover:text-brand"
            aria-label={`${one ? 'Shopping Cart' : 'Cart'}, ${cartSize} ${cartSize === 1 ? 'item' : 'items'}`}
            data-testid="cart-link"
          >
            {/* The label comes first in the markup and is drawn after the icon (row-reverse): axe reads
                visible text in markup order, and the link's name must begin with it
                (label-content-name-mismatch: speech users say what they see). */}
            {one && <span className="hidden lg:inline">Shopping Cart</span>}{' '}
            <span className="relative">
              <ShoppingBag aria-hidden className="size-6" />
              <span
                data-testid="cart-count"
                className="absolute -top-1.5 -right-2 flex h-5 min-w-5 items-center justify-center rounded-full bg-action px-1 text-[11px] font-bold text-white"
              >
                {cartSize}
              </span>
            </span>
          </Link>
        </nav>
      </div>
      <div className="px-4 pb-3 md:hidden">
        <SearchBox variant="mobile" />
      </div>
    </header>
  );
}
