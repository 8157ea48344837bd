import type { TokenAnswer, TokenCache } from './oauth-token';
import type { QuotedService, RateOutcome } from './rate-provider';

/** One answer of a carrier's API: its status and JSON body, or why there is none. */
export type HttpAnswer = { status: number; body: unknown } | { failed: 'timeout' | 'error' };

/**
 * A request to a carrier with a deadline. A timeout or a broken connection comes back as a value,
 * never thrown; the body is read as JSON when it is JSON. No redirects: a credential never follows one.
 */
export async function carrierRequest(
  fetchFn: typeof fetch,
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<HttpAnswer> {
  try {
    const res = await fetchFn(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { status: res.status, body };
  } catch (err) {
    const name = (err as { name?: string } | null)?.name;
    return { failed: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'error' };
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first error's code and message of an answer, for a log line (never the request's secrets). */
export function firstError(body: unknown): string | undefined {
  const fromList = (list: unknown) => {
    if (!Array.isArray(list) || !isObject(list[0])) return undefined;
    return `${String(list[0].code ?? '')} ${String(list[0].message ?? '')}`.trim().slice(0, 200);
  };
  if (!isObject(body)) return undefined;
  // UPS: { response: { errors: [{ code, message }] } }; FedEx: { errors: [{ code, message }] }.
  return fromList(isObject(body.response) ? body.response.errors : undefined) ?? fromList(body.errors);
}

/**
 * One rate request with the account's token, the same for every carrier: a 401 (a token the
 * carrier no longer takes: expired early, revoked) gets a new token, once; anything else that is not
 * a 200 with services is `unavailable`, so checkout goes on with the store's own rates.
 */
export async function rateWithToken(
  tokens: TokenCache,
  ask: (token: string) => Promise<HttpAnswer>,
  servicesOf: (body: unknown) => QuotedService[] | null,
  missing: string,
): Promise<RateOutcome> {
  for (let attempt = 0; ; attempt++) {
    const t = await tokens.get();
    if (!t.ok) return { kind: 'unavailable', reason: t.outcome === 'refused' ? 'refused' : 'error' };
    const answer = await ask(t.token);
    if ('failed' in answer) return { kind: 'unavailable', reason: answer.failed };
    if (answer.status === 401 && attempt === 0) {
      tokens.invalidate(t.token);
      continue;
    }
    if (answer.status !== 200) {
      return {
        kind: 'unavailable',
        reason: 'error',
        detail: `${answer.status} ${firstError(answer.body) ?? ''}`.trim(),
      };
    }
    const services = servicesOf(answer.body);
    if (!services) return { kind: 'unavailable', reason: 'error', detail: missing };
    return { kind: 'rates', services };
  }
}

/**
 * A token endpoint's answer read the same for UPS and FedEx (both OAuth client credentials):
 * `access_token` and `expires_in` (seconds; UPS sends a string, FedEx a number; a minute if absent).
 * 400, 401 and 403 say the credentials do not work; a lost connection or anything else says nothing.
 */
export function tokenAnswerOf(answer: HttpAnswer): TokenAnswer {
  if ('failed' in answer) return { ok: false, outcome: 'unreachable' };
  const body = answer.body;
  if (answer.status === 200 && isObject(body) && typeof body.access_token === 'string') {
    const expires = Number(body.expires_in);
    return { ok: true, token: body.access_token, expiresInS: Number.isFinite(expires) && expires > 0 ? expires : 60 };
  }
  if (answer.status === 401 || answer.status === 400 || answer.status === 403) return { ok: false, outcome: 'refused' };
  return { ok: false, outcome: 'unreachable' };
}
