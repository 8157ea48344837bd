import { schema } from '@app/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { AppEvents } from '../../../lib/events/index';
import { type BrowserSession, createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../../test/harness';
import { createStaff } from '../../../test/staff';

export const GARDEN: string = SEEDED_HOSTS.garden.host;
export const LIGHTING = SEEDED_HOSTS.lighting.host;
export const BASE = '/skulocity/api/v1/catalog';
export const seen: AppEvents['catalog.changed'][] = [];
export let t: TestApp;
export let owner: BrowserSession;
export let shopper: BrowserSession;
export let staffWith: BrowserSession;
export let staffWithout: BrowserSession;

export type Headers = Record<string, string>;
export const get = (path: string, headers: Headers = owner, host = GARDEN) =>
  t.app.inject({ method: 'GET', url: `${BASE}${path}`, headers: { host, ...headers } });
export const send = (method: 'POST' | 'PUT', path: string, body: unknown, headers: Headers = owner, host = GARDEN) =>
  t.app.inject({
    method,
    url: `${BASE}${path}`,
    headers: { host, origin: `http://${host}`, ...headers },
    payload: body as object,
  });
export const post = (path: string, body: unknown, headers?: Headers) => send('POST', path, body, headers);
export const put = (path: string, body: unknown, headers?: Headers) => send('PUT', path, body, headers);

/** The storefront's category bar data: catalog name -> its categories' ids. */
export async function bar(): Promise<Record<string, string[]>> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/skulocity/api/v1/public/ecommerce/categories',
    headers: { host: GARDEN },
  });
  expect(res.statusCode).toBe(200);
  const out: Record<string, string[]> = {};
  for (const c of res.json().data.catalogCol) {
    out[c.prodCatalogId] = c.categoryList.map((x: { productCategoryId: string }) => x.productCategoryId);
  }
  return out;
}

export const audits = (entityIds: string[]) =>
  t.database.db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.tenantId, 'garden'), inArray(schema.auditLog.entityId, entityIds)))
    .orderBy(asc(schema.auditLog.id));

export async function newCategory(categoryName: string, place: Record<string, string> = {}) {
  const res = await post('/category/createcategory', { categoryName, ...place });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.productCategoryId as string;
}

/** Registers the hooks every part of this suite shares: call once at the top of each test file. */
export function useCatalogAdminApp(): void {
  beforeAll(async () => {
    t = await createTestApp();
    await createStaff(t.database, 'garden', 'cat-staff@garden.test', ['catalog']);
    await createStaff(t.database, 'garden', 'order-staff@garden.test', ['orders']);
    [owner, shopper, staffWith, staffWithout] = await Promise.all([
      signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN),
      signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', GARDEN),
      signIn(t.app, 'cat-staff@garden.test', 'owner-demo-1', GARDEN),
      signIn(t.app, 'order-staff@garden.test', 'owner-demo-1', GARDEN),
    ]);
    t.services.events.on('catalog.changed', (p) => {
      seen.push(p);
    });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    seen.length = 0;
  });
}
