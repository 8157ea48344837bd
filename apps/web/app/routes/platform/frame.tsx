import type { ReactNode } from 'react';
import { data, isRouteErrorResponse, Link, Outlet, useMatches, useRouteError } from 'react-router';
import type { StartApp } from '../../lib/paint-first';
import type { Route } from './+types/frame';

/**
 * The platform host's pages (sign-up, operator console; decision 103) start their app once painted:
 * the sign-up checks the subdomain as it is typed, and nobody comes here to browse.
 */
export const handle = { startApp: 'first-paint' } satisfies { startApp: StartApp };

/**
 * The platform's frame. Only the platform host has `context.platform`: on a store's host these
 * pages do not exist (404), as a store's pages do not exist on the platform host.
 */
export async function loader({ context }: Route.LoaderArgs) {
  if (!context.platform) throw data({ message: 'Page not found' }, { status: 404 });
  const { platformName } = await context.platform.signupPage();
  return { platformName, csrfToken: context.csrfToken };
}

/** The CSRF token comes from here (PostForm): reload it after a form post, as the store's frame does. */
export function shouldRevalidate({ formMethod }: { formMethod?: string }) {
  return Boolean(formMethod);
}

/** A layout below that draws the whole page's chrome itself (the operator console, signed in). */
export interface PlatformHandle {
  platformFrame?: 'own';
}

export default function PlatformFrame({ loaderData }: Route.ComponentProps) {
  const own = useMatches().some((m) => (m.handle as PlatformHandle | undefined)?.platformFrame === 'own');
  return (
    <PlatformChrome platformName={loaderData.platformName} bare={own}>
      <Outlet />
    </PlatformChrome>
  );
}

/**
 * Header, page, footer: the public pages' frame (sign-up, the console's sign-in). `bare`: only the
 * skip link and the page area, for the signed-in console, whose own bar and menu are its frame, as
 * Shopify's admin is not drawn inside its marketing site's header and footer.
 */
export function PlatformChrome({
  platformName,
  children,
  bare = false,
}: {
  platformName: string;
  children: ReactNode;
  bare?: boolean;
}) {
  if (bare) {
    return (
      <>
        <SkipLink />
        <main id="main" className="flex-1 bg-[#f1f1f1]">
          {children}
        </main>
      </>
    );
  }
  return (
    <>
      <SkipLink />
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
          <Link to="/signup" className="text-lg font-bold text-slate-900">
            {platformName}
          </Link>
          <nav aria-label="Platform">
            <ul className="flex gap-4 text-sm">
              <li>
                <Link to="/signup" className="font-medium text-slate-700 hover:underline">
                  Open a store
                </Link>
              </li>
              <li>
                <Link to="/operator" className="font-medium text-slate-700 hover:underline">
                  Operators
                </Link>
              </li>
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" className="flex-1 bg-slate-50">
        {children}
      </main>
      <footer className="border-t border-slate-200 bg-white">
        <p className="mx-auto max-w-5xl px-4 py-4 text-sm text-slate-600">
          {platformName}: one deployment, many stores.
        </p>
      </footer>
    </>
  );
}

/** A 404 of the platform host, or any platform page's failure, inside the platform's frame. */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <div className="mx-auto max-w-md px-4 py-24 text-center">
      <p className="text-sm font-semibold tracking-wide text-slate-600 uppercase">Error {status}</p>
      <h1 className="mt-3 text-3xl font-bold text-slate-900">
        {status === 404 ? 'We could not find that page' : 'Something went wrong, please try again.'}
      </h1>
    </div>
  );
}

function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-[200] focus:rounded focus:bg-white focus:px-4 focus:py-2"
    >
      Skip to content
    </a>
  );
}
