import { errorEnvelopeSchema } from '@app/contracts';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Failure statuses every tenant-bound route can answer, documented once. */
export const tenantErrors = {
  400: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
} as const;

/** What a signed-in change can also answer: not signed in, a conflict, a rule refused. */
export const changeErrors = {
  ...tenantErrors,
  401: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  422: errorEnvelopeSchema,
} as const;

/** What a costly route (`config: { costly }`) can also answer: the store's limit, or the server's. */
export const costlyErrors = {
  429: errorEnvelopeSchema,
  503: errorEnvelopeSchema,
} as const;
