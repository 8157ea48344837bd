import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { signInOperator } from './operator-session.fixture';

// The operator's move of a store as a deployment with one database sees it (PGlite, decision 123):
// the request is checked (a reason is required, as for every operator action on a store) and a move
// there is nowhere to go is refused in words. The move itself is in operator-move.postgres.test.ts.

let t: TestApp;
let operator: Awaited<ReturnType<typeof signInOperator>>;
const move = (tenantId: string, body: object) =>
  operator.request('POST', `/platform-api/stores/${tenantId}/move`, body);
const moveEntries = async () =>
  (await operator.request('GET', '/platform-api/audit?tenantId=garden&action=store.move')).json().data.entries;

beforeAll(async () => {
  t = await createTestApp();
  operator = await signInOperator(t);
});
afterAll(() => t?.close());

describe("the operator's move request", () => {
  it('requires a reason of 1 to 500 characters, and names the field when it is missing, blank or too long', async () => {
    const refused = async (body: object, message: RegExp) => {
      const res = await move('garden', body);
      expect(res.statusCode, res.body).toBe(400);
      const answer = res.json();
      expect(answer).toMatchObject({ error: true, code: 'VALIDATION_FAILED' });
      expect(answer.errors.join(' ')).toMatch(message);
    };
    await refused({ database: 'shard2' }, /reason: Please give a reason\./);
    await refused({ database: 'shard2', reason: '   ' }, /reason: Please give a reason\./);
    await refused({ database: 'shard2', reason: 'x'.repeat(501) }, /reason: Please keep the reason under 500/);
    await refused({ database: 'shard2', reason: 42 }, /reason/);
    await refused({ reason: 'Balancing load.' }, /database/);
    await refused({ database: 'shard2', reason: 'Balancing load.', extra: true }, /extra|unrecognized/i);
    expect(await moveEntries()).toEqual([]);
  });

  it('refuses, in words, a move to a database the deployment does not have or to where the store is', async () => {
    const nowhere = await move('garden', { database: 'shard2', reason: 'x'.repeat(500) });
    expect(nowhere.statusCode, nowhere.body).toBe(422);
    expect(nowhere.json()).toMatchObject({ code: 'UNKNOWN_DATABASE' });
    expect(nowhere.json().message).toMatch(/no store database named shard2/);
    // PGlite's one database is where every store already is (decision 123).
    const here = await move('garden', { database: ' main ', reason: ' Balancing load. ' });
    expect(here.statusCode, here.body).toBe(409);
    expect(here.json()).toMatchObject({ code: 'ALREADY_THERE', message: 'The store is already on main.' });
    const unknown = await move('no-such-store', { database: 'main', reason: 'Balancing load.' });
    expect(unknown.statusCode).toBe(404);
    // A refusal moved nothing, so the audit log has nothing to say.
    expect(await moveEntries()).toEqual([]);
  });
});

describe("the deployment's databases", () => {
  it('lists the one home database with every store on it, to operators only', async () => {
    const res = await operator.request('GET', '/platform-api/databases');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const rows = (await t.database.db.execute(sql`SELECT count(*)::int AS n FROM tenants`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    const stores = rows.rows[0]?.n ?? 0;
    expect(stores).toBeGreaterThanOrEqual(3);
    expect(res.json().data).toEqual({ databases: [{ name: 'main', home: true, configured: true, stores }] });
    const visitor = await t.app.inject({ url: '/platform-api/databases', headers: { host: 'platform.localhost' } });
    expect(visitor.statusCode).toBe(401);
  });
});
