import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** How drizzle reports a failed query: its own error, the driver's in `cause`. */
const drizzle = (cause: unknown) => new Error('Failed query: select 1\nparams: ', { cause });

describe('isDatabaseUnavailable', () => {
  it('recognises an unreachable or restarting database however the error is wrapped', () => {
    expect(isDatabaseUnavailable(drizzle(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')))).toBe(true);
    expect(isDatabaseUnavailable(drizzle(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(
      isDatabaseUnavailable(drizzle(withCode('terminating connection due to administrator command', '57P01'))),
    ).toBe(true);
    expect(isDatabaseUnavailable(withCode('the database system is starting up', '57P03'))).toBe(true);
    // A host name with several addresses: one error per address tried, the code only on those.
    const aggregate = new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'connect failed');
    expect(isDatabaseUnavailable(drizzle(aggregate))).toBe(true);
    // The embedded database closed under a late request (shutdown).
    expect(isDatabaseUnavailable(drizzle(new Error('PGlite is closed')))).toBe(true);
  });

  it('leaves a wrong query or a broken rule to be what it is', () => {
    expect(isDatabaseUnavailable(drizzle(withCode('syntax error at or near "selec"', '42601')))).toBe(false);
    expect(isDatabaseUnavailable(drizzle(withCode('duplicate key value violates unique constraint', '23505')))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(new AggregateError([new Error('a')], 'b'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
