import {
  dataEnvelope,
  errorEnvelopeSchema,
  signupAcceptedSchema,
  signupConfirmedSchema,
  signupConfirmRequestSchema,
  subdomainAvailabilitySchema,
  subdomainQuerySchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import type { BuildOptions } from '../../lib/module';
import { requirePlatformHost } from '../../lib/platform-host';
import { sendError, sendRefusal } from '../../plugins/errors';
import { sessionCookie } from '../auth/index';
import type { SignupService } from './signup.service';

const platformErrors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema } as const;
const onPlatform =
  'On the platform host only (anywhere else 404); open to visitors, no session. ' +
  'Limits: 5 sign-ups an hour per client address (429), 3 mails an hour per email (past it the same answer, no mail).';

/**
 * Self-serve sign-up (decision 103): the platform host's API, mounted outside any store
 * (`tenant: false`), and the one-time sign-in link on the new store's host.
 */
export async function signupRoutes(app: App, opts: { signup: SignupService; config: BuildOptions['config'] }) {
  const { signup, config } = opts;

  app.get(
    '/platform-api/signup/subdomains/:subdomain',
    {
      config: { tenant: false },
      schema: {
        tags: ['platform'],
        summary: 'Whether a new store may take a subdomain',
        description: `${onPlatform} The rules (characters, length, reserved words) are those of the contracts' signup.ts; then whether a store has it.`,
        params: subdomainQuerySchema,
        response: { 200: dataEnvelope(subdomainAvailabilitySchema), ...platformErrors },
      },
    },
    async (req, reply) => {
      requirePlatformHost(req, config);
      reply.header('cache-control', 'no-store');
      return { data: await signup.availability(req.params.subdomain) };
    },
  );

  app.post(
    '/platform-api/signup',
    {
      config: { tenant: false },
      schema: {
        tags: ['platform'],
        summary: 'Sign up for a store: mails the link that opens it',
        description:
          `${onPlatform} 202 with the same message whether or not the email already owns a store (the mail says which). ` +
          'A subdomain a store has is 409; a malformed field 400.',
        body: z.record(z.string(), z.unknown()),
        response: {
          202: dataEnvelope(signupAcceptedSchema),
          ...platformErrors,
          409: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      requirePlatformHost(req, config);
      const outcome = await signup.request(req.body, { ip: req.ip });
      if (!outcome.ok) {
        const first = Object.entries(outcome.fieldErrors)[0];
        const code =
          outcome.status === 429 ? 'RATE_LIMITED' : outcome.status === 409 ? 'CONFLICT' : 'VALIDATION_FAILED';
        return sendError(reply, outcome.status, code, first ? `${first[0]}: ${first[1]}` : outcome.message);
      }
      return reply.code(202).send({ data: { message: outcome.message } });
    },
  );

  app.post(
    '/platform-api/signup/confirm',
    {
      config: { tenant: false },
      schema: {
        tags: ['platform'],
        summary: "Open the store of a sign-up's mailed link",
        description:
          `${onPlatform} Opens the store in one transaction (once: the same token again answers the same store) ` +
          'and answers a one-time link (5 minutes) that signs the owner in on the store host. An unknown or expired token is 404; ' +
          'a subdomain taken since the sign-up is 409.',
        body: signupConfirmRequestSchema,
        response: { 200: dataEnvelope(signupConfirmedSchema), ...platformErrors, 409: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      requirePlatformHost(req, config);
      reply.header('cache-control', 'no-store');
      const result = await signup.confirm(req.body.token);
      if (!result.ok) return sendRefusal(reply, result);
      return { data: result.value };
    },
  );

  app.get(
    '/api/signup/sign-in',
    {
      schema: {
        tags: ['platform'],
        summary: "A new store's owner signed in by the one-time link of sign-up",
        description:
          "On the new store's host: a session cookie of that host for the store's owner, then to /manage-store. " +
          'The link works once, for 5 minutes, on its own store; any other answer is the login page.',
        querystring: z.object({ token: z.string().max(200).optional() }),
        response: { 303: z.null().describe('To /manage-store signed in, or to the login page.') },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      const session = req.query.token
        ? await signup.signIn(req.ctx, req.query.token, req.headers['user-agent'] ?? null)
        : null;
      if (!session) return reply.code(303).header('location', '/auth/login').send(null);
      return reply
        .code(303)
        .header('set-cookie', sessionCookie(session.token, session.expiresAt, req.protocol === 'https'))
        .header('location', '/manage-store')
        .send(null);
    },
  );
}
