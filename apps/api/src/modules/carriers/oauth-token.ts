import type { AuthOutcome } from './rate-provider';

/** What a token endpoint answered: a token and its lifetime, or why not. */
export type TokenAnswer =
  | { ok: true; token: string; expiresInS: number }
  | { ok: false; outcome: Exclude<AuthOutcome, 'ok'> };

/**
 * An OAuth client-credentials token kept until shortly before it expires (a tenth of its life, at
 * most a minute early), so a checkout does not pay for a token round trip. Callers at once share
 * one fetch; `invalidate` (a 401 from the carrier: the token was revoked or expired early) makes the
 * next call fetch again.
 */
export function createTokenCache(fetchToken: () => Promise<TokenAnswer>, now: () => number = Date.now) {
  let kept: { token: string; refreshAt: number } | null = null;
  let pending: Promise<TokenAnswer> | null = null;

  return {
    async get(): Promise<TokenAnswer> {
      if (kept && now() < kept.refreshAt) return { ok: true, token: kept.token, expiresInS: 0 };
      if (!pending) {
        pending = fetchToken()
          .then((answer) => {
            if (answer.ok) {
              const lifeMs = answer.expiresInS * 1000;
              kept = { token: answer.token, refreshAt: now() + lifeMs - Math.min(60_000, lifeMs / 10) };
            }
            return answer;
          })
          .finally(() => {
            pending = null;
          });
      }
      return pending;
    },
    invalidate(token: string) {
      if (kept?.token === token) kept = null;
    },
  };
}
export type TokenCache = ReturnType<typeof createTokenCache>;
