import { isRealDay } from '@app/contracts';
import { AppError } from './errors';

/**
 * The cursor of a keyset-paged list: which sort (and way) it belongs to, the last row's sort value
 * as PostgreSQL wrote it (`col::text`) and the row's id, as base64url JSON.
 *
 * A cursor comes back from the client, so it is input like any other: the value is cast
 * back to its column's type in SQL, and a hand-made one ("abc" for a total, 2026-02-30 for a date,
 * a NUL byte) used to reach that cast and answer 500. Each value is checked against its type here,
 * before any query, and a cursor that fails is a 400 naming the `cursor` field.
 */
export type KeyType = 'timestamptz' | 'integer' | 'bigint' | 'text';

const INT_LIMITS: Record<'integer' | 'bigint', bigint> = { integer: 2n ** 31n, bigint: 2n ** 63n };
/** PostgreSQL's text form of a timestamptz: 2026-05-01 10:00:00.123456+00 (also with T, Z or +hh:mm). */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-]\d{2}(:?[0-5]\d)?)$/;

/** Whether `value` is a text PostgreSQL reads back as `type` without an error. */
export function fitsKeyType(type: KeyType, value: string): boolean {
  if (value.includes('\u0000') || value.length > 512) return false;
  switch (type) {
    case 'text':
      return true;
    case 'integer':
    case 'bigint': {
      if (!/^-?\d{1,19}$/.test(value)) return false;
      const n = BigInt(value);
      return n >= -INT_LIMITS[type] && n < INT_LIMITS[type];
    }
    case 'timestamptz': {
      if (value === '-infinity' || value === 'infinity') return true;
      const m = TIMESTAMP.exec(value);
      return Boolean(m?.[1] && isRealDay(m[1]));
    }
  }
}

const invalid = () =>
  AppError.field(400, 'VALIDATION_FAILED', 'cursor', 'is not valid for this sort; start from the first page');

export function encodeKeysetCursor(tags: readonly string[], key: string, id: string): string {
  return Buffer.from(JSON.stringify([...tags, key, id])).toString('base64url');
}

/**
 * The key and id of a cursor made by `encodeKeysetCursor` with the same `tags` (the sort, a
 * direction...), with the key fitting `type` and the id a plain text of at most `idMax`; else 400.
 * A tag given as a list accepts any of its values, returned in `tags`.
 */
export function decodeKeysetCursor(
  text: string,
  tags: readonly (string | readonly string[])[],
  type: KeyType,
  idMax = 200,
): { tags: string[]; key: string; id: string } {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(v) || v.length !== tags.length + 2) throw invalid();
  const got: string[] = [];
  for (const [i, want] of tags.entries()) {
    const t = v[i];
    if (typeof t !== 'string' || !(typeof want === 'string' ? t === want : want.includes(t))) throw invalid();
    got.push(t);
  }
  const key = v[tags.length];
  const id = v[tags.length + 1];
  if (typeof key !== 'string' || !fitsKeyType(type, key)) throw invalid();
  if (typeof id !== 'string' || id.length > idMax || id.includes('\u0000')) throw invalid();
  return { tags: got, key, id };
}

/**
 * Whether a cursor's time is one `Date.toISOString()` wrote: `Date.parse` reads 2026-02-30 as
 * 2 March, so a hand-made impossible date would otherwise page from a day nobody chose.
 */
export function isCursorTime(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text)) return false;
  const t = Date.parse(text);
  return !Number.isNaN(t) && new Date(t).toISOString() === text;
}

/** The cursor of a list paged newest first by (created time, id): `[iso time, id]` as base64url JSON. */
export function encodeTimeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

/** The time and id of an `encodeTimeCursor` cursor; a 400 naming `cursor` for anything else. */
export function decodeTimeCursor(cursor: string): { at: Date; id: string } {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch {
    v = null;
  }
  if (
    Array.isArray(v) &&
    v.length === 2 &&
    typeof v[0] === 'string' &&
    isCursorTime(v[0]) &&
    typeof v[1] === 'string' &&
    v[1].length <= 200 &&
    !v[1].includes('\u0000')
  ) {
    return { at: new Date(v[0]), id: v[1] };
  }
  throw AppError.field(400, 'BAD_REQUEST', 'cursor', 'not a cursor of this list; start again without it.');
}
