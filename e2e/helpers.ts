import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { DATA_DIR, PORT } from './playwright.config';

export const STORES = {
  lighting: { url: `http://lighting.localhost:${PORT}`, storeId: '9000', template: 'DEFAULT' },
  garden: { url: `http://garden.localhost:${PORT}`, storeId: '9001', template: 'ONE' },
  power: { url: `http://power.localhost:${PORT}`, storeId: '9002', template: 'DEFAULT' },
} as const;
export type StoreName = keyof typeof STORES;
export const STORE_NAMES = Object.keys(STORES) as StoreName[];

/**
 * Screenshots kept for people to look at (test-results/screenshots). JPEG at quality 80: a whole
 * shop page took 782 ms as PNG and 275 ms as JPEG on the 2-core CI machine, and the browser tests
 * take 149 of them; nobody reads these pixel by pixel.
 */
export async function snap(page: Page, name: string) {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.jpg`, fullPage: true, type: 'jpeg', quality: 80 });
}

/**
 * A GET from the test process itself, to 127.0.0.1 with the store's Host header: Node's resolver,
 * unlike Chromium's, does not map *.localhost to loopback on every system.
 */
export function fetchText(store: StoreName, path: string): Promise<{ status: number; body: string }> {
  const host = new URL(STORES[store].url).host;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: PORT, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The password every seeded owner has (the demo seed); shoppers have their own. */
export const OWNER_PASSWORD = 'owner-demo-1';

/**
 * Signs the page's browser in without the login page, then opens `then` and checks it is that page
 * (not the login page). For tests where being signed in is only the setup: the form itself is what
 * auth.spec.ts tests. It posts to the API the login form's action ends in (`/skulocity/api/v1/login`,
 * same `auth.login` and after-login steps), and gives the browser the cookies it answers with, as the
 * form's redirect would: the session cookie `sid`, host-only on the store's host, its path, HttpOnly,
 * SameSite and lifetime as the server set them. The post says it comes from the store (Origin), as a
 * form's does; login needs no CSRF token (a browser may log in without a session).
 *
 * Saves per sign-in the login page's render and its app's start, the form post and a redirect. The post
 * goes from the test process to 127.0.0.1 with the store's Host header (like fetchText), not through
 * `page.request`: Node's resolver does not map *.localhost to loopback everywhere (here it does not).
 */
export async function signIn(
  page: Page,
  who: { base: string; email: string; password?: string },
  then: string,
): Promise<void> {
  const store = new URL(who.base);
  const body = JSON.stringify({ email: who.email, password: who.password ?? OWNER_PASSWORD });
  const { status, cookies, text } = await new Promise<{ status: number; cookies: string[]; text: string }>(
    (resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: store.port || 80,
          path: '/skulocity/api/v1/login',
          method: 'POST',
          headers: {
            host: store.host,
            origin: store.origin,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, cookies: res.headers['set-cookie'] ?? [], text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  );
  if (status !== 200) throw new Error(`sign-in of ${who.email} on ${store.host}: ${status} ${text.slice(0, 200)}`);
  for (const header of cookies) {
    const [pair = '', ...attrs] = header.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attr = (key: string) =>
      attrs.find((a) => a.toLowerCase().startsWith(`${key.toLowerCase()}=`))?.slice(key.length + 1);
    const has = (key: string) => attrs.some((a) => a.toLowerCase() === key.toLowerCase());
    const maxAge = attr('Max-Age');
    if (maxAge === '0') {
      // A cookie the server clears (e.g. a guest cart merged into the account's).
      await page.context().clearCookies({ name, domain: store.hostname });
      continue;
    }
    const sameSite = attr('SameSite')?.toLowerCase();
    await page.context().addCookies([
      {
        name,
        value,
        // No leading dot: host-only, as a Set-Cookie without Domain is.
        domain: store.hostname,
        path: attr('Path') ?? '/',
        httpOnly: has('HttpOnly'),
        secure: has('Secure'),
        sameSite: sameSite === 'strict' ? 'Strict' : sameSite === 'none' ? 'None' : 'Lax',
        expires: maxAge ? Math.floor(Date.now() / 1000) + Number(maxAge) : -1,
      },
    ]);
  }
  await page.goto(`${store.origin}${then}`);
  await expect(page).toHaveURL(`${store.origin}${then}`);
}

/**
 * The store's owner API from a signed-in owner's page (its session as a bearer token; the browser
 * resolves *.localhost): the answer's `data`, after checking the status is a success.
 */
export async function ownerApi<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  const token = (await page.context().cookies()).find((c) => c.name === 'sid')?.value;
  expect(token, 'the owner is signed in').toBeTruthy();
  const res = await page.evaluate(
    async ({ method, url, body, token }) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, text: await r.text() };
    },
    { method, url, body, token },
  );
  expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
  return JSON.parse(res.text).data as T;
}

export async function apiJson<T>(_page: Page | null, store: StoreName, path: string): Promise<T> {
  const res = await fetchText(store, path);
  if (res.status !== 200) throw new Error(`GET ${path} on ${store}: ${res.status} ${res.body.slice(0, 200)}`);
  return JSON.parse(res.body) as T;
}

/**
 * Moves the pointer over the page as a shopper's would, which starts a shop page's app
 * (paint-first.ts). Two things make it certain rather than likely:
 * - it waits for the document to be parsed: the starter is the body's last script and listens only
 *   from then on, so a move while the page still streams is missed;
 * - it moves twice: the starter ignores a move without movement (Chromium sends one when a page lays
 *   out under a resting pointer), and the first move after a navigation may report none.
 */
export async function pointAtPage(page: Page) {
  await page.waitForFunction(() => document.readyState !== 'loading');
  await page.mouse.move(3, 3);
  await page.mouse.move(2, 2);
}

/**
 * React has hydrated this page: after that, clicks, typing and picked files reach React. A shop page
 * starts its app at the shopper's first intent, so the pointer moves over the page first; a
 * dashboard page starts it by itself. React marks each element it has hydrated with its props
 * (`__reactProps$…`), so the body's mark is this document's own; the store's values in browser
 * storage are not enough alone, since they stay from an earlier page of the same context (a page
 * reached from the login form found them and went on before its own app ran).
 */
export async function hydrated(page: Page) {
  await pointAtPage(page);
  await page.waitForFunction(
    () =>
      Object.keys(document.body).some((key) => key.startsWith('__reactProps$')) &&
      window.localStorage.getItem('productStoreId') !== null,
  );
}

/**
 * Holds the app's entry module back until the returned function is called: whatever the test does
 * meanwhile lands on the server-rendered page, before hydration, for sure.
 */
export async function holdApp(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(/\/assets\/entry\.client-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * The links to `path` mailed to `to`, newest first, read from the dev outbox the e2e server writes
 * (.eml files, quoted-printable soft breaks undone). Mail goes out as a job: poll for it.
 */
export function mailedLinks(to: string, path: string): string[] {
  const dir = `${DATA_DIR}/outbox`;
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort().reverse();
  } catch {
    return [];
  }
  const pattern = new RegExp(`(http://\\S+${path.replace(/[/.]/g, '\\$&')}\\?[A-Za-z0-9_=&%.-]+)`);
  const links: string[] = [];
  for (const f of files) {
    const raw = readFileSync(join(dir, f), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    if (!raw.includes(`To: ${to}`)) continue;
    const m = raw.match(pattern);
    if (m?.[1]) links.push(m[1]);
  }
  return links;
}

/**
 * A new account logs in by the link of its welcome mail (decision 022): opens the newest link and
 * confirms, as the person would. `mails` is how many confirmation mails to wait for (a resent link
 * makes two; only the newest works). Lands where the sign-up was heading.
 */
export async function confirmFromMail(page: Page, email: string, mails = 1) {
  await expect.poll(() => mailedLinks(email, '/auth/confirm-email').length).toBe(mails);
  await page.goto(mailedLinks(email, '/auth/confirm-email')[0] as string);
  await page.getByRole('button', { name: 'Confirm and log in' }).click();
  // Signed in once the page has left for where the link leads: a navigation the caller starts
  // before that is interrupted by this one (it failed a test in CI).
  await expect(page).not.toHaveURL(/\/auth\/confirm-email/);
}

type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

/**
 * axe's findings on the page at or above an impact, one line per rule with its nodes (empty when
 * clean). Only violations are asked for (`resultTypes`): axe then skips building selectors for the
 * thousands of nodes that pass, about a quarter of its time on a dashboard page, and the answer is
 * the same. The store's newsletter embed (an https iframe the owner pasted, e.g. garden's) is left
 * out by default: it points at a host the test machine cannot reach, and axe waits for the frame to
 * load before it reports.
 *
 * axe runs in the page's own frames (AxeBuilder's legacy mode), not the default way that merges
 * each frame's results in a blank tab it opens for the purpose: opening that tab on a busy machine
 * cost more than the checks (dashboard pages: 2.2-5.2 s the default way, 1.0-2.0 s this way, same
 * findings). What it leaves out is frames of another origin (a provider's payment buttons, a pasted
 * embed): third parties' markup, not ours to fix.
 */
export async function axeFindings(
  page: Page,
  opts: {
    atLeast?: Impact;
    exclude?: string[];
    /** Rules to switch on or off beyond axe's defaults. */
    rules?: Record<string, { enabled: boolean }>;
  } = {},
): Promise<string[]> {
  const order: Impact[] = ['minor', 'moderate', 'serious', 'critical'];
  const from = order.indexOf(opts.atLeast ?? 'serious');
  let axe = new AxeBuilder({ page }).setLegacyMode(true).options({
    resultTypes: ['violations'],
    ...(opts.rules ? { rules: opts.rules } : {}),
  });
  for (const selector of opts.exclude ?? ['[data-testid=newsletter-embed]']) axe = axe.exclude(selector);
  const result = await axe.analyze();
  return result.violations
    .filter((v) => order.indexOf(v.impact as Impact) >= from)
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** No serious or critical axe finding on the page (axeFindings). */
export async function expectNoSeriousA11yIssue(page: Page) {
  expect(await axeFindings(page)).toEqual([]);
}
