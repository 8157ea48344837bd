import { errorEnvelopeSchema } from '@app/contracts';
import type { FastifyReply } from 'fastify';

/** What the operator's store routes share: their OpenAPI tag, their error answers, their caching. */
export const operatorTags = ['platform operator'];

/** Every error a signed-in operator's store operation can answer (the envelope). */
export const operatorErrors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  422: errorEnvelopeSchema,
} as const;

/** An operator's answer is theirs alone and goes stale at once: never kept by a cache. */
export const noStore = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');
