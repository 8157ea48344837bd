const SOCKET_CODES = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'];
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|the database system is (starting up|shutting down|in recovery mode)|PGlite is closed/;

/**
 * Whether an error means the database cannot be reached now (rather than that a query was wrong):
 * the server is down, restarting or shutting down, the connection dropped, or no connection could
 * be had in time. Such a request may succeed if retried later, so it answers 503, not 500.
 * Looks through `cause`, where drizzle keeps the driver's error, and through an AggregateError's
 * `errors` (one per address tried, when a host name has several).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  for (let e = err; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      // Socket-level: refused (down), reset or cut (crash), timed out, name lookup failed.
      if (SOCKET_CODES.includes(code)) return true;
      // SQLSTATE class 08 (connection exception); 57P01 admin shutdown, 57P02 crash shutdown,
      // 57P03 cannot connect now (starting up or in recovery).
      if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return true;
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  }
  return false;
}
