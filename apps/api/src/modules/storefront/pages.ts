import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { PageApi, PlatformPageApi } from '@app/contracts';
import { isDatabaseUnavailable } from '@app/db';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { App } from '../../lib/app-types';
import { AppError, DATABASE_RETRY_AFTER_S, DATABASE_UNAVAILABLE_MESSAGE } from '../../lib/errors';
import type { PageModule, PageRequest, PlatformPageModule, PlatformPageRequest } from '../../lib/page-request';
import type { PublicReadCache } from '../../lib/public-cache';
import { isStoreSwitching } from '../../lib/store-databases';
import {
  pageInputHasControlCharacter,
  readPageBodies,
  refuseOtherPageMethods,
  sendBadRequestPage,
} from '../../plugins/page-guards';
import { type RequestContextOptions, resolveRequestContext } from '../../plugins/request-context';
import { resolveRequestTenant, type StoreStateLookup } from '../../plugins/tenancy';
import {
  assertSameOrigin,
  CSRF_FIELD,
  CSRF_HEADER,
  type Csrf,
  csrfBinding,
  csrfRefused,
  newCsrfCookie,
} from '../auth/index';
import type { StoreService } from '../store/index';
import { dashboardFormRefusal, type LifecyclePages } from '../store-lifecycle/index';
import { normaliseHost, PRIVATE_CACHE_CONTROL, standingOf, type TenantService, visitorPages } from '../tenant/index';
import { chatOriginForPage } from './chat-csp';

/** Paths that belong to the API: never rendered as pages, so a miss there is a JSON 404/405. */
const API_PREFIXES = ['/api/', '/skulocity/', '/media/', '/assets/seo-meta.config.json'];

export interface PagesOptions {
  /** apps/web/build: server/index.js and client/. */
  buildDir: string;
  /** Every domain's page functions; together they are the `api` loaders call (PageApi). */
  modules: PageModule<object>[];
  resolveActor: RequestContextOptions['resolveActor'];
  csrf: Csrf;
  cache: PublicReadCache;
  /** The store settings, for the chat widget id that decides a page's CSP. */
  store: StoreService;
  /** The stores: which one a host is, and whether it is open to visitors. */
  tenants: TenantService;
  chatWidgetUrl: string;
  /**
   * Origins a form post may be redirected to besides https ones: the PayPal approval page of a
   * local stand-in (http), which checkout's PayPal form post answers 303 to without JavaScript.
   */
  formActionOrigins?: string[];
  /** The store's lifecycle state (decision 099); without it every store is active. */
  stateOf?: StoreStateLookup;
  /** The page a store that is not open answers instead (suspended, closing, closed, provisioning). */
  lifecyclePage?: LifecyclePages;
  /** The platform's own page functions (sign-up, operator console), served on `platformHost` only. */
  platformModules?: PlatformPageModule<object>[];
  /** The platform's own host (normalised): no store there, only the platform's pages (decision 103). */
  platformHost?: string;
}

/** Where the platform host's bare address leads: its landing page, which is the sign-up. */
export const PLATFORM_HOME_PATH = '/signup';

/** The CSRF binding of the platform host's forms: no store's, so a store's token is never valid there. */
const PLATFORM_CSRF_KEY = 'platform';

/**
 * The store pages' functions on the platform host: there is no store, so a store page's loader
 * gets the 404 page, never a store's data.
 */
const platformHostStoreApi = new Proxy({} as PageApi, {
  get(_target, name) {
    if (name === 'previewing') return () => false;
    return async () => {
      throw new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    };
  },
});

/**
 * An unknown host's page: the root loader reads a null shell and shows 'Tenant is not setup.'
 *; any other call is a 404, so no page module ever runs without a store.
 */
const unknownStoreApi = new Proxy({} as PageApi, {
  get(_target, name) {
    if (name === 'shell') return async () => null;
    return async () => {
      throw new AppError(404, 'TENANT_NOT_FOUND', 'No store is set up for this address.');
    };
  },
});

/** PageApi's functions that answer at once rather than with a promise. */
type SyncPageFunction = {
  [K in keyof PageApi]: PageApi[K] extends (...args: never[]) => Promise<unknown> ? never : K;
}[keyof PageApi];
const SYNC_PAGE_FUNCTIONS: Record<SyncPageFunction, true> = { previewing: true };

/**
 * The page functions as loaders get them. One that throws before its first `await` (an access
 * check) answers a rejected promise instead: a loader's `Promise.all([api.a(), api.b()])` then
 * always watches a(), where before, b() throwing before Promise.all ran left a()'s later rejection
 * without a handler, and that ended the process (a visitor opening
 * /manage-store/settings/banners). And a database that cannot be reached becomes a thrown 503
 * response, which React Router renders as the error page with that status ("briefly
 * unavailable"), as the API answers 503 (plugins/errors.ts). Done here, once, so no loader and no
 * page module has to remember either.
 */
export function pageApiForLoaders<T extends object = PageApi>(api: T, onUnavailable: (err: unknown) => void): T {
  const unavailable = (err: unknown): never => {
    if (!isDatabaseUnavailable(err) && !isStoreSwitching(err)) throw err;
    onUnavailable(err);
    throw new Response(DATABASE_UNAVAILABLE_MESSAGE, {
      status: 503,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': String(DATABASE_RETRY_AFTER_S) },
    });
  };
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(api)) {
    out[name] =
      typeof value === 'function' && !(name in SYNC_PAGE_FUNCTIONS)
        ? (...args: unknown[]) => {
            try {
              return Promise.resolve(value.apply(api, args)).catch(unavailable);
            } catch (err) {
              return Promise.reject(err).catch(unavailable);
            }
          }
        : value;
  }
  return out as unknown as T;
}

/** A page the server answers by itself when the database cannot be reached before rendering. */
function sendUnavailablePage(req: FastifyRequest, reply: FastifyReply) {
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Briefly unavailable</title>
<style>body{margin:0;font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a}main{max-width:28rem;margin:0 auto;padding:6rem 1rem;text-align:center}p.k{font-size:.875rem;font-weight:600;letter-spacing:.05em;text-transform:uppercase;color:#64748b}h1{font-size:1.875rem;margin:.75rem 0}p{color:#475569}small{color:#94a3b8}</style>
</head><body><main id="main"><p class="k">Error 503</p><h1>The store is briefly unavailable.</h1>
<p>Please try again in a few seconds.</p><p><small>Request id ${String(req.id)}</small></p></main></body></html>`;
  return reply
    .code(503)
    .header('retry-after', String(DATABASE_RETRY_AFTER_S))
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    )
    .send(html);
}

/** chatOrigin: the chat provider, only on pages where its widget may run (chatOriginForPage). */
function pageCsp(nonce: string, chatOrigin: string | null, formActionOrigins: string[] = []): string {
  const chat = chatOrigin ? ` ${chatOrigin}` : '';
  const formTargets = formActionOrigins.map((o) => ` ${o}`).join('');
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${chat}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https: http:",
    "font-src 'self' data:",
    `connect-src 'self'${chat}`,
    // The newsletter embed lives in a sandboxed frame; its form may post to the provider.
    `frame-src 'self' https:${chat}`,
    // Form posts may end at https pages (PayPal's approval page, through checkout's 303).
    `form-action 'self' https:${formTargets}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** The CSRF token a form post carries: the header, else the hidden field of a form body. */
async function submittedToken(request: Request): Promise<string | null> {
  const header = request.headers.get(CSRF_HEADER);
  if (header) return header;
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return null;
  try {
    // A clone: React Router reads the body itself afterwards.
    const field = (await request.clone().formData()).get(CSRF_FIELD);
    return typeof field === 'string' ? field : null;
  } catch {
    return null;
  }
}

/**
 * The storefront: React Router's server build behind a catch-all route registered after every API
 * route. Responses go out through Fastify (not a hijacked socket), so request ids, security headers
 * and compression apply to pages exactly as to the API.
 */
export async function registerPages(app: App, opts: PagesOptions) {
  const serverEntry = join(opts.buildDir, 'server/index.js');
  if (!existsSync(serverEntry)) {
    throw new Error(`The storefront is not built (${serverEntry} is missing): run npm run build.`);
  }
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
  const handle = createRequestHandler(build, 'production');
  const chatDeps = { store: opts.store, cache: opts.cache, chatOrigin: new URL(opts.chatWidgetUrl).origin };
  const isApiPath = (path: string) => API_PREFIXES.some((p) => path.startsWith(p));

  // Built files are the same for every store, and an unknown host's 'Tenant is not setup.' page
  // needs its scripts too: static routes are not bound to a tenant.
  await app.register(async (assets) => {
    assets.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), tenant: false };
    });
    await assets.register(fastifyStatic, {
      root: join(opts.buildDir, 'client'),
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        // Vite's hashed assets never change; everything else in public/ may.
        res.header(
          'Cache-Control',
          path.includes(`${join(opts.buildDir, 'client', 'assets')}/`)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=3600',
        );
      },
    });
  });

  await app.register(async (pages) => {
    // Form posts reach React Router actions as bytes, read within the limit: no parsing here.
    readPageBodies(pages);
    refuseOtherPageMethods(app, pages, isApiPath);

    pages.route({
      method: ['GET', 'HEAD', 'POST'],
      url: '*',
      config: { tenant: false, page: true },
      schema: { hide: true },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        try {
          return await renderPage(req, reply);
        } catch (err) {
          // The store, the session or the store's settings could not be read: a page, not JSON.
          if ((!isDatabaseUnavailable(err) && !isStoreSwitching(err)) || reply.sent) throw err;
          req.log.warn({ err }, 'database unavailable');
          return sendUnavailablePage(req, reply);
        }
      },
    });
  });

  async function renderPage(req: FastifyRequest, reply: FastifyReply) {
    const path = req.url.split('?')[0] ?? '/';
    if (isApiPath(path) || app.routeMethods(path)) return app.sendNotFound(req, reply);
    if (await pageInputHasControlCharacter(req)) return sendBadRequestPage(req, reply);

    // The platform's own host has no store: its pages are the platform's (decision 103).
    const onPlatform = Boolean(opts.platformHost) && normaliseHost(req.host ?? '') === opts.platformHost;
    if (onPlatform && path === '/') {
      return reply.code(302).header('location', PLATFORM_HOME_PATH).header('cache-control', 'no-store').send();
    }
    let tenant = null;
    if (!onPlatform) {
      try {
        tenant = await resolveRequestTenant(req, opts.tenants, opts.stateOf);
      } catch (err) {
        // An unknown host still gets a page: 'Tenant is not setup.'.
        if (!(err instanceof AppError && err.code === 'TENANT_NOT_FOUND')) throw err;
      }
    }
    const nonce = randomBytes(16).toString('base64');
    const controller = new AbortController();
    reply.raw.once('close', () => controller.abort());
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (Array.isArray(v)) for (const x of v) headers.append(k, x);
      else if (v !== undefined) headers.set(k, v);
    }
    const init: RequestInit = { method: req.method, headers, signal: controller.signal };
    if (req.method !== 'GET' && req.method !== 'HEAD' && Buffer.isBuffer(req.body) && req.body.length) {
      init.body = req.body as Buffer<ArrayBuffer>;
    }
    const request = new Request(`${req.protocol}://${req.host}${req.url}`, init);
    const secure = req.protocol === 'https';

    // CSRF: every form of the pages carries the token of this browser's cookie; a browser that
    // has no cookie yet gets the pre-session one with this response.
    const tenantKey = onPlatform ? PLATFORM_CSRF_KEY : (tenant?.tenantId ?? '');
    const binding = csrfBinding(req.headers);
    const fresh = binding ? null : newCsrfCookie(secure);
    const csrfToken = opts.csrf.tokenFor(tenantKey, binding ?? fresh?.value ?? '');
    const csrfValid = req.method === 'POST' && opts.csrf.valid(tenantKey, binding, await submittedToken(request));

    let api = unknownStoreApi;
    let platformApi: PlatformPageApi | null = null;
    let privateStore = false;
    if (onPlatform) {
      const origin = `${req.protocol}://${req.host}`;
      const page: PlatformPageRequest = {
        headers: req.headers,
        secure,
        origin,
        ip: req.ip,
        requestId: String(req.id),
        assertFormFromPlatform() {
          assertSameOrigin('POST', req.headers, origin);
          if (!csrfValid) throw csrfRefused();
        },
      };
      api = platformHostStoreApi;
      platformApi = pageApiForLoaders(
        Object.assign({}, ...(opts.platformModules ?? []).map((m) => m(page))) as PlatformPageApi,
        (err) => req.log.warn({ err }, 'database unavailable'),
      );
    } else if (tenant) {
      const ctx = await resolveRequestContext(tenant, req, opts.resolveActor);
      // A store that is not open answers its state's page instead (decision 099).
      if (await opts.lifecyclePage?.sendIfNotOpen(ctx, path, reply)) return reply;
      const page: PageRequest = {
        ctx,
        headers: req.headers,
        secure,
        assertFormFromStore() {
          assertSameOrigin('POST', req.headers, ctx.origin);
          if (!csrfValid) throw csrfRefused();
          // A read-only dashboard (suspended, closing) refuses every change its forms post.
          const readOnly = dashboardFormRefusal(ctx, path);
          if (readOnly) throw readOnly;
        },
        async cached(key, compute) {
          // The owner's preview reads drafts: it must neither be served nor fill the shared cache.
          if (ctx.preview) return compute();
          // One copy for all of the store's hosts: absolute links name the asking origin (decision 124).
          const entry = await opts.cache.get(ctx.tenantId, `page:${key}`, compute, ctx.origin);
          return JSON.parse(entry.json);
        },
      };
      api = pageApiForLoaders(Object.assign({}, ...opts.modules.map((m) => m(page))) as PageApi, (err) =>
        req.log.warn({ err }, 'database unavailable'),
      );
      // A private store shows its visitors only login and registration (decision 027), and an
      // account the owner has not approved only where it stands (decision 105).
      const mode = await opts.tenants.accessMode(ctx.tenantId);
      privateStore = mode !== 'public';
      const standing = standingOf(ctx, mode);
      if (standing !== 'member') {
        const search = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
        const visitor = visitorPages(api, path, search, standing);
        if (visitor.redirect) {
          return reply
            .code(req.method === 'POST' ? 303 : 302)
            .header('location', visitor.redirect)
            .header('cache-control', PRIVATE_CACHE_CONTROL)
            .send();
        }
        api = visitor.api;
      }
    }

    const response = await handle(request, {
      api,
      platform: platformApi,
      csrfToken,
      nonce,
      requestId: String(req.id),
    });

    if (response.status === 503) {
      // A resource route (the newsletter embed) answers the loaders' 503 as it is: the page instead.
      if ((response.headers.get('content-type') ?? '').startsWith('text/plain')) return sendUnavailablePage(req, reply);
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
    }
    reply.code(response.status);
    for (const [k, v] of response.headers) {
      if (k !== 'set-cookie' && k !== 'content-length') reply.header(k, v);
    }
    const cookies = response.headers.getSetCookie();
    if (fresh) cookies.unshift(fresh.header);
    if (cookies.length) reply.header('set-cookie', cookies);
    // A document with a policy of its own (the newsletter embed, framed by the store's pages)
    // keeps it; every other page gets the pages' policy.
    if (
      (response.headers.get('content-type') ?? '').startsWith('text/html') &&
      !response.headers.has('content-security-policy')
    ) {
      reply.header(
        'content-security-policy',
        pageCsp(nonce, await chatOriginForPage(chatDeps, tenant, path), opts.formActionOrigins),
      );
      // Pages carry the shopper's header (name, cart count): never shared by caches.
      reply.header('cache-control', 'private, no-cache');
    }
    // A private store's answers are its members' only: not even the browser keeps them.
    if (privateStore) reply.header('cache-control', PRIVATE_CACHE_CONTROL);
    if (!response.body || req.method === 'HEAD') return reply.send();
    return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
  }
}
