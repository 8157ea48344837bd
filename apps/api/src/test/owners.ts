import type { Db } from '@app/db';
import { schema } from '@app/db';
import { and, count, eq } from 'drizzle-orm';
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

/** The store's audit entries (of one entity, when named): a write that changes nothing adds none. */
export async function auditEntries(db: Db, tenantId: string, entity?: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.tenantId, tenantId), entity ? eq(schema.auditLog.entity, entity) : undefined));
  return row?.n ?? 0;
}
