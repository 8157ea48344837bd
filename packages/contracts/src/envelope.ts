import { z } from 'zod';

/** Success bodies are `{ data }`. */
export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data, message: z.string().optional() });
}
