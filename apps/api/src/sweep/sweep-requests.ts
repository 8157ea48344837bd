import { randomBytes } from 'node:crypto';
import { MEDIA_UPLOAD_MAX_BYTES } from '@app/contracts';
import { BODY_LIMIT_BYTES } from '../lib/limits';
import {
  cursorsFromReal,
  example,
  forgedCursors,
  impossibleDate,
  isDateField,
  type JsonSchema,
  type Known,
  leaves,
  setAt,
  typesOf,
  wrongValue,
} from './schema-values';
import type { Operation, PageRoute } from './sweep-targets';

// What the sweep sends: the callers' types, the ids it harvests from answers, and the valid and
// malformed variants of each API operation and page route. Kept apart from sweep.test.ts, which sends
// them and checks the answers.

export type CallerName = 'visitor' | 'shopper' | 'staff-no-permission' | 'other-store-owner' | 'owner';
export interface Caller {
  name: CallerName;
  host: string;
  headers: Record<string, string>;
  remoteAddress: string;
  /** Signs in again (a valid logout or a staff removal in the sweep ends the session). */
  renew?: () => Promise<Record<string, string>>;
}

export interface Variant {
  label: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** Malformed input: the answer must refuse it (4xx). */
  mustRefuse?: boolean;
}
// ---------------------------------------------------------------------------------------------
// Real ids: every value the store answered, by property name, and where it was read

type Seen = { from: string; key: string; value: unknown };
export const seen: Record<string, Seen[]> = {};

export function harvest(caller: CallerName, from: string, body: unknown) {
  seen[caller] ??= [];
  const list = seen[caller];
  const count = new Map<string, number>();
  const walk = (v: unknown, key: string, depth: number) => {
    if (depth > 8 || v === null || v === undefined) return;
    if (Array.isArray(v)) {
      for (const x of v.slice(0, 25)) walk(x, key, depth + 1);
    } else if (typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, k, depth + 1);
    } else if (key && (typeof v === 'string' || typeof v === 'number') && String(v).length <= 200) {
      const n = count.get(key) ?? 0;
      if (n < 10 && !list.some((s) => s.from === from && s.key === key && s.value === v)) {
        count.set(key, n + 1);
        list.push({ from, key, value: v });
      }
    }
  };
  walk(body, '', 0);
}

const segmentsOf = (path: string) =>
  path
    .split('/')
    .filter(
      (s) =>
        s && !s.startsWith('{') && !s.startsWith(':') && !['api', 'v1', 'skulocity', 'public', 'ecommerce'].includes(s),
    );

const singular = (s: string) => s.replace(/ies$/, 'y').replace(/s$/, '');
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The values a caller's request may use for a parameter or field called `name` on `target`, best
 * first: what the caller itself read before what the owner or the shopper read; a field of that
 * very name, else (for `fooId`) one ending in `FooId`, else (for a bare `id`) any `...Id`; and among
 * those, the ones whose name holds a word of the target's path (`bannerId` for .../banner/update/{id})
 * and that were read from an operation sharing most path segments with the target.
 */
function knownFor(caller: CallerName, target: string): (name: string) => unknown[] {
  const pools = [seen[caller] ?? [], seen.owner ?? [], seen.shopper ?? []];
  const targetSegments = new Set(segmentsOf(target));
  const words = [...targetSegments]
    .flatMap((s) => s.split(/[-_.]/))
    .map(singular)
    .filter((w) => w.length > 2);
  return (name) => {
    const scored: { score: number; value: unknown }[] = [];
    pools.forEach((pool, rank) => {
      for (const s of pool) {
        let score: number;
        if (s.key === name && name !== 'id') score = 50;
        else if (name === 'id' && (s.key === 'id' || s.key.endsWith('Id'))) score = s.key === 'id' ? 5 : 0;
        else if (/Id$/.test(name) && s.key.endsWith(cap(name))) score = 20;
        else if (/Id$/.test(name) && /[a-z]Id$/.test(s.key) && !/(Geo|Uom)Id$/.test(s.key)) score = -5;
        else continue;
        if (name === 'id' || score < 50) score += words.some((w) => s.key.toLowerCase().includes(w)) ? 30 : 0;
        const overlap = segmentsOf(s.from).filter((x) => targetSegments.has(x)).length;
        if (score < 0 && !overlap) continue;
        scored.push({ score: score + overlap * 10 - rank * 1000, value: s.value });
      }
    });
    return scored.sort((a, b) => b.score - a.score).map((x) => x.value);
  };
}

// ---------------------------------------------------------------------------------------------
// Requests

const UNKNOWN_IDS = ['sweep-unknown-9', '999999999', 'ZZ99999', 'nobody@example.com'];

function unknownValue(schema: JsonSchema | undefined): string {
  for (const v of UNKNOWN_IDS) {
    const s = schema ?? {};
    const okLength = (s.minLength ?? 0) <= v.length && v.length <= (s.maxLength ?? 1e9);
    let okPattern = true;
    try {
      okPattern = !s.pattern || new RegExp(s.pattern, 'u').test(v);
    } catch {}
    if (okLength && okPattern && !s.enum) return v;
  }
  return String(example(schema, 'unknown'));
}

function pathFor(op: Operation, values: Record<string, string>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? 'x').replace(/%2F/g, name === '*' ? '/' : '%2F'),
  );
}

function queryString(params: Record<string, string | string[]>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, x);
  const s = q.toString();
  return s ? `?${s}` : '';
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function multipartBody(fields: Record<string, unknown>, fileFields: string[], extraBytes = 0) {
  const boundary = `----sweep${randomBytes(6).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`,
      ),
    );
  }
  for (const f of fileFields) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f}"; filename="sweep.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.alloc(extraBytes),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const MALFORMED_MULTIPART = {
  payload: '--sweep\r\nContent-Disposition: form-data; name="a"\r\n\r\nnever closed',
  headers: { 'content-type': 'multipart/form-data; boundary=sweep' },
};

// A byte past the body limit, built once: every operation gets one as every caller, and making a
// megabyte string each time was about 3 % of the sweep's CPU.
const OVERSIZED_JSON = JSON.stringify({ sweep: 'x'.repeat(BODY_LIMIT_BYTES + 1) });
const OVERSIZED_FORM = `intent=sweep&x=${'x'.repeat(BODY_LIMIT_BYTES + 1)}`;

/** Callers other than the visitor and the owner get the valid request and these few probes. */
const FEW = new Set(['valid', 'valid, unknown ids', 'bad JSON', 'malformed multipart']);

export function operationVariants(op: Operation, caller: Caller): Variant[] {
  const known = knownFor(caller.name, op.path);
  const fieldKnown: Known = (name) => known(name);
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header');

  const real: Record<string, string> = {};
  const unknown: Record<string, string> = {};
  for (const p of pathParams) {
    const candidates = p.schema?.enum ? [] : known(p.name);
    real[p.name] = String(candidates[0] ?? example(p.schema, p.name));
    unknown[p.name] = p.schema?.enum ? String(p.schema.enum[0]) : unknownValue(p.schema);
  }
  const query: Record<string, string> = {};
  for (const p of queryParams.filter((q) => q.required)) {
    query[p.name] = String(known(p.name)[0] ?? example(p.schema, p.name, fieldKnown));
  }
  const headers: Record<string, string> = {};
  for (const p of headerParams.filter((h) => h.required || h.name === 'idempotency-key')) {
    headers[p.name] =
      p.name === 'idempotency-key' ? `sweep-${randomBytes(8).toString('hex')}` : String(example(p.schema, p.name));
  }

  const url = (values: Record<string, string>, q: Record<string, string | string[]> = query) =>
    `${pathFor(op, values)}${queryString(q)}`;
  const jsonSchema = op.body?.['application/json'];
  const multipartSchema = op.body?.['multipart/form-data'];
  const takesBody = op.body !== null;
  const out: Variant[] = [];
  const json = (label: string, body: unknown, mustRefuse = true, payload = JSON.stringify(body)): Variant => ({
    label,
    method: op.method,
    url: url(real),
    headers: { ...headers, 'content-type': 'application/json' },
    payload,
    mustRefuse,
  });

  // The valid request, with real ids, then with ids no store has.
  const valid = jsonSchema ? example(jsonSchema, '', fieldKnown) : undefined;
  const validBody = (): Partial<Variant> => {
    if (jsonSchema)
      return { headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(valid ?? {}) };
    if (multipartSchema) {
      const ex = (example(multipartSchema, '', fieldKnown) ?? {}) as Record<string, unknown>;
      const props = Object.entries(multipartSchema.properties ?? multipartSchema.anyOf?.[0]?.properties ?? {});
      const files = props
        .filter(([k, s]) => k === 'file' || s?.format === 'binary' || /binary/i.test(String(s?.description)))
        .map(([k]) => k);
      for (const f of files) delete ex[f];
      const mp = multipartBody(ex, files);
      return { headers: { ...headers, ...mp.headers }, payload: mp.payload };
    }
    return { headers };
  };
  out.push({ label: 'valid', method: op.method, url: url(real), ...validBody() });
  if (pathParams.some((p) => !p.schema?.enum))
    out.push({ label: 'valid, unknown ids', method: op.method, url: url(unknown), ...validBody() });

  // Bodies no client should send.
  if (op.method !== 'GET') {
    out.push({
      label: 'bad JSON',
      method: op.method,
      url: url(real),
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"sweep": ',
      mustRefuse: takesBody,
    });
    out.push({
      label: 'malformed multipart',
      method: op.method,
      url: url(real),
      headers: { ...headers, ...MALFORMED_MULTIPART.headers },
      payload: MALFORMED_MULTIPART.payload,
      mustRefuse: takesBody,
    });
  }
  if (takesBody) {
    const big = multipartSchema && !jsonSchema;
    if (big) {
      const mp = multipartBody({}, ['file'], MEDIA_UPLOAD_MAX_BYTES + 64 * 1024);
      out.push({
        label: 'oversized body',
        method: op.method,
        url: url(real),
        headers: { ...headers, ...mp.headers },
        payload: mp.payload,
        mustRefuse: true,
      });
    } else {
      out.push(json('oversized body', undefined, true, OVERSIZED_JSON));
    }
  }
  if (jsonSchema) {
    const types = typesOf(jsonSchema);
    if (!types.has('null')) out.push(json('null body', null));
    if (!types.has('array')) out.push(json('array body', []));
    if (!types.has('boolean')) out.push(json('boolean body', true));
    if (valid && typeof valid === 'object' && !Array.isArray(valid)) {
      out.push(json('unknown field', { ...(valid as object), sweepUnknownField: 1 }));
    }
    const fields = leaves(valid, jsonSchema).slice(0, 16);
    for (const leaf of fields) {
      const name = leaf.path.join('.');
      const wrong = wrongValue(leaf.schema);
      if (wrong) out.push(json(`${wrong.label} at ${name}`, setAt(valid, leaf.path, wrong.value)));
      const leafTypes = typesOf(leaf.schema);
      if (!leafTypes.has('null') && leafTypes.size) out.push(json(`null at ${name}`, setAt(valid, leaf.path, null)));
      if (isDateField(String(leaf.path.at(-1)), leaf.schema)) {
        out.push(json(`impossible date at ${name}`, setAt(valid, leaf.path, impossibleDate(leaf.schema))));
      }
    }
    const firstText = fields.find((l) => typesOf(l.schema).has('string') && !l.schema?.enum);
    if (firstText)
      out.push(
        json(`control character at ${firstText.path.join('.')}`, setAt(valid, firstText.path, 'sweep\u0000\u001b')),
      );
  }

  // Query parameters: wrong types, impossible dates, forged cursors, repeated, control characters.
  const sorts = queryParams.find((p) => p.name === 'sort')?.schema?.enum ?? [];
  for (const p of queryParams) {
    const types = typesOf(p.schema);
    const withValue = (label: string, value: string | string[]) => {
      out.push({
        label,
        method: op.method,
        url: url(real, { ...query, [p.name]: value }),
        headers,
        mustRefuse: true,
        ...(op.method !== 'GET' ? validBody() : {}),
      });
    };
    if (types.has('number') && !types.has('string')) {
      withValue(`text for number in ?${p.name}`, 'abc');
      withValue(`hex for number in ?${p.name}`, '0x10');
    }
    if (p.schema?.enum) withValue(`unknown option in ?${p.name}`, 'sweep-no-such-option');
    if (types.has('boolean') && !types.has('string')) withValue(`not a boolean in ?${p.name}`, 'maybe');
    if (isDateField(p.name, p.schema)) withValue(`impossible date in ?${p.name}`, impossibleDate(p.schema));
    if (/cursor/i.test(p.name)) {
      // A real cursor of this list, read with the smallest page (see the harvest), forged too.
      const realCursor = [...(seen[caller.name] ?? []), ...(seen.owner ?? [])].find(
        (x) => x.from === op.path && /cursor/i.test(x.key),
      );
      const fromReal = realCursor ? cursorsFromReal(String(realCursor.value), sorts) : [];
      for (const c of [...forgedCursors(sorts), ...fromReal]) {
        out.push({
          label: `forged cursor (${c.label}) in ?${p.name}`,
          method: op.method,
          url: url(real, { ...query, [p.name]: c.value, ...(c.sort !== undefined ? { sort: String(c.sort) } : {}) }),
          headers,
          mustRefuse: !c.mayBeValid,
        });
      }
    }
    if (!types.has('array')) withValue(`repeated ?${p.name}`, [String(query[p.name] ?? 'a'), 'b']);
  }
  out.push({
    label: 'control character in query',
    method: op.method,
    url: `${url(real)}${Object.keys(query).length ? '&' : '?'}sweep=%07`,
    headers,
    mustRefuse: true,
    ...(op.method !== 'GET' ? validBody() : {}),
  });

  return caller.name === 'visitor' || caller.name === 'owner' ? out : out.filter((v) => FEW.has(v.label));
}

export const isEnvelope = (body: unknown): boolean => {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return (
    b.error === true &&
    typeof b.code === 'string' &&
    typeof b.message === 'string' &&
    Array.isArray(b.errors) &&
    !!b.data &&
    typeof (b.data as Record<string, unknown>).message === 'string' &&
    typeof b.requestId === 'string'
  );
};
// ---------------------------------------------------------------------------------------------
// Pages

export function pageVariants(route: PageRoute, caller: Caller): Variant[] {
  const known = knownFor(caller.name, route.path);
  const parts = route.path.split('/');
  const fill = (real: boolean) =>
    parts
      .map((seg) => {
        if (seg === '*') return 'sweep-no-such-page';
        if (!seg.startsWith(':')) return seg;
        const name = seg.slice(1).replace(/\?$/, '');
        const value = real ? known(name).find((x) => String(x).length > 0) : undefined;
        return encodeURIComponent(String(value ?? UNKNOWN_IDS[0]));
      })
      .join('/') || '/';
  const path = fill(true);
  const hasParams = /[:*]/.test(route.path);
  const out: Variant[] = [{ label: 'valid', method: 'GET', url: path }];
  if (hasParams) out.push({ label: 'valid, unknown ids', method: 'GET', url: fill(false) });
  // React Router's data request for client navigation, and the query strings a hand can type.
  out.push({ label: 'data request', method: 'GET', url: `${path === '/' ? '/_root' : path}.data` });
  out.push({
    label: 'junk query',
    method: 'GET',
    url: `${path}?page=-1&pageSize=abc&sort=zz&dir=sideways&from=2026-02-30&to=2026-02-30&cursor=${forgedCursors([])[3]?.value}&status=zz&q=${'q'.repeat(600)}`,
  });
  out.push({ label: 'control character in query', method: 'GET', url: `${path}?q=%07`, mustRefuse: true });
  if (route.hasAction) {
    const form = (body: string) => ({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${caller.host}` },
      payload: body,
    });
    out.push({ label: 'form post', ...form(`intent=sweep&_csrf=${caller.headers['x-csrf-token'] ?? ''}`) });
    out.push({ label: 'form post, control character', ...form(`intent=sweep&name=%00`), mustRefuse: true });
    out.push({
      label: 'form post, oversized',
      ...form(OVERSIZED_FORM),
      mustRefuse: true,
    });
    out.push({
      label: 'malformed multipart',
      method: 'POST',
      url: path,
      headers: { ...MALFORMED_MULTIPART.headers, origin: `http://${caller.host}` },
      payload: MALFORMED_MULTIPART.payload,
    });
    out.push({
      label: 'bad JSON',
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', origin: `http://${caller.host}` },
      payload: '{"sweep": ',
    });
  }
  // The other callers are about who may see a page: the malformed variants would repeat the owner's.
  return caller.name === 'visitor' || caller.name === 'owner'
    ? out
    : out.filter((v) => ['valid', 'valid, unknown ids', 'form post'].includes(v.label));
}
