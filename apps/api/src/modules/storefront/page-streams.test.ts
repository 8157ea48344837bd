import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

// Shoppers close tabs and click away while a page is still arriving. Each such page once ended the
// whole process: the page's HTML went through a transform (paint-first) joined by .pipe(), and the
// premature-close error of a cancelled stream had no listener. Vitest fails this file on that
// uncaught error. Needs the web build.

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ webBuildDir: fileURLToPath(new URL('../../../../web/build', import.meta.url)) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** A page request the client drops after `afterMs` or at its first bytes, whichever comes first. */
function dropped(path: string, afterMs: number) {
  return new Promise<void>((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host: 'lighting.localhost', 'accept-encoding': 'br, gzip' } },
      (res) => {
        res.once('data', () => req.destroy());
        res.on('close', resolve);
      },
    );
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    setTimeout(() => req.destroy(), afterMs);
    req.end();
  });
}

it('keeps serving when clients drop streamed, compressed pages mid-answer', async () => {
  const paths = ['/', '/product/search/lamp', '/page', '/cart', '/faqs'];
  for (let round = 0; round < 30; round++) {
    await Promise.all(paths.map((p, i) => dropped(p, (round * 7 + i * 3) % 25)));
  }
  // Give any late 'error' event its turn of the event loop before checking.
  await new Promise((r) => setTimeout(r, 200));
  const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { host: 'lighting.localhost' } }, (r) => {
      let body = '';
      r.setEncoding('utf8');
      r.on('data', (d) => {
        body += d;
      });
      r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
  expect(res.status).toBe(200);
  expect(res.body).toContain('</html>');
});

it('compresses pages with brotli or gzip as the browser asks, and sends them plain otherwise', async () => {
  const get = (acceptEncoding: string) =>
    new Promise<{ encoding: string | undefined; vary: string | undefined }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/',
          headers: { host: 'lighting.localhost', 'accept-encoding': acceptEncoding },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ encoding: res.headers['content-encoding'], vary: String(res.headers.vary ?? '') }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  expect(await get('gzip, deflate, br')).toMatchObject({ encoding: 'br' });
  expect(await get('gzip;q=1, br;q=0')).toMatchObject({ encoding: 'gzip' });
  expect((await get('identity')).encoding).toBeUndefined();
  expect((await get('br')).vary).toContain('accept-encoding');
});
