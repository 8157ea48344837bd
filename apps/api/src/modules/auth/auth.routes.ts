import type { IncomingHttpHeaders } from 'node:http';
import {
  CONFIRM_RESENT_MESSAGE,
  confirmEmailRequestSchema,
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
  resendConfirmationRequestSchema,
  resetPasswordRequestSchema,
} from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireSignedIn } from '../../lib/access';
import type { App } from '../../lib/app-types';
import { tenantErrors } from '../../lib/app-types';
import type { TenantContext } from '../../lib/context';
import { sendRefusal } from '../../plugins/errors';
import type { AuthService } from './auth.service';
import { csrfBinding, newCsrfCookie } from './csrf';
import { clearedSessionCookie, requestToken, sessionCookie } from './session-token';

const BASE = '/skulocity/api/v1';
const authErrors = { ...tenantErrors, 401: errorEnvelopeSchema } as const;

export interface AuthRoutesOptions {
  auth: AuthService;
  /**
   * Runs once a browser has a new session (login, a confirmed sign-up): the cart module merges the guest cart
   * into the account's here. Returns cookies to set (the guest cart's, cleared).
   */
  afterLogin?: (ctx: TenantContext, headers: IncomingHttpHeaders, userId: string) => Promise<string[]>;
}

export async function authRoutes(app: App, { auth, afterLogin }: AuthRoutesOptions) {
  /** Who is signing in, as the session records it (and the session it replaces, if any). */
  const clientOf = (req: FastifyRequest) => ({
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
    previousToken: requestToken(req.headers)?.token,
  });
  /** A session began (login, or a confirmation link): its cookie, and whatever sign-in carries over. */
  async function sessionStarted<R extends { userId: string; token: string; expiresAt: string }>(
    req: FastifyRequest,
    reply: FastifyReply,
    result: R,
  ): Promise<R> {
    const extra = (await afterLogin?.(req.ctx, req.headers, result.userId)) ?? [];
    reply.header('set-cookie', [
      sessionCookie(result.token, new Date(result.expiresAt), req.protocol === 'https'),
      ...extra,
    ]);
    return result;
  }

  const messageEnvelope = dataEnvelope(z.object({ message: z.string() }));

  app.post(
    `${BASE}/login`,
    {
      // Opens a session: a logged-in browser may log in again without a token; the origin must be ours.
      config: { csrf: 'origin-only' },
      schema: {
        tags: ['auth'],
        summary: 'Logs in with email and password',
        description:
          'Opens a session: the token is set as an httpOnly cookie for the web app and returned for API ' +
          'clients (send it as `Authorization: Bearer`). A wrong password and an unknown email get the same ' +
          'answer. Limited per client address and per account (429 with Retry-After).',
        body: loginRequestSchema,
        examples: { body: { email: 'shopper@lighting.test', password: 'shopper-demo-1' } },
        response: { 200: dataEnvelope(loginResultSchema), ...authErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const result = await auth.login(req.ctx, req.body, clientOf(req));
      if (!result.ok) return sendRefusal(reply, result);
      return { data: await sessionStarted(req, reply, result.value) };
    },
  );

  app.post(
    `${BASE}/public/ecommerce/profile/newUser`,
    {
      config: { csrf: 'origin-only' },
      schema: {
        tags: ['auth'],
        summary: 'Creates a shopper account of this store',
        description:
          'Names, email, password (at least 10 characters, not a common one, not the email) and an optional ' +
          'phone. Unknown fields (a role, say) are refused. Nobody is logged in: a new account gets a welcome ' +
          'mail whose link confirms the email and logs in (`/public/ecommerce/confirmemail`); until then a login ' +
          'is refused with 403 `EMAIL_NOT_CONFIRMED`. An email that already has an account gets the same status, ' +
          'body and headers, and its owner an email. At most 10 sign-ups per client address per hour.',
        body: registerRequestSchema,
        response: {
          200: dataEnvelope(z.object({ message: z.string() })),
          ...tenantErrors,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      // No cookie on either path: a Set-Cookie only for new emails would tell a stranger who has an account.
      const r = await auth.register(req.ctx, req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null });
      if (!r.ok) return sendRefusal(reply, r);
      return { data: { message: REGISTER_MESSAGE }, message: REGISTER_MESSAGE };
    },
  );

  app.post(
    `${BASE}/public/ecommerce/confirmemail`,
    {
      config: { csrf: 'origin-only' },
      schema: {
        tags: ['auth'],
        summary: "Confirms a new account's email from the link of its welcome mail, and logs in",
        description:
          'The token of the link works once, for 24 hours, on its own store. Answers like a login (session ' +
          'cookie and token); a used, expired or unknown link gets 400.',
        body: confirmEmailRequestSchema,
        response: { 200: dataEnvelope(loginResultSchema), ...tenantErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const result = await auth.confirmEmail(req.ctx, req.body.token, clientOf(req));
      if (!result.ok) return sendRefusal(reply, result);
      return { data: await sessionStarted(req, reply, result.value) };
    },
  );

  app.post(
    `${BASE}/public/ecommerce/confirmemail/resend`,
    {
      config: { csrf: 'origin-only' },
      schema: {
        tags: ['auth'],
        summary: 'Mails a new confirmation link',
        description:
          'Always the same answer. When the email has an unconfirmed account in this store, a new link is ' +
          'mailed and the earlier ones stop working. Limited per client address and per account (429).',
        body: resendConfirmationRequestSchema,
        response: { 200: messageEnvelope, ...tenantErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const r = await auth.resendConfirmation(req.ctx, req.body.email, { ip: req.ip });
      if (!r.ok) return sendRefusal(reply, r);
      return { data: { message: CONFIRM_RESENT_MESSAGE }, message: CONFIRM_RESENT_MESSAGE };
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
      return { data: { csrfToken: auth.csrf.tokenFor(req.ctx.tenantId, binding) } };
    },
  );

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
      const r = await auth.forgotPassword(req.ctx, req.query.email, { ip: req.ip });
      if (!r.ok) return sendRefusal(reply, r);
      reply.header('cache-control', 'no-store');
      return { data: { message: FORGOT_MESSAGE }, message: FORGOT_MESSAGE };
    },
  );

  app.post(
    `${BASE}/public/ecommerce/resetpassword`,
    {
      config: { csrf: 'origin-only' },
      schema: {
        tags: ['auth'],
        summary: 'Sets a new password from a reset link',
        description: 'The link works once and for one hour, on its own store only. Every session of the user ends.',
        body: resetPasswordRequestSchema,
        response: { 200: messageEnvelope, ...tenantErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const r = await auth.resetPassword(req.ctx, req.body, { ip: req.ip });
      if (!r.ok) return sendRefusal(reply, r);
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
      // A cookie-borne logout has passed the CSRF check of the request-context plugin.
      const found = requestToken(req.headers);
      if (found) await auth.logout(req.ctx, found.token);
      reply.header('set-cookie', clearedSessionCookie(req.protocol === 'https'));
      return { data: { loggedOut: true as const }, message: LOGOUT_MESSAGE };
    },
  );

  app.post(
    `${BASE}/ecommerce/profile/view`,
    {
      // A read sent as POST: a foreign page cannot read its answer.
      config: { signedIn: true, csrf: 'origin-only' },
      schema: {
        tags: ['auth'],
        summary: "The signed-in user's profile",
        response: { 200: dataEnvelope(profileSchema), ...authErrors },
      },
    },
    async (req) => {
      const user = requireSignedIn(req.ctx);
      return { data: await auth.profile(req.ctx, user.userId) };
    },
  );

  app.put(
    `${BASE}/ecommerce/profile/update`,
    {
      config: { signedIn: true },
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
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      const saved = await auth.updateProfile(req.ctx, user.userId, req.body);
      if (!saved.ok) return sendRefusal(reply, saved);
      return { data: saved.value, message: PROFILE_SAVED_MESSAGE };
    },
  );

  app.post(
    `${BASE}/ecommerce/profile/changepassword`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['auth'],
        summary: 'Changes the password',
        description: 'Needs the current password. Every other session of the user ends; this one stays.',
        body: passwordChangeSchema,
        response: { 200: messageEnvelope, ...authErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      const changed = await auth.changePassword(req.ctx, user.userId, user.session.token, req.body);
      if (!changed.ok) return sendRefusal(reply, changed);
      return { data: { message: PASSWORD_CHANGED_MESSAGE }, message: PASSWORD_CHANGED_MESSAGE };
    },
  );
}
