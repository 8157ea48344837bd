import { isDeepStrictEqual } from 'node:util';
import type { TenantContext } from './context';
import { AppError } from './errors';

/**
 * What the API reads can be written back. A read carries fields no write
 * changes (ids, counts, timestamps, the status a state machine owns): a write may send them back as
 * they were read, and they are then dropped; a different value is refused, naming the field, so a
 * client that thinks it changed one learns it did not.
 */
export function takeReadOnly<T extends Record<string, unknown>>(
  body: T,
  current: Record<string, unknown>,
  fields: readonly string[],
): T {
  const out: Record<string, unknown> = { ...body };
  for (const field of fields) {
    if (!(field in out)) continue;
    if (!isDeepStrictEqual(out[field], current[field])) {
      throw AppError.field(400, 'VALIDATION_FAILED', field, 'is read-only: send it as read, or leave it out');
    }
    delete out[field];
  }
  return out as T;
}

/** Whether a write changes nothing: then nothing is written, audited or stamped. */
export const unchanged = (next: unknown, current: unknown) => isDeepStrictEqual(next, current);

/**
 * A media URL as a read answers it (absolute, `absoluteMediaUrl`) back to the path it is stored as,
 * when it is this store's own media on this store's origin; anything else is returned as it is.
 */
export function ownMediaPath(ctx: TenantContext, url: unknown): unknown {
  if (typeof url !== 'string' || !url.startsWith(`${ctx.origin}/media/`)) return url;
  return url.slice(ctx.origin.length);
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
