import { z } from 'zod';

/**
 * The two ways a whole number reaches the server, and one schema each.
 *
 * `z.coerce.number()` is never used on input: it reads "1e2" as 100, "0x10" as 16, " 5 " as 5,
 * "" as 0, `true` as 1 and `[5]` as 5, so a refund or a quantity could move money nobody typed.
 */

interface Bounds {
  min?: number;
  max?: number;
}

function bounded(schema: z.ZodNumber, name: string, { min, max }: Bounds) {
  let s = schema.int(`${name} must be a whole number`);
  if (min !== undefined) s = s.min(min, `${name} must be at least ${min}`);
  if (max !== undefined) s = s.max(max, `${name} must be at most ${max}`);
  return s;
}

/** A whole number in a JSON body: a JSON number, never a string, boolean, array or null. */
export const jsonInt = (name: string, bounds: Bounds = {}) =>
  bounded(z.number({ error: `${name} must be a number` }), name, bounds);

/** Plain decimal digits, optionally signed: what a person types and what a query string carries. */
const DIGITS = /^-?\d{1,15}$/;

/**
 * A whole number in a query string, a path or a form field, where everything is text: plain
 * decimal digits only ("12", "-3"), read as a number. A number passed by the server's own code
 * (a page function) is taken as it is. Anything else, including a repeated query key, is refused.
 */
export const textInt = (name: string, bounds: Bounds = {}) =>
  z
    .union([z.number(), z.string().regex(DIGITS, `${name} must be a whole number`)], {
      error: `${name} must be a whole number`,
    })
    .transform((v) => (typeof v === 'number' ? v : Number(v)))
    .pipe(bounded(z.number(), name, bounds));

/**
 * Form fields that feed a JSON body schema: those named become numbers when they are plain digits,
 * undefined when blank; anything else stays text, so the body schema refuses it with its message.
 */
export function formNumbers<T extends Record<string, unknown>>(input: T, fields: readonly (keyof T)[]): T {
  const out: Record<string, unknown> = { ...input };
  for (const f of fields) {
    const v = out[f as string];
    if (typeof v !== 'string') continue;
    const t = v.trim();
    out[f as string] = t === '' ? undefined : DIGITS.test(t) ? Number(t) : v;
  }
  return out as T;
}

/** A calendar day, YYYY-MM-DD, that exists (2026-02-30 does not): every day input uses it. */
export const isoDay = (name: string) => z.iso.date({ error: `${name} must be a real date like 2026-01-31` });

/** A day's text that is a real calendar day, for code that reads form fields without a schema. */
export const isRealDay = (v: string) => isoDay('day').safeParse(v).success;

/** A date and time with its offset, on a real calendar day (ISO 8601, e.g. 2026-05-01T00:00:00Z). */
export const isoDateTime = (message: string) => z.iso.datetime({ offset: true, error: message });

/** An id in a request (a product, variant, option, category…): 1-64 characters of letters, digits, `_`, `.` and `-`. */
export const idField = (name: string) =>
  z
    .string()
    .trim()
    .min(1, `${name} is required`)
    .max(64, `${name} is longer than 64 characters`)
    .regex(/^[A-Za-z0-9_.-]+$/, `${name} has characters an id cannot have`);
