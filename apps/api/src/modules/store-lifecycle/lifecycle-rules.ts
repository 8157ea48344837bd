import {
  type DashboardLifecycle,
  STORE_CLOSED_MESSAGE,
  STORE_NOT_OPEN_MESSAGE,
  STORE_READ_ONLY_MESSAGE,
  STORE_STATE_CODES,
  STORE_SUSPENDED_MESSAGE,
  type StoreLifecycle,
  type StoreState,
} from '@app/contracts';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';

/**
 * What each state means for a request (decision 099), as pure functions of the state, who acts and
 * what is asked: the API's gate, the pages' gate and the dashboard's banner all read these.
 */

const BASE = '/skulocity/api/v1';

/**
 * API routes a store that is not open (provisioning, suspended, closing) still answers to anyone:
 * what signing in takes (the owner signs in to read the dashboard or to export), and the login
 * page's name, colours and logo. A closed store answers none of them.
 */
export const SIGN_IN_API_ROUTES: ReadonlySet<string> = new Set([
  `${BASE}/login`,
  `${BASE}/logout`,
  `${BASE}/public/ecommerce/csrftoken`,
  `${BASE}/public/ecommerce/forgotpassword`,
  `${BASE}/public/ecommerce/resetpassword`,
  '/api/fetch/tenant',
  '/api/v1/store/detail/fetch',
  '/api/v1/store/default/theme_colors/fetch',
  '/media/*',
  '/dev/mailbox',
  '/dev/mailbox/:name',
]);

/** Writes a read-only dashboard still allows: signing in and out. */
const SESSION_WRITES: ReadonlySet<string> = new Set([`${BASE}/login`, `${BASE}/logout`]);

/**
 * The one change the owner may still start while the dashboard only reads: the whole-store export,
 * which the closing store's banner offers (decision 122). It changes nothing of the store's data.
 * The API route, and the dashboard page whose only form starts it.
 */
const EXPORT_API_ROUTES: ReadonlySet<string> = new Set(['/api/v1/store/archive/exports']);
const EXPORT_PAGES: ReadonlySet<string> = new Set(['/manage-store/settings/export']);

/** Pages a store that is not open still shows to anyone: signing in, out, and a forgotten password. */
const SIGN_IN_PAGES = ['/auth', '/auth/login', '/auth/logout', '/auth/forgot-password', '/auth/reset-password'];

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The state a context's store is in; a context built outside a request (a job, a test) is active. */
export function stateOf(ctx: { state?: StoreState }): StoreState {
  return ctx.state ?? 'active';
}

export function isStaffActor(ctx: RequestContext): boolean {
  return ctx.actor.kind === 'staff';
}

/** Whether the dashboard only reads in this state: every change by the owner or staff is refused. */
export function isReadOnly(state: StoreState): boolean {
  return state === 'suspended' || state === 'closing';
}

/** The refusal of an owner's or staff member's change while the dashboard is read-only (409 STORE_READ_ONLY). */
export function readOnlyRefusal(state: StoreState): AppError | null {
  if (state === 'suspended' || state === 'closing') {
    return new AppError(409, STORE_STATE_CODES.readOnly, STORE_READ_ONLY_MESSAGE[state]);
  }
  return null;
}

function closedRefusal(state: StoreState): AppError {
  return new AppError(
    410,
    STORE_STATE_CODES.closed,
    state === 'closed' ? `${STORE_CLOSED_MESSAGE} It can no longer be signed in to.` : STORE_CLOSED_MESSAGE,
  );
}

/**
 * The API's answer for a request to a store that is not active, or null to let it through:
 * - provisioning: the owner and staff work; anyone else gets 503 STORE_NOT_OPEN (sign-in open);
 * - suspended: staff read (a change is 409 STORE_READ_ONLY); anyone else 503 STORE_SUSPENDED;
 * - closing: the same for staff (they export); anyone else 410 STORE_CLOSED (checkout is off);
 * - closed: 410 STORE_CLOSED for everyone, signing in included.
 */
export function apiRefusal(ctx: RequestContext, method: string, routeUrl: string): AppError | null {
  const state = stateOf(ctx);
  if (state === 'active') return null;
  if (state === 'closed' || state === 'purged') return closedRefusal(state);
  if (isStaffActor(ctx)) {
    if (READS.has(method) || SESSION_WRITES.has(routeUrl) || EXPORT_API_ROUTES.has(routeUrl)) return null;
    return readOnlyRefusal(state);
  }
  if (SIGN_IN_API_ROUTES.has(routeUrl)) return null;
  if (state === 'provisioning') return new AppError(503, STORE_STATE_CODES.notOpen, STORE_NOT_OPEN_MESSAGE);
  if (state === 'suspended') return new AppError(503, STORE_STATE_CODES.suspended, STORE_SUSPENDED_MESSAGE);
  return closedRefusal(state);
}

/** Which page a store that is not open answers instead of the one asked for. */
export type LifecyclePageKind = 'unavailable' | 'closed' | 'not-open';

/** A page path as the rules see it: React Router's data requests (`/x.data`) are `/x`. */
function normalPath(path: string): string {
  if (path === '/_root.data') return '/';
  const p = path.endsWith('.data') ? path.slice(0, -'.data'.length) : path;
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

const isDashboard = (path: string) => path === '/manage-store' || path.startsWith('/manage-store/');

/**
 * The page a request gets instead of the one it asked for, or null to render it: signing in stays
 * open while the owner may still sign in; the dashboard is the staff's while the store is
 * provisioning, suspended or closing; a closed store shows its closed page and nothing else.
 */
export function lifecyclePageKind(ctx: RequestContext, rawPath: string): LifecyclePageKind | null {
  const state = stateOf(ctx);
  if (state === 'active') return null;
  if (state === 'closed' || state === 'purged') return 'closed';
  const path = normalPath(rawPath);
  if (SIGN_IN_PAGES.includes(path)) return null;
  const staff = isStaffActor(ctx);
  if (staff && (isDashboard(path) || state === 'provisioning')) return null;
  if (state === 'provisioning') return 'not-open';
  return state === 'suspended' ? 'unavailable' : 'closed';
}

/** The refusal of a dashboard form post while the dashboard is read-only, or null. */
export function dashboardFormRefusal(ctx: RequestContext, rawPath: string): AppError | null {
  const path = normalPath(rawPath);
  if (!isStaffActor(ctx) || !isDashboard(path) || EXPORT_PAGES.has(path)) return null;
  return readOnlyRefusal(stateOf(ctx));
}

function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** What the dashboard's frame shows of the store's state: a banner unless it is active. */
export function dashboardLifecycle(l: StoreLifecycle): DashboardLifecycle {
  const readOnly = isReadOnly(l.state);
  let banner: string | null = null;
  if (l.state === 'suspended') banner = STORE_READ_ONLY_MESSAGE.suspended;
  else if (l.state === 'closing') {
    banner = l.closesAt
      ? `Your store is closing: shoppers can no longer visit it and the dashboard is read-only. You can sign in and export your orders, customers and products until ${longDate(l.closesAt)}, when the store closes.`
      : STORE_READ_ONLY_MESSAGE.closing;
  } else if (l.state === 'provisioning') banner = 'Your store is being set up: shoppers cannot visit it yet.';
  return { state: l.state, readOnly, closesAt: l.closesAt, banner };
}
