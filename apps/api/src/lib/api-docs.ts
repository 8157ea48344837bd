import { z } from 'zod';

/**
 * A file in a 2xx answer (CSV, PDF, XML, text, an image), documented by its content types. The
 * handler sets Content-Type and sends a string, buffer or stream, which no serializer touches: the
 * schema is for the OpenAPI document (decision 076), and a test checks every answer against it.
 */
export function fileAnswer(description: string, types: string[], opts: { binary?: boolean } = {}) {
  // Typed `any`: the handler sends a string, a buffer or a stream; the document says a string (of bytes).
  const schema = z.any().meta({ type: 'string', ...(opts.binary ? { format: 'binary' } : {}) });
  return { description, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
}

export const CSV = ['text/csv'];
export const PDF = ['application/pdf'];
export const XML = ['application/xml'];

/** A redirect without a body (its Location header is added by the document's transform). */
export const redirectAnswer = (description: string) => z.null().describe(description);
