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
