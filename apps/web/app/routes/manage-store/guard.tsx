import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  data,
  isRouteErrorResponse,
  Link,
  Outlet,
  redirect,
  type ShouldRevalidateFunctionArgs,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';
import { primaryAction } from '../../components/manage-store/dashboard-layout';
import { DashboardFrame as Frame, FullScreenFrame } from '../../components/manage-store/frame';
import frameCss from '../../components/manage-store/frame.css?url';
import { type DashboardLayoutHandle, isStaff } from '../../components/manage-store/frame-choice';
import type { StartApp } from '../../lib/paint-first';
import { loginUrlFor } from '../../lib/safe-redirect';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/guard';

/**
 * Almost every control of the dashboard needs React, and its users come to work: its pages start
 * the app as soon as they are painted, not at the first intent as shop pages do (paint-first.ts).
 * `dashboard` tells the root that this layout draws the frame for the store's staff
 * (decision 085): the root then draws none of the shop's around it.
 */
export const handle = { startApp: 'first-paint', dashboard: true } satisfies {
  startApp: StartApp;
} & DashboardLayoutHandle;

/** The frame's own stylesheet, for dashboard pages only. */
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: frameCss }];

/**
 * The dashboard needs a logged-in user (visitors go to login and come back), and only the store's
 * staff get past the role check. This decides what to show; the page functions check again on the
 * server (requireAccess), so a page is never one check away from another store's or a shopper's eyes.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await context.api.user();
  if (!user) {
    const url = new URL(request.url);
    throw redirect(loginUrlFor(`${url.pathname}${url.search}`));
  }
  // The owner and their staff (decision 016); each page's function checks the permission it needs.
  if (!isStaff(user)) {
    throw data({ message: 'Only the store owner and staff can manage the store.' }, { status: 403 });
  }
  // A support session (the platform's operator, with the owner's consent) says so on every page.
  // A store that is not active (suspended, closing) says so on every page too (decision 099).
  const [permissions, support, lifecycle] = await Promise.all([
    context.api.dashboardPermissions(),
    context.api.supportSession(),
    context.api.dashboardLifecycle(),
  ]);
  return { permissions, support, lifecycle };
}

/** Who is signed in changes only through a form (login, logout): not on every dashboard click. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? defaultShouldRevalidate : false;
}

/**
 * What a dashboard page may say about the frame around it, as its route `handle`. A full-screen
 * flow (the product's rules hides the store's frame there: layout-rules.ts) gets a bar with a way out instead
 * of the menu. A handle rather than the path rules: importing layout-rules here would split it out
 * of the root's chunk, one more file for every storefront page.
 */
export interface DashboardHandle {
  dashboardFrame?: 'full-screen';
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  const { permissions, support, lifecycle } = loaderData;
  const matches = useMatches();
  const fullScreen = matches.some((m) => (m.handle as DashboardHandle | undefined)?.dashboardFrame === 'full-screen');
  if (fullScreen) {
    return (
      <FullScreenFrame support={support} lifecycle={lifecycle}>
        <Outlet />
      </FullScreenFrame>
    );
  }
  return (
    <Frame permissions={permissions} support={support} lifecycle={lifecycle}>
      <Outlet />
    </Frame>
  );
}

/**
 * Refusals. A shopper's stays in the store's frame (header and footer: the root draws it for
 * anyone who is not staff), with a way back; the staff's is drawn in the dashboard's frame, with
 * the menu their permissions open (the guard's data is there when a page below it failed).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const guard = useRouteLoaderData<typeof loader>('routes/manage-store/guard');
  const refusal =
    status === 403 ? (
      <Forbidden />
    ) : (
      <Refusal
        title={status === 404 ? 'We could not find that page' : 'Something went wrong, please try again.'}
        text={status === 404 ? 'The link may be old, or the page may have moved.' : 'Please try again in a moment.'}
      >
        <Link to="/manage-store" className={primaryAction}>
          Go to the dashboard
        </Link>
      </Refusal>
    );
  if (!isStaff(root?.user)) return refusal;
  return <Frame permissions={guard?.permissions ?? []}>{refusal}</Frame>;
}

// The refusal is the store's page, seen by its shoppers: the store's buttons, not the dashboard's.
const storePrimary =
  'inline-flex h-11 items-center rounded-md bg-action px-6 text-sm font-semibold text-white hover:opacity-90';
const storeSecondary =
  'inline-flex h-11 items-center rounded-md border border-slate-300 bg-white px-6 text-sm font-semibold text-slate-800 hover:bg-slate-50';

function Forbidden() {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const user = root?.user;
  const storeName = root?.shell.store.storeName ?? 'this store';
  // Staff lacking this page's permission (decision 027): their own dashboard is one click away.
  if (user?.partyId === 'staff') {
    return (
      <Refusal
        title="You do not have access to this page"
        text={
          <>
            Your staff account at {storeName} does not have the permission this page needs. Ask the store owner if you
            need it.
          </>
        }
      >
        <Link to="/manage-store" className={primaryAction}>
          Go to the dashboard
        </Link>
      </Refusal>
    );
  }
  return (
    <Refusal
      title="You do not have access to this page"
      text={
        <>
          Managing {storeName} is for its owner and staff.
          {user && (
            <>
              {' '}
              You are signed in as <strong className="font-semibold text-neutral-900">{user.firstName}</strong>, with a
              customer account.
            </>
          )}{' '}
          If you run this store, log out and log in with the owner&rsquo;s account.
        </>
      }
    >
      <Link to="/" className={storePrimary}>
        Go to the home page
      </Link>
      {user && (
        <Link to="/account/profile" className={storeSecondary}>
          Go to your account
        </Link>
      )}
    </Refusal>
  );
}

function Refusal({ title, text, children }: { title: string; text: ReactNode; children: ReactNode }) {
  return (
    <div className="bg-neutral-50 px-4 py-16 md:py-24">
      <div className="mx-auto flex max-w-lg flex-col items-center text-center">
        <div aria-hidden className="mb-4 rounded-full bg-neutral-200/70 p-3 text-neutral-600">
          <ShieldAlert className="size-6" />
        </div>
        <h1 className="text-2xl font-bold tracking-tight text-neutral-900">{title}</h1>
        <p className="mt-3 text-neutral-600">{text}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">{children}</div>
      </div>
    </div>
  );
}
