/** What a secret shows as in the log: that it changed, never what it was or became. */
export const REDACTED = '[redacted]';
/** Longer texts are cut (a page body changes often and the drafts keep its versions). */
export const AUDIT_TEXT_MAX = 2000;

/**
 * Field names that hold secrets wherever they appear (nested objects too), compared without case,
 * '_' or '-': `passwordHash`, `token_hash`, `clientSecret`, `apiKey`, `refreshToken`, ... A field
 * the list misses is marked by its writer with `secret(value)`.
 */
const SECRET_NAME = /password|secret|token|apikey|privatekey|credential|cvc|cvv|cardnumber|encrypted/;
export const isSecretField = (field: string) => SECRET_NAME.test(field.toLowerCase().replace(/[^a-z0-9]/g, ''));

class SecretValue {
  constructor(readonly value: unknown) {}
}

/** Marks a value as secret for the audit log: recorded as changed, never with its content. */
export function secret(value: unknown): unknown {
  return new SecretValue(value);
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * A value as the log keeps it: JSON, object keys sorted (so equal values compare equal), secrets
 * masked unless `reveal` (for comparing), long texts cut, undefined fields left out.
 */
function normalise(value: unknown, reveal: boolean, field?: string): Json | undefined {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value instanceof SecretValue) return reveal ? normalise(value.value, true) : masked(value.value);
  if (field !== undefined && isSecretField(field) && !reveal) return masked(value);
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') {
    return reveal || value.length <= AUDIT_TEXT_MAX
      ? value
      : `${value.slice(0, AUDIT_TEXT_MAX)}… (${value.length} characters)`;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return reveal ? Buffer.from(value).toString('base64') : `(${value.length} bytes)`;
  if (Array.isArray(value)) return value.map((v) => normalise(v, reveal) ?? null);
  if (typeof value === 'object') {
    const out: { [k: string]: Json } = {};
    for (const k of Object.keys(value).sort()) {
      const v = normalise((value as Record<string, unknown>)[k], reveal, k);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  return String(value);
}

const masked = (value: unknown): Json => (value === null || value === undefined ? null : REDACTED);
const same = (a: unknown, b: unknown, field: string) =>
  JSON.stringify(normalise(a, true, field) ?? null) === JSON.stringify(normalise(b, true, field) ?? null);

export type Fields = Record<string, unknown>;
/** One changed field: no `before` on a create, no `after` on a delete. */
export type AuditFieldChange = { before?: unknown; after?: unknown };

/**
 * The fields that changed between `before` and `after`, as stored in an audit entry.
 * - Update (both given): the fields `after` holds (the whole new row, or only those written) whose
 *   value differs from `before`'s; null when none did (nothing to record).
 * - Create (no `before`) and delete (no `after`): the fields that have a value.
 * - Neither: an action without field changes (a publish, a resend): `{}`.
 * Secrets (by name, or marked with `secret`) are compared by value but stored as "[redacted]".
 */
export function auditChanges(
  before: Fields | null | undefined,
  after: Fields | null | undefined,
): Record<string, AuditFieldChange> | null {
  const changes: Record<string, AuditFieldChange> = {};
  if (before && after) {
    for (const field of Object.keys(after).sort()) {
      if (after[field] === undefined || same(before[field], after[field], field)) continue;
      changes[field] = {
        before: normalise(before[field], false, field) ?? null,
        after: normalise(after[field], false, field) ?? null,
      };
    }
    return Object.keys(changes).length ? changes : null;
  }
  const only = after ?? before;
  if (!only) return changes;
  const side = after ? 'after' : 'before';
  for (const field of Object.keys(only).sort()) {
    const value = normalise(only[field], false, field);
    if (value === undefined || value === null) continue;
    changes[field] = { [side]: value };
  }
  return changes;
}
