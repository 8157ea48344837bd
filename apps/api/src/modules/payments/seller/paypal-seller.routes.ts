import { dataEnvelope, sellerFetchQuerySchema, sellerStateSchema } from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { accessRefusal } from '../../../lib/access';
import { redirectAnswer } from '../../../lib/api-docs';
import type { App } from '../../../lib/app-types';
import { changeErrors } from '../../../lib/app-types';
import { signedInUser } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { Result } from '../../../lib/result';
import { sendRefusal } from '../../../plugins/errors';
import { CSRF_FIELD, CSRF_HEADER, type Csrf, csrfBinding, csrfRefused } from '../../auth/index';
import type { SellerOnboarding, SellerOnboardingRefusal, SellerOutcome } from './seller-onboarding';

const noStore = { 'cache-control': 'private, no-store' };
const P = '/api/paypal/seller';
/** Where the owner's browser lands after PayPal and after a plain form post. */
export const PAYMENTS_PAGE = '/manage-store/payments';

/** A plain HTML form (no JavaScript) rather than an API client: it gets a redirect, not JSON. */
function fromForm(req: FastifyRequest): boolean {
  const type = String(req.headers['content-type'] ?? '');
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) return true;
  const accept = String(req.headers.accept ?? '');
  return accept.includes('text/html') && !accept.includes('application/json');
}

/** The payments page's notice for a refusal: onboarding not set up, or the seller's state not allowing it. */
const refusedAs = (r: SellerOnboardingRefusal) => (r.code === 'CONFLICT' ? 'unavailable' : 'refused');

const formBody = z.record(z.string(), z.unknown()).nullish();
/** JSON from a script, or a plain HTML form (with its `_csrf` field), which gets a 303 instead. */
const FORM_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];
const FORM_REDIRECT = redirectAnswer('A plain form post: back to the payments page with the outcome.');

/**
 * The store's PayPal seller onboarding (the clients' API names seller/fetch).
 * Owner routes with the payments permission. connect, check and disconnect answer a plain form post
 * with 303 (to PayPal, or back to the payments page) so they work without JavaScript; such a post
 * carries the CSRF token as the form's `_csrf` field instead of the header.
 */
export async function paypalSellerRoutes(app: App, { onboarding, csrf }: { onboarding: SellerOnboarding; csrf: Csrf }) {
  // Only in this plugin: the API elsewhere takes JSON (and multipart for uploads).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  /** The CSRF rule of request-context, accepting the token from the form's field too. */
  function assertCsrf(req: FastifyRequest) {
    const user = signedInUser(req.ctx);
    if (!user || user.session.via === 'bearer') return;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const submitted = req.headers[CSRF_HEADER] ?? body[CSRF_FIELD];
    if (!csrf.valid(req.ctx.tenantId, csrfBinding(req.headers), submitted)) throw csrfRefused();
  }

  /** A form gets the payments page with the outcome; a refusal goes there too, named. */
  async function answer<T, J>(
    req: FastifyRequest,
    reply: FastifyReply,
    work: () => Promise<Result<T, SellerOnboardingRefusal>>,
    form: (result: T) => string,
    json: (result: T) => J,
  ): Promise<{ data: J } | FastifyReply> {
    reply.headers(noStore);
    assertCsrf(req);
    const done = await work();
    if (!fromForm(req)) return done.ok ? { data: json(done.value) } : sendRefusal(reply, done);
    return reply.redirect(done.ok ? form(done.value) : `${PAYMENTS_PAGE}?paypal=${refusedAs(done)}`, 303);
  }

  const change = {
    config: { permission: 'payments' as const, csrf: 'origin-only' as const },
  };

  app.post(
    `${P}/connect`,
    {
      ...change,
      schema: {
        tags: ['payments'],
        summary: "Start connecting the store's PayPal seller account (PayPal's partner referral)",
        description:
          'Creates a partner referral for this store (tracking id: the store) and moves the seller to pending; ' +
          "answers PayPal's sign-up link (action_url), reused while under an hour old. A plain form post gets " +
          '303 to it. 409 when the platform has no PayPal partner set-up, or the store is connected already.',
        body: formBody,
        consumes: FORM_TYPES,
        response: {
          200: dataEnvelope(z.object({ actionUrl: z.string() })),
          303: redirectAnswer("A plain form post: to PayPal's sign-up page."),
          ...changeErrors,
        },
      },
    },
    async (req, reply) =>
      answer(
        req,
        reply,
        () => onboarding.connect(req.ctx),
        (r) => r.actionUrl,
        (r) => ({ actionUrl: r.actionUrl }),
      ),
  );

  app.post(
    `${P}/check`,
    {
      ...change,
      schema: {
        tags: ['payments'],
        summary: "Ask PayPal now whether the store's seller account can take payments",
        description:
          "Confirms with PayPal's merchant-integrations: connected only when payments are receivable, the email " +
          "is confirmed, the tracking id is this store's and the platform's app holds the seller's consent.",
        body: formBody,
        consumes: FORM_TYPES,
        response: { 200: dataEnvelope(sellerStateSchema), 303: FORM_REDIRECT, ...changeErrors },
      },
    },
    async (req, reply) =>
      answer(
        req,
        reply,
        () => onboarding.check(req.ctx),
        (r) => `${PAYMENTS_PAGE}?paypal=${r.outcome}`,
        (r) => r.state,
      ),
  );

  app.post(
    `${P}/disconnect`,
    {
      ...change,
      schema: {
        tags: ['payments'],
        summary: "Disconnect the store's PayPal seller account: checkout no longer offers PayPal through it",
        description: 'Orders paid into the account keep their refunds through it. A sign-up still pending is dropped.',
        body: formBody,
        consumes: FORM_TYPES,
        response: { 200: dataEnvelope(sellerStateSchema), 303: FORM_REDIRECT, ...changeErrors },
      },
    },
    async (req, reply) =>
      answer(
        req,
        reply,
        () => onboarding.disconnect(req.ctx),
        () => `${PAYMENTS_PAGE}?paypal=disconnected`,
        (r) => r,
      ),
  );

  app.get(
    `${P}/fetch`,
    {
      config: { permission: 'payments' },
      schema: {
        tags: ['payments'],
        summary: "The store's PayPal onboarding state",
        description: "tenantId must be this store's; another store's is 404.",
        querystring: sellerFetchQuerySchema,
        response: { 200: dataEnvelope(sellerStateSchema), ...changeErrors },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      if (req.query.tenantId !== req.ctx.tenantId) throw AppError.notFound('There is no such store.');
      return { data: await onboarding.state(req.ctx) };
    },
  );

  app.get(
    `${P}/return`,
    {
      schema: {
        tags: ['payments'],
        summary: 'Where PayPal sends the owner back after its sign-up',
        description:
          "The query (merchantIdInPayPal, ...) is a hint only: PayPal's merchant-integrations decides. Redirects " +
          'to the payments page with the outcome; a visitor logs in first and lands on the payments page.',
        // PayPal adds more parameters than these; they are accepted and ignored.
        querystring: z.looseObject({
          merchantIdInPayPal: z.string().max(200).optional(),
          merchantId: z.string().max(200).optional(),
        }),
        response: {
          303: z.null().describe('To the payments page with the outcome, or to the login page for a visitor.'),
        },
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      // A browser coming back from PayPal: refusals are pages, not JSON, except for non-staff.
      const refusal = accessRefusal(req.ctx, 'payments');
      if (refusal?.statusCode === 401) {
        // After login the payments page offers "Check again", which finds the sign-up by the store's
        // tracking id: a login form cannot carry PayPal's query to an API path.
        return reply.redirect(`/auth/login?redirectUrl=${encodeURIComponent(`${PAYMENTS_PAGE}?paypal=return`)}`, 303);
      }
      if (refusal) throw refusal;
      const q = req.query as Record<string, unknown>;
      const hint = typeof q.merchantIdInPayPal === 'string' ? q.merchantIdInPayPal : undefined;
      const checked = await onboarding.check(req.ctx, { ...(hint ? { merchantId: hint } : {}), via: 'return' });
      const outcome: SellerOutcome | 'unavailable' = checked.ok ? checked.value.outcome : refusedAs(checked);
      return reply.redirect(`${PAYMENTS_PAGE}?paypal=${outcome}`, 303);
    },
  );
}
