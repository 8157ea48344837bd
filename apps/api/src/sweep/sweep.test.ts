import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, type TestApp } from '../test/harness';
import { createStaff } from '../test/staff';
import { KNOWN_FAILURES, matches } from './known-failures';
import {
  type Caller,
  type CallerName,
  harvest,
  isEnvelope,
  operationVariants,
  pageVariants,
  seen,
  type Variant,
} from './sweep-requests';
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
