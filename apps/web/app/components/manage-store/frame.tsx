import type { DashboardLifecycle, SupportSessionInfo } from '@app/contracts';
import { ExternalLink, LogOut, Store, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import type { loadFrameData } from '../../lib/frame-data';
import { markLogout } from '../../lib/stored-values';
import { PostForm } from '../ui/post-form';
import { DashboardNav } from './dashboard-nav';
import { LifecycleBanner } from './lifecycle-banner';
import { SupportBanner } from './support-banner';

/**
 * The dashboard's own frame, in place of the shop's (decision 085): no promo strip, shop header,
 * category bar or shop footer, and none of the store's theme colours (frame.css). Skip link, the
 * menu, the page, then the top bar (store name, view the store, who is signed in, sign out) and a
 * thin footer with the copyright; frame.css lays the top bar out on top. Shopify's admin is the model.
 */
export function DashboardFrame({
  permissions,
  support,
  lifecycle,
  children,
}: {
  permissions: readonly string[];
  /** Set in a support session: its banner tops every page. */
  support?: SupportSessionInfo | null;
  /** The store's lifecycle state: a banner on every page unless it is active (decision 099). */
  lifecycle?: DashboardLifecycle | null;
  children: ReactNode;
}) {
  const root = useRouteLoaderData<typeof loadFrameData>('root');
  const store = root?.shell.store;
  const user = root?.user;
  return (
    <div className="dash-frame">
      <a href="#main" className="dash-skip">
        Skip to content
      </a>
      <div className="dash-side">
        <DashboardNav permissions={permissions} />
      </div>
      <main id="main" tabIndex={-1} className="dash-main outline-none">
        <SupportBanner support={support} />
        <LifecycleBanner lifecycle={lifecycle} />
        <div className="px-4 py-4 md:px-8 md:py-6">{children}</div>
      </main>
      <header className="dash-top flex h-14 items-center gap-3 bg-[#1a1a1a] px-3 text-white md:px-4">
        <p className="flex min-w-0 flex-1 items-center gap-2 text-sm font-semibold">
          <span aria-hidden className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-[#171717]">
            <Store className="size-4" />
          </span>
          <span className="truncate">{store?.storeName}</span>
        </p>
        <Link to="/" className={topAction}>
          <ExternalLink aria-hidden className="size-4" />
          <span className="sr-only sm:not-sr-only">View store</span>
        </Link>
        {user && (
          <div className="flex items-center gap-2">
            <p className="hidden text-sm text-[#e3e3e3] sm:block">
              {user.firstName}
              <span className="text-[#b5b5b5]"> · {user.partyId === 'admin' ? 'Owner' : 'Staff'}</span>
            </p>
            <PostForm action="/auth/logout" onSubmit={markLogout}>
              <button type="submit" className={topAction}>
                <LogOut aria-hidden className="size-4" />
                <span className="sr-only sm:not-sr-only">Sign out</span>
              </button>
            </PostForm>
          </div>
        )}
      </header>
      <footer className="dash-foot flex flex-col gap-1 px-4 py-4 text-xs text-[#525252] sm:flex-row sm:justify-between md:px-8">
        <p>
          All Rights Reserved 2023 ·{' '}
          <span className="font-medium text-[#171717]">{store?.companyName || store?.storeName}</span>
        </p>
        <p>
          Powered by <span className="font-medium text-[#171717]">{root?.shell.platformName}</span>
        </p>
      </footer>
    </div>
  );
}

const topAction =
  'inline-flex h-9 min-w-9 items-center justify-center gap-1.5 rounded-lg px-2 text-sm font-medium text-white hover:bg-[#171717] sm:px-3';

/**
 * A full-screen flow (the marketplace connection): the store's frame and the menu are hidden, a
 * bar with a way out instead. Still the dashboard's neutral colours.
 */
export function FullScreenFrame({
  support,
  lifecycle,
  children,
}: {
  support?: SupportSessionInfo | null;
  lifecycle?: DashboardLifecycle | null;
  children: ReactNode;
}) {
  const root = useRouteLoaderData<typeof loadFrameData>('root');
  return (
    <div className="dash-frame dash-full">
      <header className="flex h-14 items-center gap-3 border-b border-[#e3e3e3] bg-white px-4">
        <Link
          to="/manage-store"
          className="inline-flex size-9 items-center justify-center rounded-lg text-[#4a4a4a] hover:bg-[#f1f1f1] hover:text-[#171717]"
        >
          <X aria-hidden className="size-5" />
          <span className="sr-only">Exit to dashboard home</span>
        </Link>
        <p className="truncate text-sm font-semibold text-[#171717]">{root?.shell.store.storeName}</p>
      </header>
      <main id="main" className="flex-1">
        <SupportBanner support={support} />
        <LifecycleBanner lifecycle={lifecycle} />
        <div className="px-4 py-6 md:py-10">{children}</div>
      </main>
    </div>
  );
}
