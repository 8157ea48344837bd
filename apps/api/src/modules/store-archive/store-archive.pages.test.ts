import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';

// Settings, Export store (decision 122) as a browser without JavaScript uses it: the page, its form
// post, the progress, the download. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../web/build', import.meta.url));
const host = 'garden.localhost';
const origin = `http://${host}`;
const PAGE = '/manage-store/settings/export';

let t: TestApp;
let owner: BrowserSession;
let settingsStaff: BrowserSession;

beforeAll(async () => {
  t = await createTestApp({ webBuildDir });
  owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', host);
  await createStaff(t.database, 'garden', 'export-settings@garden.test', ['settings']);
  settingsStaff = await signIn(t.app, 'export-settings@garden.test', 'owner-demo-1', host);
}, 180_000);
afterAll(() => t?.close());

const open = (session: BrowserSession) => t.app.inject({ url: PAGE, headers: { host, cookie: session.cookie } });
const start = (session: BrowserSession) =>
  t.app.inject({
    method: 'POST',
    url: PAGE,
    headers: { host, origin, 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie },
    payload: new URLSearchParams({ _csrf: session['x-csrf-token'] }).toString(),
  });

describe('Settings, Export store', () => {
  it('is the owner’s alone: a staff member holding the settings permission is refused, and starts nothing', async () => {
    expect((await open(settingsStaff)).statusCode).toBe(403);
    expect((await start(settingsStaff)).statusCode).toBe(403);
    const page = await open(owner);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('No export yet');
  });

  it('starts an export, shows its progress, then the download of a gzip archive', async () => {
    const started = await start(owner);
    expect(started.statusCode).toBe(202);
    expect(started.body).toContain('Your store is being exported.');
    // Not finished yet: the page shows how far it is (waiting, or records so far), and the Export
    // button is disabled meanwhile.
    const waiting = await open(owner);
    expect(waiting.body).toMatch(/Waiting to start…|Exporting: [\d,]+ of [\d,]+ records/);
    expect(waiting.body).toMatch(/role="progressbar"/);
    expect(waiting.body).not.toContain('Download archive');

    await t.services.jobs.drain({ dueWithinMs: 0 });
    const done = await open(owner);
    expect(done.body).toContain('Download archive');
    const href = /href="(\/api\/v1\/store\/archive\/exports\/[^"]+\/download)"/.exec(done.body)?.[1];
    expect(href).toBeDefined();
    const file = await t.app.inject({ url: href ?? '', headers: { host, cookie: owner.cookie } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename=".+\.tar\.gz"$/);
    // A tar inside: its first entry is the manifest.
    expect(gunzipSync(file.rawPayload).subarray(0, 100).toString('utf8')).toContain('manifest.json');
  });
});
