import { schema } from '@app/db';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { apiClient } from '../../test/api-client';
import { createTestApp, type TestApp } from '../../test/harness';

export let t: TestApp;
export const LIGHTING = 'lighting.localhost';
export const GARDEN = 'garden.localhost';
export const shopper = { email: 'shopper@lighting.test', password: 'shopper-demo-1' };
export const owner = { email: 'owner@lighting.test', password: 'owner-demo-1' };

export const login = (payload: object, opts: { host?: string; ip?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/skulocity/api/v1/login',
    headers: { host: opts.host ?? LIGHTING, ...opts.headers },
    payload,
    remoteAddress: opts.ip ?? '10.0.0.1',
  });
export const profile = (headers: Record<string, string>, host = LIGHTING) =>
  t.app.inject({ method: 'POST', url: '/skulocity/api/v1/ecommerce/profile/view', headers: { host, ...headers } });
export const cookieOf = (res: { headers: Record<string, unknown> }) =>
  String(res.headers['set-cookie']).split(';')[0] ?? '';
/** Sign-in and profile as a client generated from the OpenAPI document calls them (decision 076). */
export const api = (headers: Record<string, string> = {}, host = LIGHTING) => apiClient(t.app, { host, headers });
export const typedLogin = (body: { email: string; password: string }) =>
  api().POST('/skulocity/api/v1/login', { body });
/** What a browser sends after this login: the cookie, and the CSRF token its pages carry. */
export const sessionOf = (res: { headers: Record<string, unknown>; json: () => { data: { csrfToken: string } } }) => ({
  cookie: cookieOf(res),
  'x-csrf-token': res.json().data.csrfToken,
});

/** Registers the hooks every part of this suite shares: call once at the top of each test file. */
export function useAuthTestApp(): void {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.database.db.delete(schema.authAttempts);
    await t.database.db.delete(schema.sessions);
  });
}
