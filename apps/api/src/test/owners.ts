import type { Db } from '@app/db';
import { schema } from '@app/db';
import { and, count, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { App } from '../lib/app-types';
import { type BrowserSession, SEEDED_HOSTS, type SeededTenant, signIn } from './harness';

/** Signs in the demo owner of each store named, into `owners` (kept by the test file). */
export async function signInOwners(
  app: App,
  owners: Partial<Record<SeededTenant, BrowserSession>>,
  tenants: readonly SeededTenant[],
) {
  for (const tenant of tenants) {
    owners[tenant] = await signIn(app, `owner@${tenant}.test`, 'owner-demo-1', SEEDED_HOSTS[tenant].host);
  }
}

/**
 * A call as a store's signed-in owner, on its own host, as its dashboard would send it (session
 * cookie, CSRF token, same origin). `app` is read at call time: test files build it in beforeAll.
 */
export function ownerCaller(app: () => App, owners: Partial<Record<SeededTenant, BrowserSession>>) {
  return (tenant: SeededTenant, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) => {
    const host = SEEDED_HOSTS[tenant].host;
    return app().inject({
      method,
      url,
      headers: { host, origin: `http://${host}`, ...owners[tenant] },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  };
}

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

/**
 * `call` and `ok` for a test that drives one store's owner API on `host`: `call` sends as `session`
 * (the owner by default, a visitor with null) as the dashboard would; `ok` expects 200 or 201 and
 * answers the `data`. `app` and `owner` are read at call time: test files sign in in beforeAll.
 */
export function storeCaller(app: () => App, host: string, owner: () => BrowserSession) {
  function call(method: Method, url: string, opts: { body?: unknown; session?: BrowserSession | null } = {}) {
    return app().inject({
      method,
      url,
      headers: { host, origin: `http://${host}`, ...(opts.session === null ? {} : (opts.session ?? owner())) },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
  }
  async function ok<T>(method: Method, url: string, body?: unknown, session: BrowserSession = owner()): Promise<T> {
    const res = await call(method, url, { body, session });
    expect([200, 201], `${method} ${url}: ${res.body}`).toContain(res.statusCode);
    return res.json().data as T;
  }
  return { call, ok };
}

/** The store's audit entries (of one entity, when named): a write that changes nothing adds none. */
export async function auditEntries(db: Db, tenantId: string, entity?: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.tenantId, tenantId), entity ? eq(schema.auditLog.entity, entity) : undefined));
  return row?.n ?? 0;
}
