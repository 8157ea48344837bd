import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';

// The banners page's form posts (React Router's action through the page server), as a browser
// without JavaScript sends them: the picture comes with the form, over the ordinary 1 MB page limit.
// Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../web/build', import.meta.url));
const host = 'lighting.localhost';
const origin = `http://${host}`;
const PAGE = '/manage-store/settings/banners';

let t: TestApp;
let owner: BrowserSession;
beforeAll(async () => {
  t = await createTestApp({ webBuildDir });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
});
afterAll(() => t.close());

function multipartForm(fields: Record<string, string>, file?: Buffer) {
  const boundary = `----sf${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** A PNG of more than 1 MB (noise does not compress). */
async function bigPng() {
  const raw = randomBytes(700 * 700 * 3);
  const png = await sharp(raw, { raw: { width: 700, height: 700, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  expect(png.length).toBeGreaterThan(1024 * 1024);
  return png;
}

const working = async () =>
  (await t.app.inject({ url: '/api/v1/product/banner/draft', headers: { host, ...owner } })).json().data as {
    banners: { title: string | null; altText: string; mediaId: string | null }[];
  };

describe('the banners page without JavaScript', () => {
  it('adds a banner with a picture of more than 1 MB posted with the form', async () => {
    const before = (await working()).banners.length;
    const form = multipartForm(
      { _csrf: owner['x-csrf-token'], intent: 'save', altText: 'Noise, as a test', title: 'Posted with the form' },
      await bigPng(),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: PAGE,
      headers: { host, origin, cookie: owner.cookie, 'content-type': form.type },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(200);
    const after = (await working()).banners;
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({
      title: 'Posted with the form',
      mediaId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it('keeps the 1 MB limit for multipart posts to any other page', async () => {
    const form = multipartForm({ email: 'x@example.com' }, await bigPng());
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { host, origin, 'content-type': form.type },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(413);
    // A person posted it: a page that says so, not the API's JSON.
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expect(res.body).toContain('This form is larger than this site accepts.');
  });

  it('refuses a save without the CSRF token, and keeps visitors out', async () => {
    const before = (await working()).banners.length;
    const form = multipartForm({ intent: 'save', altText: 'No token' });
    const res = await t.app.inject({
      method: 'POST',
      url: PAGE,
      headers: { host, origin, cookie: owner.cookie, 'content-type': form.type },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(403);
    const visitor = await t.app.inject({
      method: 'POST',
      url: PAGE,
      headers: { host, origin, 'content-type': form.type },
      payload: form.payload,
    });
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toMatch(/^\/auth\/login\?redirectUrl=/);
    expect((await working()).banners.length).toBe(before);
  });
});

describe('the owner’s preview of the banners draft', () => {
  it('shows the draft on the home page to the owner with preview on, and to nobody else', async () => {
    const firstId = ((await working()).banners[0] as { bannerId?: string } | undefined)?.bannerId;
    const title = `Preview only ${randomBytes(4).toString('hex')}`;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/product/banner/update/${firstId}`,
      headers: { host, origin, ...owner },
      payload: { altText: 'Preview picture', title },
    });
    expect(res.statusCode, res.body).toBe(200);
    const home = (cookie: string) => t.app.inject({ url: '/', headers: { host, cookie } });
    const previewing = await home(`${owner.cookie}; sf_preview=1`);
    expect(previewing.statusCode).toBe(200);
    expect(previewing.body).toContain(title);
    // The same page for the owner without the switch, and for a visitor with a copied cookie.
    expect((await home(owner.cookie)).body).not.toContain(title);
    expect((await home('sf_preview=1')).body).not.toContain(title);
    // And the public API never shows a draft.
    expect((await t.app.inject({ url: '/api/v1/product/banner/fetch', headers: { host } })).body).not.toContain(title);
  });
});
