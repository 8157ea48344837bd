import { SEED_OPERATOR } from '@app/db/seed';
import type { TestApp } from '../../test/harness';

/** The platform's own host in tests (decision 103). */
export const PLATFORM = 'platform.localhost';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The seeded operator signed in on the platform host, and requests sent as them: what every operator
 * test starts with (the console's cookie and its CSRF token, as a browser sends them).
 */
export async function signInOperator(t: TestApp) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/platform-api/session',
    headers: { host: PLATFORM },
    payload: { email: SEED_OPERATOR.email, password: SEED_OPERATOR.password },
  });
  if (res.statusCode !== 200) throw new Error(`operator sign-in: ${res.statusCode} ${res.body}`);
  const cookie = String(res.headers['set-cookie']).split(';')[0] as string;
  const csrf: string = res.json().data.session.csrfToken;
  /** A request as the operator; `type` sets the content type (an archive upload). */
  const request = (method: Method, url: string, payload?: object | Buffer, type?: string) =>
    t.app.inject({
      method,
      url,
      headers: { host: PLATFORM, cookie, 'x-csrf-token': csrf, ...(type ? { 'content-type': type } : {}) },
      ...(payload ? { payload } : {}),
    });
  /** A lifecycle action on a store (suspend, close, ...), with the reason the console asks for. */
  const act = (tenantId: string, action: string, reason = 'Checked by the trust team.') =>
    request('POST', `/platform-api/stores/${tenantId}/actions/${action}`, { reason });
  return { cookie, csrf, request, act };
}
