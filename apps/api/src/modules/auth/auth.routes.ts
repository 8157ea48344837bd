import type { IncomingHttpHeaders } from 'node:http';
import {
  dataEnvelope,
  errorEnvelopeSchema,
  FORGOT_MESSAGE,
  forgotPasswordQuerySchema,
  LOGOUT_MESSAGE,
  loginRequestSchema,
  loginResultSchema,
  PASSWORD_CHANGED_MESSAGE,
  PROFILE_SAVED_MESSAGE,
  passwordChangeSchema,
  profileSchema,
  profileUpdateSchema,
  REGISTER_MESSAGE,
  RESET_DONE_MESSAGE,
  registerRequestSchema,
  resetPasswordRequestSchema,
} from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import type { TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { AuthService, SessionUser } from './auth.service';
import { CSRF_HEADER, csrfBinding, csrfRefused, newCsrfCookie } from './csrf';
import { assertSameOrigin, clearedSessionCookie, requestToken, sessionCookie } from './session-token';

const BASE = '/skulocity/api/v1';
const authErrors = { ...tenantErrors, 401: errorEnvelopeSchema } as const;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for a change authenticated by the session cookie: it must come from this store's own
 * origin and carry the `X-CSRF-Token` of this session. A bearer token is not sent by browsers on
 * their own, so bearer requests need neither.
 */
function assertCookieChangeAllowed(auth: AuthService, req: FastifyRequest) {
  if (SAFE_METHODS.has(req.method)) return;
  assertSameOrigin(req.method, req.headers, req.tenantCtx.origin);
  if (!auth.csrf.valid(req.tenantCtx.tenantId, csrfBinding(req.headers), req.headers[CSRF_HEADER])) {
    throw csrfRefused();
  }
}

/**
 * The signed-in user of a request, or 401; a cookie-borne change must then pass the CSRF checks.
 * `readOnly` is for the SPEC's reads sent as POST (profile view): a foreign page cannot read their
 * answer, so they need no token.
 */
export async function requireUser(
  auth: AuthService,
  req: FastifyRequest,
  opts: { readOnly?: boolean } = {},
): Promise<SessionUser> {
  const found = requestToken(req.headers);
  const user = found ? await auth.resolve(req.tenantCtx, found.token) : null;
  if (!user) throw new AppError(401, 'UNAUTHENTICATED', 'Please log in to continue.');
  if (found?.via === 'cookie' && !opts.readOnly) assertCookieChangeAllowed(auth, req);
  return user;
}

/**
 * The signed-in user if there is one (routes open to guests too, such as the cart). A change made
 * with the session cookie must still pass the CSRF checks; a guest's cookie-borne change must come
 * from this store's origin.
 */
export async function optionalUser(auth: AuthService, req: FastifyRequest): Promise<SessionUser | null> {
  const found = requestToken(req.headers);
  const user = found ? await auth.resolve(req.tenantCtx, found.token) : null;
  if (user && found?.via === 'cookie') assertCookieChangeAllowed(auth, req);
  if (!user) assertSameOrigin(req.method, req.headers, req.tenantCtx.origin);
  return user;
}

export interface AuthRoutesOptions {
  auth: AuthService;
  /**
   * Runs once a browser has a new session (login, sign-up): the cart module merges the guest cart
   * into the account's here. Returns cookies to set (the guest cart's, cleared).
   */
  afterLogin?: (ctx: TenantContext, headers: IncomingHttpHeaders, userId: string) => Promise<string[]>;
}

export async function authRoutes(app: App, { auth, afterLogin }: AuthRoutesOptions) {
  app.post(
    `${BASE}/login`,
    {
      schema: {
        tags: ['auth'],
        summary: 'Logs in with email and password',
        description:
          'Opens a session: the token is set as an httpOnly cookie for the web app and returned for API ' +
          'clients (send it as `Authorization: Bearer`). A wrong password and an unknown email get the same ' +
          'answer. Limited per client address and per account (429 with Retry-After).',
        body: loginRequestSchema,
        response: { 200: dataEnvelope(loginResultSchema), ...authErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      // Login CSRF: a foreign page must not sign the browser into an account of its choosing.
      assertSameOrigin(req.method, req.headers, req.tenantCtx.origin);
      const result = await auth.login(req.tenantCtx, req.body, {
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? null,
        previousToken: requestToken(req.headers)?.token,
      });
      const extra = (await afterLogin?.(req.tenantCtx, req.headers, result.userId)) ?? [];
      reply.header('set-cookie', [
        sessionCookie(result.token, new Date(result.expiresAt), req.protocol === 'https'),
        ...extra,
      ]);
      return { data: result };
    },
  );

  app.post(
    `${BASE}/public/ecommerce/profile/newUser`,
    {
      schema: {
        tags: ['auth'],
        summary: 'Creates a shopper account of this store',
        description:
          'Names, email, password (at least 10 characters, not a common one, not the email) and an optional ' +
          'phone. Unknown fields (a role, say) are refused. A new account is logged in (cookie set). An email ' +
          'that already has an account gets the same status and body, no session, and its owner an email. ' +
          'At most 10 sign-ups per client address per hour.',
        body: registerRequestSchema,
        response: {
          200: dataEnvelope(z.object({ message: z.string() })),
          ...tenantErrors,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      assertSameOrigin(req.method, req.headers, req.tenantCtx.origin);
      const r = await auth.register(req.tenantCtx, req.body, {
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? null,
      });
      if (r.created) {
        const extra = (await afterLogin?.(req.tenantCtx, req.headers, r.userId)) ?? [];
        reply.header('set-cookie', [sessionCookie(r.token, r.expiresAt, req.protocol === 'https'), ...extra]);
      }
      return { data: { message: REGISTER_MESSAGE }, message: REGISTER_MESSAGE };
    },
  );

  app.get(
    `${BASE}/public/ecommerce/csrftoken`,
    {
      schema: {
        tags: ['auth'],
        summary: 'The CSRF token of this browser',
        description:
          'For a client that uses the session cookie: send the token as `X-CSRF-Token` with every change ' +
          "(the store's pages put it in their forms). It is bound to the store and to the session, or, " +
          'before a login, to a `csrf` cookie set by this call; it changes when the session does.',
        response: { 200: dataEnvelope(z.object({ csrfToken: z.string() })), ...tenantErrors },
      },
    },
    async (req, reply) => {
      let binding = csrfBinding(req.headers);
      if (!binding) {
        const fresh = newCsrfCookie(req.protocol === 'https');
        binding = fresh.value;
        reply.header('set-cookie', fresh.header);
      }
      reply.header('cache-control', 'private, no-store');
      return { data: { csrfToken: auth.csrf.tokenFor(req.tenantCtx.tenantId, binding) } };
    },
  );

  const messageEnvelope = dataEnvelope(z.object({ message: z.string() }));

  app.get(
    `${BASE}/public/ecommerce/forgotpassword`,
    {
      schema: {
        tags: ['auth'],
        summary: 'Mails a password reset link',
        description:
          'Always the same answer. When the email has an account in this store, a single-use link valid for one ' +
          "hour is mailed to it, on the store's canonical host. Limited per client address and per account.",
        querystring: forgotPasswordQuerySchema,
        response: { 200: messageEnvelope, ...tenantErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      await auth.forgotPassword(req.tenantCtx, req.query.email, { ip: req.ip });
      reply.header('cache-control', 'no-store');
      return { data: { message: FORGOT_MESSAGE }, message: FORGOT_MESSAGE };
    },
  );

  app.post(
    `${BASE}/public/ecommerce/resetpassword`,
    {
      schema: {
        tags: ['auth'],
        summary: 'Sets a new password from a reset link',
        description: 'The link works once and for one hour, on its own store only. Every session of the user ends.',
        body: resetPasswordRequestSchema,
        response: { 200: messageEnvelope, ...tenantErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      await auth.resetPassword(req.tenantCtx, req.body, { ip: req.ip });
      reply.header('set-cookie', clearedSessionCookie(req.protocol === 'https'));
      return { data: { message: RESET_DONE_MESSAGE }, message: RESET_DONE_MESSAGE };
    },
  );

  app.post(
    `${BASE}/logout`,
    {
      schema: {
        tags: ['auth'],
        summary: 'Ends the current session',
        description: 'Revokes the session of the cookie or bearer token and clears the cookie. Always succeeds.',
        response: { 200: dataEnvelope(z.object({ loggedOut: z.literal(true) })), ...tenantErrors },
      },
    },
    async (req, reply) => {
      const found = requestToken(req.headers);
      if (found?.via === 'cookie') assertCookieChangeAllowed(auth, req);
      if (found) await auth.logout(req.tenantCtx, found.token);
      reply.header('set-cookie', clearedSessionCookie(req.protocol === 'https'));
      return { data: { loggedOut: true as const }, message: LOGOUT_MESSAGE };
    },
  );

  app.post(
    `${BASE}/ecommerce/profile/view`,
    {
      schema: {
        tags: ['auth'],
        summary: "The signed-in user's profile",
        response: { 200: dataEnvelope(profileSchema), ...authErrors },
      },
    },
    async (req) => {
      const user = await requireUser(auth, req, { readOnly: true });
      return { data: await auth.profile(req.tenantCtx, user.userId) };
    },
  );

  app.put(
    `${BASE}/ecommerce/profile/update`,
    {
      schema: {
        tags: ['auth'],
        summary: 'Saves My Profile: names, email and phone',
        description: 'A new email needs `currentPassword` and must not belong to another account of the store (409).',
        body: profileUpdateSchema,
        response: {
          200: dataEnvelope(profileSchema),
          ...authErrors,
          409: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (req) => {
      const user = await requireUser(auth, req);
      return { data: await auth.updateProfile(req.tenantCtx, user.userId, req.body), message: PROFILE_SAVED_MESSAGE };
    },
  );

  app.post(
    `${BASE}/ecommerce/profile/changepassword`,
    {
      schema: {
        tags: ['auth'],
        summary: 'Changes the password',
        description: 'Needs the current password. Every other session of the user ends; this one stays.',
        body: passwordChangeSchema,
        response: { 200: messageEnvelope, ...authErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req) => {
      const user = await requireUser(auth, req);
      await auth.changePassword(req.tenantCtx, user.userId, requestToken(req.headers)?.token ?? null, req.body);
      return { data: { message: PASSWORD_CHANGED_MESSAGE }, message: PASSWORD_CHANGED_MESSAGE };
    },
  );
}
