import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm } from '../../test/form-post';
import { createTestApp, SEEDED_HOSTS, type TestApp } from '../../test/harness';
import type { MailMessage } from '../mail/index';

// The platform host's pages through the page server (decision 103), as a browser without JavaScript
// sees them: the platform's own pages there and no store's; no platform page on a store's host; the
// sign-up form posted with its CSRF token. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../web/build', import.meta.url));
const PLATFORM = 'platform.localhost';
const sent: MailMessage[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    webBuildDir,
    mailer: {
      async send(m) {
        sent.push(m);
      },
      close() {},
    },
  });
});
afterAll(() => t.close());

const get = (url: string, host = PLATFORM, cookie = '') =>
  t.app.inject({ method: 'GET', url, headers: { host, ...(cookie ? { cookie } : {}) } });

/** The sign-up page's pre-session cookie and the token its form carries. */
async function formSession() {
  const page = await get('/signup');
  const cookie = String(page.headers['set-cookie']).split(';')[0] ?? '';
  const token = page.body.match(/name="_csrf" value="([^"]+)"/)?.[1] ?? '';
  expect(token).not.toBe('');
  return { cookie, token };
}

const post = (url: string, fields: Record<string, string>, cookie: string) =>
  postForm(t.app, PLATFORM, url, cookie, fields);

describe('the platform host', () => {
  it('opens on the sign-up, serves no store page, and no store serves its pages', async () => {
    const home = await get('/');
    expect(home.statusCode).toBe(302);
    expect(home.headers.location).toBe('/signup');
    const signup = await get('/signup');
    expect(signup.statusCode).toBe(200);
    expect(signup.body).toContain('Open your online store in a minute');
    // Nothing of a store: no store's name, no shop frame.
    expect(signup.body).not.toContain('Brightside Lighting');
    for (const path of ['/cart', '/product/search/lamp', '/manage-store', '/faqs']) {
      expect((await get(path)).statusCode, path).toBe(404);
    }
    for (const path of ['/signup', '/signup/confirm?token=x']) {
      const onStore = await get(path, SEEDED_HOSTS.lighting.host);
      expect(onStore.statusCode, path).toBe(404);
      expect(onStore.body).not.toContain('Open your online store');
    }
  });

  it('takes the sign-up as a plain form post with its token, and refuses one without', async () => {
    const { cookie, token } = await formSession();
    const fields = {
      storeName: 'Form Post Shop',
      subdomain: 'form-post-shop',
      email: 'form-post@example.com',
      password: 'plain-forms-work-2026',
      template: 'DEFAULT',
      starter: 'empty',
      website: '',
    };
    const refused = await post('/signup', fields, cookie);
    expect(refused.statusCode).toBe(403);
    expect(sent).toHaveLength(0);

    const bad = await post('/signup', { ...fields, subdomain: 'www', _csrf: token }, cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('This name is kept for the platform');
    expect(bad.body).toContain('value="Form Post Shop"');

    const ok = await post('/signup', { ...fields, _csrf: token }, cookie);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Check your email');
    expect(sent.map((m) => m.to)).toEqual(['form-post@example.com']);

    // The mail's link: a page whose button opens the store and sends the owner across.
    const link = sent[0]?.text?.match(/(\/signup\/confirm\?token=[A-Za-z0-9_-]+)/)?.[1] ?? '';
    const confirmPage = await get(link, PLATFORM, cookie);
    expect(confirmPage.statusCode).toBe(200);
    const opened = await post(
      '/signup/confirm',
      { token: new URL(`http://x${link}`).searchParams.get('token') ?? '', _csrf: token },
      cookie,
    );
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toMatch(/^http:\/\/form-post-shop\.localhost(:\d+)?\/api\/signup\/sign-in\?token=/);
  });
});
