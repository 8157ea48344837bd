import { fileURLToPath } from 'node:url';
import type { Database } from '@app/db';
import { SEED_OPERATOR } from '@app/db/seed';
import { openTestDatabase } from '@app/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm } from '../../test/form-post';
import { createTestApp, type TestApp } from '../../test/harness';

// The console's store page on a deployment with two databases (decision 123), as a browser without
// JavaScript uses it: where the store lives, the move behind a confirm with a reason, refusals in
// words, then the move's progress and its outcome. Needs the web build: npm run build -w @app/web.

const PLATFORM = 'platform.localhost';
const webBuildDir = fileURLToPath(new URL('../../../../web/build', import.meta.url));
let t: TestApp;
let shard: Database;
const cookies = new Map<string, string>();
let csrf = '';
const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
function keep(setCookie: string | string[] | undefined) {
  for (const c of [setCookie ?? []].flat()) {
    const [pair = ''] = c.split(';');
    const eq = pair.indexOf('=');
    cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
}

/** Opens a console page as the signed-in operator, keeping the form's CSRF token. */
async function open(url: string) {
  const res = await t.app.inject({ url, headers: { host: PLATFORM, cookie: cookieHeader() } });
  keep(res.headers['set-cookie']);
  const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
  if (token) csrf = token;
  return res;
}
const post = (url: string, fields: Record<string, string>) =>
  postForm(t.app, PLATFORM, url, cookieHeader(), { _csrf: csrf, intent: 'move', ...fields });
/** The page's visible text, tags dropped (React separates adjacent text with comments). */
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

beforeAll(async () => {
  shard = await openTestDatabase();
  t = await createTestApp({ webBuildDir, storeDatabases: { shard2: shard }, storeMove: { sourceGraceMs: 0 } });
  const res = await t.app.inject({
    method: 'POST',
    url: '/platform-api/session',
    headers: { host: PLATFORM },
    payload: { email: SEED_OPERATOR.email, password: SEED_OPERATOR.password },
  });
  keep(res.headers['set-cookie']);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await shard?.close();
});

describe("a store's database on its console page", () => {
  it('moves the store with a reason: refusals in words, then progress, then the hold and the old copy cleared', async () => {
    const url = '/operator/stores/garden';
    const before = await open(url);
    expect(before.statusCode).toBe(200);
    const shown = text(before.body);
    expect(shown).toContain('Database main');
    expect(shown).toMatch(/Lives on main ?, with \d+ stores in all\./);
    expect(shown).toContain('Move store');
    expect(shown).toContain('shard2 (0 stores)');
    expect(shown).toContain('held for a few seconds at most');

    // No reason: the field says so, and nothing starts.
    const noReason = await post(url, { database: 'shard2', reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(text(noReason.body)).toContain('Please give a reason.');
    // Where it already is: the refusal in words, the confirm open again with what was typed.
    const here = await post(url, { database: 'main', reason: 'Balancing.' });
    expect(here.statusCode).toBe(409);
    expect(text(here.body)).toContain('The store is already on main.');
    expect(here.body).toContain('Balancing.');
    const nowhere = await post(url, { database: 'nowhere', reason: 'Balancing.' });
    expect(nowhere.statusCode).toBe(422);
    expect(text(nowhere.body)).toContain('There is no store database named nowhere');

    const started = await post(url, { database: 'shard2', reason: 'Garden grows fastest.' });
    expect(started.statusCode, text(started.body).slice(0, 400)).toBe(200);
    // Under way: the progress shows and no second move is offered.
    const running = text((await open(url)).body);
    expect(running).toMatch(/Waiting to start the move to shard2…|Moving to shard2: step \d+ of \d+/);
    expect(running).not.toContain('Move store');

    await t.services.jobs.drain({ timeoutMs: 60_000, dueWithinMs: 0 });
    const done = text((await open(url)).body);
    expect(done).toContain('Database shard2');
    expect(done).toMatch(/Moved to shard2 on .+\. Writes were held for \d+ ms\. The old copy was cleared\./);
    // It can go back, and the reason is in the platform's audit log.
    expect(done).toContain('main (');
    const audit = text((await open('/operator/audit')).body);
    expect(audit).toContain('Garden grows fastest.');
  }, 90_000);
});
