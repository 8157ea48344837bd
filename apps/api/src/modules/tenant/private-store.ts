import {
  ACCOUNT_DECLINED_MESSAGE,
  ACCOUNT_PENDING_MESSAGE,
  type AccessMode,
  modeNeedsApproval,
  type PageApi,
  STORE_PRIVATE_MESSAGE,
} from '@app/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { TenantService } from './tenant.service';

const BASE = '/skulocity/api/v1';

/**
 * What a visitor (nobody signed in) may still call on a private store (decision 027): everything
 * it takes to log in, register, confirm, reset a password or accept a staff invitation, the store's
 * name and colours for the login page, and the links mail carries. The list names what is open, so
 * a route added later is closed on a private store until someone opens it here.
 */
export const OPEN_API_ROUTES: ReadonlySet<string> = new Set([
  `${BASE}/login`,
  `${BASE}/logout`,
  `${BASE}/public/ecommerce/profile/newUser`,
  `${BASE}/public/ecommerce/confirmemail`,
  `${BASE}/public/ecommerce/confirmemail/resend`,
  `${BASE}/public/ecommerce/csrftoken`,
  `${BASE}/public/ecommerce/forgotpassword`,
  `${BASE}/public/ecommerce/resetpassword`,
  // The registration form's country list.
  `${BASE}/public/ecommerce/countries`,
  '/api/fetch/tenant',
  '/api/v1/store/detail/fetch',
  '/api/v1/store/default/theme_colors/fetch',
  '/api/v1/newsletter/confirm',
  '/api/v1/newsletter/unsubscribe',
  '/api/v1/staff/invitation',
  '/api/v1/staff/invitation/accept',
  // An invited customer's set-password link (decision 105), and an account asking where it stands.
  '/api/v1/store-access/invitation',
  '/api/v1/store-access/invitation/accept',
  '/api/v1/store-access/standing',
  // The store's logo on the login page; product pictures are not found without the catalog.
  '/media/*',
  // Crawlers read "Disallow: /" for a private store (the sitemap module answers it) instead of a 401.
  '/robots.txt',
  // A marketplace fetching a private store's product feed gets the feed's own 404 (decision 054).
  '/feeds/google-merchant/:file',
  '/dev/mailbox',
  '/dev/mailbox/:name',
  // The one-time link that signs a new store's owner in after sign-up (decision 103).
  '/api/signup/sign-in',
  // The operator's one-time support link (decision 107): its ticket, not a session, lets it in.
  '/api/tenant/support-access/enter',
]);

/** Pages a visitor of a private store may open; any other page sends them to the login page. */
const OPEN_PAGES = [
  '/auth',
  '/auth/login',
  '/auth/register',
  '/auth/forgot-password',
  '/auth/reset-password',
  '/auth/confirm-email',
  '/auth/logout',
  '/auth/staff-invitation',
  '/auth/customer-invitation',
  '/auth/awaiting-approval',
  '/newsletter/confirm',
  '/newsletter/unsubscribe',
];

/** Responses of a private store are for its members only: no shared cache may keep one. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** Whether the actor counts as a member: any signed-in account of this store (decision 027). */
export function isMember(ctx: RequestContext): boolean {
  return ctx.actor.kind === 'shopper' || ctx.actor.kind === 'staff' || ctx.actor.kind === 'system';
}

/**
 * Where the actor stands with a store of this access mode (decision 105): a member sees it; a
 * visitor (nobody signed in) sees login and registration; an account the owner has not approved,
 * in a mode that asks for approval, sees only where it stands.
 */
export type Standing = 'member' | 'visitor' | 'pending' | 'declined';

export function standingOf(ctx: RequestContext, mode: AccessMode): Standing {
  if (mode === 'public') return 'member';
  if (!isMember(ctx)) return 'visitor';
  const a = ctx.actor;
  if (a.kind === 'shopper' && modeNeedsApproval(mode) && a.access && a.access !== 'approved') return a.access;
  return 'member';
}

export function privateStoreRefusal(standing: Standing = 'visitor'): AppError {
  if (standing === 'pending') return new AppError(403, 'ACCOUNT_PENDING_APPROVAL', ACCOUNT_PENDING_MESSAGE);
  if (standing === 'declined') return new AppError(403, 'ACCOUNT_DECLINED', ACCOUNT_DECLINED_MESSAGE);
  return new AppError(401, 'STORE_PRIVATE', STORE_PRIVATE_MESSAGE);
}

/** The page an account waiting for (or refused) approval is shown instead of the store. */
export const AWAITING_APPROVAL_PATH = '/auth/awaiting-approval';

/**
 * For the page server: where a visitor of a private store is sent instead of `path` (the login page,
 * coming back afterwards; an account not approved, the page saying where it stands), or null when
 * the page is open to them.
 */
export function privatePageRedirect(path: string, search: string, standing: Standing = 'visitor'): string | null {
  const normal = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (OPEN_PAGES.includes(normal)) return null;
  if (standing === 'pending' || standing === 'declined') return AWAITING_APPROVAL_PATH;
  const back = normal === '/' ? '' : `?redirectUrl=${encodeURIComponent(`${normal}${search}`)}`;
  return `/auth/login${back}`;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request's store is private: its answer must not be kept by a shared cache. */
    privateStore?: boolean;
  }
}

/**
 * Closes a private store's API to visitors (401 STORE_PRIVATE, before any handler or read cache
 * runs) and to accounts the owner has not approved (403 ACCOUNT_PENDING_APPROVAL / ACCOUNT_DECLINED,
 * decision 105), and marks every answer of a private store `private, no-store`, so a CDN keeps none of a
 * member's answers for a visitor. Registered after the request context, which it reads.
 */
async function privateStorePlugin(app: FastifyInstance, opts: { tenants: TenantService }) {
  app.addHook('onRequest', async (req) => {
    if (!req.ctx) return;
    const mode = await opts.tenants.accessMode(req.ctx.tenantId);
    if (mode === 'public') return;
    req.privateStore = true;
    const standing = standingOf(req.ctx, mode);
    if (standing === 'member') return;
    const url = req.routeOptions.url ?? '';
    // Owner routes answer a visitor 401 (a shopper 403) on their own; the rest is closed unless listed as open.
    if (req.routeOptions.config?.permission || OPEN_API_ROUTES.has(url)) return;
    throw privateStoreRefusal(standing);
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.privateStore) reply.header('cache-control', PRIVATE_CACHE_CONTROL);
    return payload;
  });
}

export const privateStore = fp(privateStorePlugin, { name: 'private-store', dependencies: ['request-context'] });

/** A page path as the visibility rule sees it: React Router's data requests (`/x.data`) are `/x`. */
function pagePath(path: string) {
  if (path === '/_root.data') return '/';
  return path.endsWith('.data') ? path.slice(0, -'.data'.length) : path;
}

/**
 * What the page server does for a visitor of a private store (decision 027):
 * - a closed page requested as a document: `redirect` is where to send the browser (the login page);
 * - a closed page's data request (client navigation): every page function throws that redirect,
 *   which React Router's loaders and actions pass on as a redirect;
 * - an open page (login, registration...): the page functions as they are, except that the store's
 *   frame carries no catalog, pages or banners.
 */
export function visitorPages(
  api: PageApi,
  path: string,
  search: string,
  standing: Standing = 'visitor',
): { redirect: string | null; api: PageApi } {
  const target = privatePageRedirect(pagePath(path), search, standing);
  const isData = path.endsWith('.data');
  if (target && !isData) return { redirect: target, api };
  if (target) {
    const refuse = async () => {
      throw new Response(null, { status: 302, headers: { Location: target } });
    };
    return { redirect: null, api: new Proxy(api, { get: () => refuse }) };
  }
  return {
    redirect: null,
    api: {
      ...api,
      async shell() {
        const shell = await api.shell();
        if (!shell) return shell;
        return { ...shell, main: { ...shell.main, catalogCol: [] }, pages: [], seo: [] };
      },
      banners: async () => [],
      cmsPage: async () => null,
    },
  };
}
