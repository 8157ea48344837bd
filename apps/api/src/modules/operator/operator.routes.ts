import { getHeapSpaceStatistics } from 'node:v8';
import {
  dataEnvelope,
  errorEnvelopeSchema,
  operatorActionBodySchema,
  operatorActionParamsSchema,
  operatorActionResultSchema,
  operatorCreateStoreResultSchema,
  operatorCreateStoreSchema,
  operatorSessionSchema,
  operatorSignInResultSchema,
  operatorSignInSchema,
  operatorStoreAuditPageSchema,
  operatorStoreAuditQuerySchema,
  operatorStoreDetailSchema,
  operatorStorePageSchema,
  operatorStoreQuerySchema,
  operatorTokenCreatedSchema,
  operatorTokenCreateSchema,
  operatorTokenListSchema,
  operatorTokenSchema,
  operatorTotpSchema,
  OPERATOR_API_PREFIX as P,
  platformAuditPageSchema,
  platformAuditQuerySchema,
  platformFiguresQuerySchema,
  platformFiguresSchema,
  platformMemorySchema,
  supportSessionStartSchema,
  supportSessionTicketSchema,
  tenantIdParamsSchema,
  tokenIdParamsSchema,
} from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import type { MemoryBudget } from '../../lib/memory-budget';
import type { BuildOptions } from '../../lib/module';
import { sendRefusal } from '../../plugins/errors';
import type { OperatorAuth, SignedIn } from './operator-auth.service';
import { clearedOperatorSessionCookie, operatorGuard, operatorOf, operatorSessionCookie } from './operator-guard';
import type { OperatorStores } from './operator-stores.service';
import type { PlatformAudit } from './platform-audit.service';
import type { SupportAccess } from './support-access.service';

export interface OperatorRoutesOptions {
  auth: OperatorAuth;
  stores: OperatorStores;
  audit: PlatformAudit;
  support: SupportAccess;
  config: BuildOptions['config'];
  /** The process's memory budget, reported read-only (decision 124). */
  memory: MemoryBudget;
}

const tags = ['platform operator'];
const about =
  "The platform's operator API, on the platform's own host only (any other host: 404). A platform operator's " +
  'console session (the `psid` cookie, with `x-csrf-token` on a change) or an operator token ' +
  '(`Authorization: Bearer opt_...`); anything else is 401, before the body is read.';

/** What a signed-in platform-API route can answer besides its own. */
const signedInErrors = {
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
} as const;
const changeErrors = { ...signedInErrors, 409: errorEnvelopeSchema, 422: errorEnvelopeSchema } as const;

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

/** The operator API's routes: sign-in, stores, actions, audit, figures, tokens, support sessions. */
export async function operatorRoutes(app: App, opts: OperatorRoutesOptions) {
  const { auth, stores, audit, support, config } = opts;
  // Scoped to this plugin: the guard runs for these routes only, before their bodies are parsed.
  app.addHook('onRequest', operatorGuard(auth, config));
  const secure = (req: FastifyRequest) => req.protocol === 'https';

  function signedInAnswer(req: FastifyRequest, reply: FastifyReply, done: SignedIn) {
    reply.header('set-cookie', operatorSessionCookie(done.token, done.expiresAt, secure(req)));
    return {
      data: {
        step: 'signed-in' as const,
        session: {
          operator: done.operator,
          via: 'cookie' as const,
          csrfToken: auth.csrfToken(done.sessionHash),
          expiresAt: done.expiresAt.toISOString(),
        },
      },
    };
  }

  app.post(
    `${P}/session`,
    {
      config: { tenant: false, operator: 'public' },
      schema: {
        tags,
        summary: 'Sign in as a platform operator: the password step',
        description:
          'Answers `step: totp` with a challenge for POST /platform-api/session/totp when a second factor is ' +
          'required (production) or set up; else `step: signed-in` and the `psid` cookie. A wrong password and an ' +
          'unknown email get one answer (401); past 5 failures per account or 20 per address in 15 minutes, 429.',
        body: operatorSignInSchema,
        response: {
          200: dataEnvelope(operatorSignInResultSchema),
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      noStore(reply);
      const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? null, requestId: req.id };
      const result = await auth.signIn(req.body, client);
      if (!result.ok) return sendRefusal(reply, result);
      const step = result.value;
      if (step.step === 'totp') {
        return { data: { step: 'totp' as const, challenge: step.challenge, expiresAt: step.expiresAt.toISOString() } };
      }
      return signedInAnswer(req, reply, step);
    },
  );

  app.post(
    `${P}/session/totp`,
    {
      config: { tenant: false, operator: 'public' },
      schema: {
        tags,
        summary: 'Sign in as a platform operator: the TOTP code step',
        description:
          'The challenge of the password step (5 minutes, 5 tries) and the 6 digits the authenticator app shows; ' +
          'a code is accepted once. Sets the `psid` cookie.',
        body: operatorTotpSchema,
        response: {
          200: dataEnvelope(operatorSignInResultSchema),
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      noStore(reply);
      const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? null, requestId: req.id };
      const result = await auth.verifyTotp(req.body, client);
      if (!result.ok) return sendRefusal(reply, result);
      return signedInAnswer(req, reply, result.value);
    },
  );

  app.get(
    `${P}/session`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: 'The signed-in operator, and the CSRF token of the console session',
        description: about,
        response: { 200: dataEnvelope(operatorSessionSchema), ...signedInErrors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      const { principal } = operatorOf(req);
      const operator = await auth.operator(principal.operatorId);
      if (!operator) throw new AppError(401, 'UNAUTHENTICATED', 'Please sign in as a platform operator.');
      return {
        data: {
          operator,
          via: principal.via,
          csrfToken: principal.sessionHash ? auth.csrfToken(principal.sessionHash) : null,
          expiresAt: principal.expiresAt?.toISOString() ?? null,
        },
      };
    },
  );

  app.delete(
    `${P}/session`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: 'Sign out of the console (ends the session; a token is not affected)',
        description: about,
        body: z.strictObject({}).nullish(),
        response: { 200: dataEnvelope(z.object({ signedOut: z.boolean() })), ...signedInErrors },
      },
    },
    async (req, reply) => {
      await auth.signOut(operatorOf(req));
      reply.header('set-cookie', clearedOperatorSessionCookie(secure(req)));
      return { data: { signedOut: true } };
    },
  );

  app.get(
    `${P}/stores`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: 'Every store, newest or busiest first, one keyset page',
        description: `${about} Search \`q\` matches part of a store's name, one of its hosts or its owner's email.`,
        querystring: operatorStoreQuerySchema,
        response: { 200: dataEnvelope(operatorStorePageSchema), ...signedInErrors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      return { data: await stores.list(req.query) };
    },
  );

  app.post(
    `${P}/stores`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: 'Open a store for a merchant: its subdomain host, owner account and first content',
        description:
          `${about} Sign-up's provisioning (one transaction, no half store) and its subdomain rules; a subdomain ` +
          'taken is 409. The owner is mailed a link to choose a password. The same subdomain again answers the ' +
          'store the first request opened.',
        body: operatorCreateStoreSchema,
        response: { 201: dataEnvelope(operatorCreateStoreResultSchema), ...changeErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      noStore(reply);
      const done = await stores.createStore(operatorOf(req), req.body);
      if (!done.ok) return sendRefusal(reply, done);
      return reply.code(201).send({ data: done.value });
    },
  );

  app.get(
    `${P}/stores/:tenantId`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: "A store's page: hosts, owner, state and its history, counts, last activity, cancel request",
        description: about,
        params: tenantIdParamsSchema,
        response: { 200: dataEnvelope(operatorStoreDetailSchema), ...signedInErrors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      const detail = await stores.detail(req.params.tenantId);
      if (!detail) throw new AppError(404, 'NOT_FOUND', `Store ${req.params.tenantId.slice(0, 64)} was not found.`);
      return { data: detail };
    },
  );

  app.get(
    `${P}/stores/:tenantId/audit`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: "A store's own audit log, newest first",
        description: about,
        params: tenantIdParamsSchema,
        querystring: operatorStoreAuditQuerySchema,
        response: { 200: dataEnvelope(operatorStoreAuditPageSchema), ...signedInErrors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      const page = await stores.storeAudit(req.params.tenantId, req.query);
      if (!page) throw new AppError(404, 'NOT_FOUND', `Store ${req.params.tenantId.slice(0, 64)} was not found.`);
      return { data: page };
    },
  );

  app.post(
    `${P}/stores/:tenantId/actions/:action`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: 'Act on a store, with a reason: suspend, resume, approve or decline its cancel request, close, purge',
        description:
          `${about} A move the store's state does not allow is 409 INVALID_TRANSITION (purge: only a store closed ` +
          "for 30 days). Every action is in the platform audit log; a change of state also in the store's history.",
        params: operatorActionParamsSchema,
        body: operatorActionBodySchema,
        response: { 200: dataEnvelope(operatorActionResultSchema), ...changeErrors, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const done = await stores.act(operatorOf(req), req.params.tenantId, req.params.action, req.body.reason);
      if (!done.ok) return sendRefusal(reply, done);
      return { data: done.value };
    },
  );

  app.post(
    `${P}/stores/:tenantId/support-session`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: "Open the store's dashboard as support, while its owner's grant is live",
        description:
          `${about} Answers a one-time link to the store's host (60 seconds) that signs the browser in as support; ` +
          'without a live grant, 403.',
        params: tenantIdParamsSchema,
        body: supportSessionStartSchema,
        response: { 200: dataEnvelope(supportSessionTicketSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      const done = await support.open(operatorOf(req), req.params.tenantId, req.body.reason);
      if (!done.ok) return sendRefusal(reply, done);
      return { data: done.value };
    },
  );

  app.get(
    `${P}/audit`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: "The platform's audit log: every operator action, newest first",
        description: about,
        querystring: platformAuditQuerySchema,
        response: { 200: dataEnvelope(platformAuditPageSchema), ...signedInErrors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      return { data: await audit.list(req.query) };
    },
  );

  app.get(
    `${P}/figures`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: 'Platform figures: stores by state, and sign-ups, orders and sales per day',
        description: about,
        querystring: platformFiguresQuerySchema,
        response: { 200: dataEnvelope(platformFiguresSchema), ...signedInErrors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      return { data: await stores.figures(req.query.days) };
    },
  );

  app.get(
    `${P}/memory`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: "This process's memory kept per store: the budget, each cache's share and evictions",
        description: about,
        response: { 200: dataEnvelope(platformMemorySchema), ...signedInErrors },
      },
    },
    async (_req, reply) => {
      noStore(reply);
      const m = process.memoryUsage();
      return {
        data: {
          ...opts.memory.stats(),
          process: {
            rssBytes: m.rss,
            heapUsedBytes: m.heapUsed,
            heapTotalBytes: m.heapTotal,
            externalBytes: m.external,
            heapSpaces: getHeapSpaceStatistics().map((h) => ({
              name: h.space_name,
              sizeBytes: h.space_size,
              usedBytes: h.space_used_size,
            })),
          },
        },
      };
    },
  );

  app.get(
    `${P}/tokens`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: 'Operator tokens (never their secrets), newest first',
        description: about,
        response: { 200: dataEnvelope(operatorTokenListSchema), ...signedInErrors },
      },
    },
    async (_req, reply) => {
      noStore(reply);
      return { data: { tokens: await auth.listTokens() } };
    },
  );

  app.post(
    `${P}/tokens`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: 'Create an operator token for a script; its secret is in this answer only',
        description: about,
        body: operatorTokenCreateSchema,
        response: { 201: dataEnvelope(operatorTokenCreatedSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      const created = await auth.createToken(operatorOf(req), req.body);
      return reply.code(201).send({ data: created });
    },
  );

  app.post(
    `${P}/tokens/:tokenId/revoke`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: 'Revoke an operator token at once',
        description: about,
        params: tokenIdParamsSchema,
        body: z.strictObject({}).nullish(),
        response: { 200: dataEnvelope(operatorTokenSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      const done = await auth.revokeToken(operatorOf(req), req.params.tokenId);
      if (!done.ok) return sendRefusal(reply, done);
      return { data: done.value };
    },
  );
}
