import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MEDIA_UPLOAD_MAX_BYTES } from '@app/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { BODY_LIMIT_BYTES } from '../lib/limits';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, type TestApp } from '../test/harness';
import { createStaff } from '../test/staff';
import { KNOWN_FAILURES, matches } from './known-failures';
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
import { documents, type Operation, operationsOf, type PageRoute, pageRoutesOf } from './sweep-targets';

// Every API operation of the OpenAPI document and every page route of the web
// build's manifest, requested as five callers with a valid request and with malformed ones. Every
// answer must be a documented status with the error envelope (pages: HTML, a redirect with a
// Location), never a 5xx; malformed input must be refused (4xx); nothing may log an error or leave
// an unhandled rejection, and the server answers /healthz at the end. Needs the web build
// (npm run build -w @app/web; npm test builds it). SWEEP_REPORT=<file> writes every failure as JSON.
// It runs on PostgreSQL too (decision 083): files that only render pages or refuse input run on PGlite
// alone, and this is where each route still reaches its SQL on a real server once.

// SWEEP_WEB_BUILD: a copy of the build, for a run while someone rebuilds apps/web/build.
const WEB_BUILD = process.env.SWEEP_WEB_BUILD ?? fileURLToPath(new URL('../../../web/build', import.meta.url));
const LIGHTING = SEEDED_HOSTS.lighting.host;
const GARDEN = SEEDED_HOSTS.garden.host;
const REQUEST_TIMEOUT_MS = 20_000;

type CallerName = 'visitor' | 'shopper' | 'staff-no-permission' | 'other-store-owner' | 'owner';
interface Caller {
  name: CallerName;
  host: string;
  headers: Record<string, string>;
  remoteAddress: string;
  /** Signs in again (a valid logout or a staff removal in the sweep ends the session). */
  renew?: () => Promise<Record<string, string>>;
}

interface Variant {
  label: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** Malformed input: the answer must refuse it (4xx). */
  mustRefuse?: boolean;
}

interface Failure {
  kind: string;
  target: string;
  caller: CallerName;
  variant: string;
  status: number | null;
  url: string;
  detail: string;
  logged: string[];
}

let t: TestApp;
const logLines: {
  level: number;
  reqId?: string;
  msg?: string;
  err?: { type?: string; message?: string; stack?: string };
}[] = [];
const callers: Caller[] = [];
const failures: Failure[] = [];
const statuses = new Map<number, number>();
let requests = 0;
/** Every request and its status, written with SWEEP_REPORT. */
const trace: string[] = [];
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);
let consoleErrors: string[] = [];

beforeAll(async () => {
  process.on('unhandledRejection', onRejection);
  t = await createTestApp({
    webBuildDir: WEB_BUILD,
    // Errors the server logs are kept so a failure can name its cause.
    logger: {
      level: 'error',
      stream: {
        write(line: string) {
          try {
            logLines.push(JSON.parse(line));
          } catch {
            logLines.push({ level: 50, msg: line });
          }
        },
      },
    },
  });
}, 120_000);

afterAll(async () => {
  process.off('unhandledRejection', onRejection);
  await t?.close();
});

// ---------------------------------------------------------------------------------------------
// Callers

function ip(): string {
  return `10.${1 + ((randomBytes(1)[0] ?? 0) % 250)}.${randomBytes(1)[0]}.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;
}

async function login(email: string, password: string, host: string): Promise<BrowserSession> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/skulocity/api/v1/login',
    headers: { host },
    payload: { email, password },
    // A fresh address each time: the sweep's own failed logins must not lock its callers out.
    remoteAddress: ip(),
  });
  if (res.statusCode !== 200) throw new Error(`login of ${email} on ${host} failed: ${res.statusCode} ${res.body}`);
  return {
    cookie: String(res.headers['set-cookie']).split(';')[0] ?? '',
    'x-csrf-token': res.json().data.csrfToken as string,
  };
}

async function visitorHeaders(): Promise<Record<string, string>> {
  // A browser before login: its own CSRF cookie and the token bound to it.
  const res = await t.app.inject({ url: '/skulocity/api/v1/public/ecommerce/csrftoken', headers: { host: LIGHTING } });
  return { cookie: String(res.headers['set-cookie']).split(';')[0] ?? '', 'x-csrf-token': res.json().data.csrfToken };
}

let staffSerial = 0;
async function setUpCallers() {
  const person = (name: CallerName, email: string, host: string): Caller => ({
    name,
    host,
    headers: {},
    remoteAddress: ip(),
    renew: async () => ({ ...(await login(email, 'owner-demo-1', host)) }),
  });
  callers.push({
    name: 'visitor',
    host: LIGHTING,
    headers: await visitorHeaders(),
    remoteAddress: ip(),
    renew: visitorHeaders,
  });
  callers.push({
    ...person('shopper', 'shopper@lighting.test', LIGHTING),
    renew: async () => ({ ...(await login('shopper@lighting.test', 'shopper-demo-1', LIGHTING)) }),
  });
  const staff: Caller = {
    name: 'staff-no-permission',
    host: LIGHTING,
    headers: {},
    remoteAddress: ip(),
    // A staff removal the sweep sends may remove this member: then a new one takes their place.
    renew: async () => {
      const email = `sweep-staff-${++staffSerial}@lighting.test`;
      await createStaff(t.database, 'lighting', email, []);
      return { ...(await login(email, 'owner-demo-1', LIGHTING)) };
    },
  };
  callers.push(staff);
  // Another store's owner, signed in at their own store, naming this store's ids.
  callers.push(person('other-store-owner', 'owner@garden.test', GARDEN));
  callers.push(person('owner', 'owner@lighting.test', LIGHTING));
  for (const c of callers) if (c.name !== 'visitor' && c.renew) c.headers = await c.renew();
}

/** Whether a signed-in caller is still signed in (profile/view answers 401 otherwise). */
async function ensureSession(c: Caller) {
  if (c.name === 'visitor' || !c.renew) return;
  const res = await t.app.inject({
    method: 'POST',
    url: '/skulocity/api/v1/ecommerce/profile/view',
    headers: { host: c.host, ...c.headers },
    remoteAddress: c.remoteAddress,
  });
  if (res.statusCode === 401) c.headers = await c.renew();
}

// ---------------------------------------------------------------------------------------------
// Real ids: every value the store answered, by property name, and where it was read

type Seen = { from: string; key: string; value: unknown };
const seen: Record<string, Seen[]> = {};

function harvest(caller: CallerName, from: string, body: unknown) {
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

/** Callers other than the visitor and the owner get the valid request and these few probes. */
const FEW = new Set(['valid', 'valid, unknown ids', 'bad JSON', 'malformed multipart']);

function operationVariants(op: Operation, caller: Caller): Variant[] {
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
  const json = (label: string, body: unknown, mustRefuse = true): Variant => ({
    label,
    method: op.method,
    url: url(real),
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
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
      out.push(json('oversized body', { sweep: 'x'.repeat(BODY_LIMIT_BYTES + 1) }));
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

const isEnvelope = (body: unknown): boolean => {
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

async function send(caller: Caller, v: Variant) {
  consoleErrors = [];
  const logStart = logLines.length;
  let timer: NodeJS.Timeout | undefined;
  let broken: string | null = null;
  const res = await Promise.race([
    t.app
      .inject({
        method: v.method as 'GET',
        url: v.url,
        headers: { host: caller.host, ...caller.headers, ...v.headers },
        ...(v.payload !== undefined ? { payload: v.payload } : {}),
        remoteAddress: caller.remoteAddress,
      })
      .catch((err: Error) => {
        // The server cut its answer off (a stream that failed after its first bytes).
        broken = err.message;
        return null;
      }),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), REQUEST_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
  requests++;
  if (process.env.SWEEP_REPORT)
    trace.push(
      `${res?.statusCode ?? 'none'} ${caller.name} ${v.method} ${v.url.slice(0, 200)} · ${v.label}${
        v.label === 'valid' && res && res.statusCode >= 400 && !v.url.includes('.data')
          ? ` · ${res.body.slice(0, 200)}`
          : ''
      }`,
    );
  if (res) statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  const logged = logLines
    .slice(logStart)
    .filter((l) => l.level >= 50)
    .map((l) =>
      `${l.msg ?? ''}${l.err ? ` ${l.err.type ?? ''}: ${l.err.message ?? ''} ${(l.err.stack ?? '').split('\n')[1]?.trim() ?? ''}` : ''}`.trim(),
    )
    .concat(consoleErrors.map((e) => `console.error: ${e.slice(0, 400)}`));
  return { res, logged, broken: broken as string | null };
}

function fail(f: Omit<Failure, 'logged'> & { logged?: string[] }) {
  failures.push({ logged: [], ...f });
}

function check(
  target: string,
  caller: Caller,
  v: Variant,
  res: Awaited<ReturnType<typeof send>>,
  rules: { op?: Operation; page?: PageRoute; loginAfter?: string },
) {
  const { logged } = res;
  const base = { target, caller: caller.name, variant: v.label, url: v.url.slice(0, 300), logged };
  if (res.broken) return fail({ ...base, kind: 'answer cut off', status: null, detail: res.broken });
  if (!res.res)
    return fail({ ...base, kind: 'no answer', status: null, detail: `no answer within ${REQUEST_TIMEOUT_MS} ms` });
  const r = res.res;
  const status = r.statusCode;
  const body = r.body.slice(0, 300);
  if (status >= 500) return fail({ ...base, kind: '5xx', status, detail: body });
  if (rules.op) {
    if (!documents(rules.op, status))
      fail({ ...base, kind: 'undocumented status', status, detail: `documented: ${rules.op.responses.join(',')}` });
    if (status >= 400) {
      let parsed: unknown = null;
      try {
        parsed = r.json();
      } catch {}
      if (!isEnvelope(parsed))
        fail({ ...base, kind: 'no error envelope', status, detail: `${r.headers['content-type']} ${body}` });
    }
  }
  if (rules.page) {
    if (status >= 300 && status < 400 && !r.headers.location)
      fail({ ...base, kind: 'redirect without Location', status, detail: '' });
    const html = String(r.headers['content-type']).startsWith('text/html');
    if ((status < 300 || status >= 400) && rules.page.hasComponent && !v.url.includes('.data') && !html) {
      fail({ ...base, kind: 'page not HTML', status, detail: String(r.headers['content-type']) });
    }
    if (
      rules.page.guarded &&
      caller.name === 'visitor' &&
      v.label === 'valid' &&
      !String(rules.loginAfter).startsWith('/auth/login')
    ) {
      fail({
        ...base,
        kind: 'guarded page did not send a visitor to login',
        status,
        detail: `ended at ${rules.loginAfter}`,
      });
    }
  }
  if (v.mustRefuse && status < 400) fail({ ...base, kind: 'malformed input accepted', status, detail: body });
  if (logged.length && status < 500) fail({ ...base, kind: 'logged an error', status, detail: body });
}

// ---------------------------------------------------------------------------------------------
// Pages

function pageVariants(route: PageRoute, caller: Caller): Variant[] {
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
      ...form(`intent=sweep&x=${'x'.repeat(BODY_LIMIT_BYTES + 1)}`),
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

// ---------------------------------------------------------------------------------------------

it('every page and every API operation, as every caller, valid and malformed: no 5xx, documented answers', async () => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(
      args.map((a) => (a instanceof Error ? `${a.message} ${a.stack?.split('\n')[1] ?? ''}` : String(a))).join(' '),
    );
  });
  const started = performance.now();
  await setUpCallers();

  const doc = (await t.app.inject({ url: '/api/openapi.json', headers: { host: LIGHTING } })).json();
  const operations = operationsOf(doc);
  const pages = await pageRoutesOf(WEB_BUILD);
  expect(operations.length).toBeGreaterThan(100);
  expect(pages.length).toBeGreaterThan(50);

  // Real ids first: every GET the owner and the shopper may call, twice (the second round can fill
  // path parameters from what the first one read).
  for (const round of [0, 1]) {
    for (const op of operations.filter(
      (o) => o.method === 'GET' && o.parameters.some((p) => p.in === 'path') === (round === 1),
    )) {
      for (const c of callers.filter((x) => x.name === 'owner' || x.name === 'shopper')) {
        const v = operationVariants(op, c)[0];
        if (!v) continue;
        // The smallest page, so that a list of a few rows still answers a cursor for the next one.
        const size = op.parameters.find((p) => p.in === 'query' && /^(limit|pageSize)$/.test(p.name));
        const url = size
          ? `${v.url}${v.url.includes('?') ? '&' : '?'}${size.name}=${size.schema?.minimum ?? 1}`
          : v.url;
        const res = await t.app
          .inject({
            method: 'GET',
            url,
            headers: { host: c.host, ...c.headers, ...v.headers },
            remoteAddress: c.remoteAddress,
          })
          .catch(() => null);
        if (res?.statusCode === 200 && String(res.headers['content-type']).includes('json'))
          harvest(c.name, op.path, res.json());
      }
    }
  }

  // Pages, then reads, then writes, then deletions (a deletion may take away what others read).
  const order = (o: Operation) => (o.method === 'GET' ? 0 : o.method === 'DELETE' ? 2 : 1);
  const sortedOps = [...operations].sort((a, b) => order(a) - order(b));
  let pageRequests = 0;
  const spent = new Map<string, number>();
  const timed = async (target: string, work: () => Promise<void>) => {
    const t0 = performance.now();
    await work();
    spent.set(target, (spent.get(target) ?? 0) + performance.now() - t0);
  };
  const pagesStarted = performance.now();
  for (const route of pages) {
    await timed(`PAGE ${route.path}`, async () => {
      for (const c of callers) {
        for (const v of pageVariants(route, c)) {
          pageRequests++;
          const res = await send(c, v);
          // A visitor at a guarded page is sent to login, possibly through the guard's own redirects.
          let location = String(res.res?.headers.location ?? `${res.res?.statusCode}`);
          for (let hop = 0; hop < 4 && route.guarded && c.name === 'visitor' && v.label === 'valid'; hop++) {
            if (!location.startsWith('/') || location.startsWith('/auth/login')) break;
            const next = await t.app.inject({
              url: location,
              headers: { host: c.host, ...c.headers },
              remoteAddress: c.remoteAddress,
            });
            location = String(next.headers.location ?? `${next.statusCode} at ${location}`);
          }
          check(`PAGE ${route.path}`, c, v, res, { page: route, loginAfter: location });
        }
        // A form post may end the session (the logout page does): the next route gets it back.
        if (route.hasAction) await ensureSession(c);
      }
    });
  }
  const pagesSeconds = (performance.now() - pagesStarted) / 1000;
  for (const op of sortedOps) {
    await timed(`${op.method} ${op.path}`, async () => {
      for (const c of callers) {
        for (const v of operationVariants(op, c)) check(`${op.method} ${op.path}`, c, v, await send(c, v), { op });
        if (op.method !== 'GET') await ensureSession(c);
      }
    });
  }

  // Still up: the process answers, the database too, and nothing was left rejected.
  const health = await t.app.inject({ url: '/healthz', headers: { host: LIGHTING } });
  const ready = await t.app.inject({ url: '/readyz', headers: { host: LIGHTING } });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);

  const keyOf = (f: Failure) => `${f.kind} · ${f.target} · ${f.caller} · ${f.variant}`;
  const unexpected = failures.filter((f) => !KNOWN_FAILURES.some((k) => matches(k.match, keyOf(f))));
  const stale = KNOWN_FAILURES.filter((k) => !failures.some((f) => matches(k.match, keyOf(f))));
  const statusList = [...statuses.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}:${n}`)
    .join(' ');
  console.log(
    `SWEEP pages=${pages.length} operations=${operations.length} callers=${callers.length} requests=${requests} ` +
      `(pages ${pageRequests}) statuses ${statusList} failures=${failures.length} (known ${failures.length - unexpected.length}, ` +
      `new ${unexpected.length}) unhandled-rejections=${rejections.length} time=${seconds}s`,
  );
  if (process.env.SWEEP_REPORT) {
    const slowest = [...spent.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
    console.log(
      `SWEEP pages took ${pagesSeconds.toFixed(1)}s; slowest: ${slowest.map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)}s`).join('; ')}`,
    );
    writeFileSync(
      process.env.SWEEP_REPORT,
      JSON.stringify({ failures, rejections: rejections.map(String), seen, trace }, null, 1),
    );
  }
  // One line per distinct failure (kind, target, variant), with the callers that met it.
  const grouped = new Map<string, { f: Failure; callers: Set<string> }>();
  for (const f of unexpected) {
    const k = `${f.kind} · ${f.target} · ${f.variant}`;
    const g = grouped.get(k) ?? { f, callers: new Set() };
    g.callers.add(f.caller);
    grouped.set(k, g);
  }
  const lines = [...grouped.entries()].map(
    ([k, g]) =>
      `${k} · ${[...g.callers].join(',')} → ${g.f.status} ${g.f.detail.slice(0, 160)}${g.f.logged[0] ? ` | logged: ${g.f.logged[0].slice(0, 200)}` : ''}`,
  );

  expect(health.statusCode).toBe(200);
  expect(ready.statusCode).toBe(200);
  expect(rejections.map(String)).toEqual([]);
  expect(lines).toEqual([]);
  expect(stale.map((k) => `fixed, delete from KNOWN_FAILURES: ${k.match}`)).toEqual([]);
}, 600_000);
