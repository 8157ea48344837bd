import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openSecondHandle, type TestApp } from '../../test/harness';
import type { PlatformActor } from './index';

// Two app processes on one PostgreSQL database (decision 099): a store suspended through one is
// answered as suspended by the other within a second, although each caches the state, and resumed
// the same way. And two transitions of one store sent at once from both: one wins the row.

const GARDEN = 'garden.localhost';
const CATEGORIES = '/skulocity/api/v1/public/ecommerce/categories';
const operator: PlatformActor = { kind: 'operator', operatorId: 'op-x', email: 'ops@platform.localhost' };
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await createTestApp({ modules: ['catalog'] });
  b = await createTestApp({ modules: ['catalog'], database: await openSecondHandle(a.database) });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const statusOn = async (t: TestApp) => (await t.app.inject({ url: CATEGORIES, headers: { host: GARDEN } })).statusCode;

/** Polls until `check` holds, for at most `ms`; answers how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

describe('the store state across processes', () => {
  it('follows a change made by the other process within a second, both ways', async () => {
    // B has the state cached (active) before A changes it.
    expect(await statusOn(b)).toBe(200);
    const suspended = await a.services.storeLifecycle.transition(
      operator,
      'garden',
      'suspended',
      'Cross-process test.',
    );
    expect(suspended.ok).toBe(true);
    expect(await statusOn(a)).toBe(503);
    const took = await within(1000, async () => (await statusOn(b)) === 503);
    expect(took).toBeLessThan(1000);

    const resumed = await b.services.storeLifecycle.transition(operator, 'garden', 'active', 'Resumed.');
    expect(resumed.ok).toBe(true);
    await within(1000, async () => (await statusOn(a)) === 200);
  });

  it('lets one of two processes’ transitions at once win the row lock; the other is refused', async () => {
    const before = (await a.services.storeLifecycle.history('garden')).length;
    const [x, y] = await Promise.all([
      a.services.storeLifecycle.transition(operator, 'garden', 'suspended', 'From A.', { expect: 'active' }),
      b.services.storeLifecycle.transition(operator, 'garden', 'closed', 'From B.', { expect: 'active' }),
    ]);
    expect([x?.ok, y?.ok].filter(Boolean)).toHaveLength(1);
    const loser = x?.ok ? y : x;
    expect(loser).toMatchObject({ ok: false, code: 'INVALID_TRANSITION' });
    const history = await a.services.storeLifecycle.history('garden');
    expect(history).toHaveLength(before + 1);
    expect(history.at(-1)?.from).toBe('active');
  });
});
