import './lib/context';
import type { ShellData } from '@app/contracts';
import { LOGOUT_MESSAGE, TENANT_NOT_SETUP_MESSAGE } from '@app/contracts/client';
import { type ReactNode, useEffect } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import stylesheet from './app.css?url';
import { CategoryBar } from './components/layout/category-bar';
import { ChatWidget } from './components/layout/chat-widget';
import { CopyrightStrip, Footer } from './components/layout/footer';
import { Header } from './components/layout/header';
import { LoadingBar } from './components/layout/loading-bar';
import { PreviewBar } from './components/layout/preview-bar';
import { TopStrip } from './components/layout/top-strip';
import { useDashboardFrame } from './components/manage-store/frame-choice';
import { ToastProvider, useToast, useToastOnArrival } from './components/ui/toast';
import { loadFrameData } from './lib/frame-data';
import { replayHeldClicks } from './lib/held-click';
import { frameParts } from './lib/layout-rules';
import { useNonce } from './lib/nonce';
import { seoFor } from './lib/seo';
import { persistStoreValues, takeLogoutFlash } from './lib/stored-values';
import { themeCss } from './lib/theme';

/**
 * The root renders every error page, so a refusal's own headers (a 429's Retry-After) are sent from
 * here; a page that renders normally sets none of its own.
 */
export function headers({ errorHeaders }: Route.HeadersArgs) {
  return errorHeaders ?? new Headers();
}

/**
 * A store's frame, or null on the platform's own host: there is no store there, and the platform's
 * pages draw their own frame (routes/platform/frame.tsx, decision 103).
 */
export function loader({ context }: Route.LoaderArgs) {
  if (context.platform) return null;
  return loadFrameData(context);
}

/**
 * The frame's data changes only after an action (login, cart change), not on every navigation.
 * After any action, even a refused one: the session, and so the forms' CSRF token, may have changed.
 */
export function shouldRevalidate({ formMethod }: ShouldRevalidateFunctionArgs) {
  return Boolean(formMethod);
}

export function meta({ data: d, location }: Route.MetaArgs) {
  // The platform's pages name themselves (routes/platform/*).
  if (d === null) return [{ title: 'Storefront Platform' }];
  if (!d) return [{ title: TENANT_NOT_SETUP_MESSAGE }, { name: 'robots', content: 'noindex' }];
  const { shell } = d;
  const seo = seoFor(shell.seo, location.pathname, shell.store.storeName);
  const url = `https://${shell.tenant.hostName}${location.pathname}`;
  return [
    { title: seo.title },
    { name: 'keywords', content: seo.keywords },
    { name: 'description', content: seo.description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: shell.store.storeName },
    { property: 'og:title', content: seo.title },
    { property: 'og:description', content: seo.description },
    { property: 'og:url', content: url },
    ...(shell.store.logo.url ? [{ property: 'og:image', content: shell.store.logo.url }] : []),
    // A shopper's own pages are nobody's search result.
    ...(PRIVATE_PATHS.test(location.pathname) ? [{ name: 'robots', content: 'noindex' }] : []),
  ];
}

const PRIVATE_PATHS = /^\/(cart|checkout|order|account|manage-store)(\/|$)/;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Hydrated (the store's pages and the error page alike): a button clicked while the app was
  // still loading gets its click now, and clicks are no longer held.
  useEffect(replayHeldClicks, []);
  const root = useRouteLoaderData<typeof loader>('root');
  // The dashboard keeps neutral colours whatever the store's theme (decision 085).
  const store = useDashboardFrame(root?.user) ? undefined : root?.shell.store;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {store && <meta name="theme-color" content={`rgb(${store.themeColors.primary})`} />}
        <link rel="icon" href={root?.shell.store.logo.url ?? '/favicon.svg'} />
        {/* A React 19 stylesheet resource (precedence): hoisted ahead of the scripts' modulepreloads,
            so the one render-blocking request is not queued behind them. */}
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <Meta />
        <Links />
        {/* After the stylesheet, so the store's colours win over the built-in defaults. */}
        {store && <style data-theme={store.theme}>{themeCss(store.themeColors)}</style>}
      </head>
      <body className="flex min-h-screen flex-col">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  if (!loaderData) {
    return (
      <ToastProvider>
        <Outlet />
      </ToastProvider>
    );
  }
  const { shell, user, cartSize, wishlist, previewing } = loaderData;
  return (
    <ToastProvider>
      <Frame shell={shell} user={user} cartSize={cartSize} wishlistCount={wishlist.length} previewing={previewing}>
        <Outlet />
      </Frame>
    </ToastProvider>
  );
}

function Frame({
  shell,
  user,
  cartSize,
  wishlistCount,
  previewing,
  children,
}: {
  shell: ShellData;
  previewing: boolean;
  user: NonNullable<Route.ComponentProps['loaderData']>['user'];
  cartSize: number;
  wishlistCount: number;
  children: ReactNode;
}) {
  const location = useLocation();
  const parts = frameParts(location.pathname);
  const { store, main, pages } = shell;
  const dashboard = useDashboardFrame(user);

  useEffect(() => persistStoreValues(shell, user), [shell, user]);
  const toast = useToast();
  useEffect(() => {
    if (!user && takeLogoutFlash()) toast('success', LOGOUT_MESSAGE);
  }, [user, toast]);

  // The dashboard draws its own frame (routes/manage-store/guard.tsx): none of the shop's around it.
  if (dashboard) {
    return (
      <>
        <LoadingBar />
        {children}
      </>
    );
  }
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-[200] focus:rounded focus:bg-white focus:px-4 focus:py-2"
      >
        Skip to content
      </a>
      <LoadingBar />
      {previewing && !location.pathname.startsWith('/manage-store') && <PreviewBar />}
      {parts.topStrip && <TopStrip promotionTitle={store.promotionTitle} pages={pages} />}
      {parts.header && <Header store={store} user={user} cartSize={cartSize} wishlistCount={wishlistCount} />}
      {parts.categoryBar && <CategoryBar catalogs={main.catalogCol} pages={pages} />}
      <main id="main" className="flex-1">
        {children}
      </main>
      {parts.footer && <Footer store={store} catalogs={main.catalogCol} pages={pages} />}
      {parts.copyright && (
        <CopyrightStrip companyName={store.companyName || store.storeName} platformName={shell.platformName} />
      )}
      <ChatWidget widgetId={store.chat.dataWidgetId} baseUrl={shell.chatWidgetUrl} />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const tenantMissing = isRouteErrorResponse(error) && (error.data as { tenantMissing?: boolean })?.tenantMissing;
  return (
    <ToastProvider>
      <ErrorPage tenantMissing={Boolean(tenantMissing)} status={isRouteErrorResponse(error) ? error.status : 500} />
    </ToastProvider>
  );
}

function ErrorPage({ tenantMissing, status }: { tenantMissing: boolean; status: number }) {
  useToastOnArrival('error', tenantMissing ? TENANT_NOT_SETUP_MESSAGE : null);
  return (
    <main id="main" className="flex flex-1 items-center justify-center bg-slate-50 px-4 py-24">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
          {tenantMissing ? 'Store unavailable' : `Error ${status}`}
        </p>
        <h1 className="mt-3 text-3xl font-bold text-slate-900">
          {tenantMissing
            ? TENANT_NOT_SETUP_MESSAGE
            : status === 404
              ? 'We could not find that page'
              : status === 429
                ? 'Too many attempts'
                : status === 503
                  ? 'The store is briefly unavailable.'
                  : 'Something went wrong, please try again.'}
        </h1>
        <p className="mt-4 text-slate-600">
          {tenantMissing
            ? 'No store is set up for this address. Check the address, or ask the store owner to finish setting up their domain.'
            : status === 404
              ? 'The link may be old, or the page may have moved.'
              : status === 429
                ? 'This page was asked for too often with a wrong link. Please wait a few minutes and try again.'
                : status === 503
                  ? 'Please try again in a few seconds.'
                  : 'We could not show this page. Please try again in a moment.'}
        </p>
      </div>
    </main>
  );
}
