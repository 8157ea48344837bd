import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeGuestOrder, stockedProductId } from '../test/guest-order';
import { type BrowserSession, createTestApp, multipart, signIn, type TestApp } from '../test/harness';

/**
 * The 500s an OpenAPI-driven fuzzer and hand probes found, each fixed at its
 * class: malformed multipart, impossible dates, forged list cursors, numbers coerced from text,
 * a refund that breaks a rule, an upload whose declared length is over the limit.
 */

const HOST = 'lighting.localhost';
const ENVELOPE_KEYS = ['code', 'data', 'error', 'errors', 'message', 'requestId'];
let t: TestApp;
let owner: BrowserSession;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
});
afterAll(() => t?.close());

type Res = { statusCode: number; body: string; headers: Record<string, unknown>; json(): Record<string, unknown> };

function expectRefusal(res: Res, status: number, mentions?: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(ENVELOPE_KEYS);
  expect(body.requestId).toBe(res.headers['x-request-id']);
  if (mentions) expect(String(body.message)).toMatch(mentions);
}

function asOwner(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method,
    url,
    headers: { host: HOST, origin: `http://${HOST}`, ...owner, ...headers },
    ...(payload !== undefined ? { payload: payload as string } : {}),
  }) as unknown as Promise<Res>;
}

describe('a malformed multipart body', () => {
  const boundary = '----sfbroken';
  const broken = [
    ['no closing boundary', `--${boundary}\r\nContent-Disposition: form-data; name="productStoreId"\r\n\r\n9000`],
    ['garbage', 'this is not multipart at all'],
  ] as const;

  it.each(broken)('is a 400 with the envelope on the public multipart route (%s)', async (_label, payload) => {
    const res = (await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/main',
      headers: { host: HOST, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    })) as unknown as Res;
    expectRefusal(res, 400, /multipart/i);
  });

  it.each(broken)('is a 400 with the envelope on an owner JSON route (%s)', async (_label, payload) => {
    const res = await asOwner('POST', '/api/v1/order-views', payload, {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect([400, 415]).toContain(res.statusCode);
    expectRefusal(res, res.statusCode);
  });

  it('still reads a well-formed one', async () => {
    const form = multipart({ productStoreId: '9000' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/main',
      headers: { host: HOST, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('impossible dates', () => {
  it.each([
    ['/api/v1/orders?from=2026-02-30', 'from'],
    ['/api/v1/orders?to=2026-13-01', 'to'],
    ['/api/v1/customers?since_from=2026-02-30', 'since_from'],
    ['/api/v1/customers?since_to=2025-02-29', 'since_to'],
    ['/api/v1/dashboard/home?range=custom&from=2026-02-30&to=2026-03-03', 'from'],
  ])('%s is a 400 naming the field', async (url, field) => {
    const res = await asOwner('GET', url);
    expectRefusal(res, 400, new RegExp(field));
  });

  it.each(['/api/v1/orders/export.csv?from=2026-02-30', '/api/v1/customers/export.csv?since_from=2026-02-31'])(
    '%s is refused before the first byte of the file',
    async (url) => {
      const res = await asOwner('GET', url);
      expectRefusal(res, 400);
      expect(String(res.headers['content-type'])).toMatch(/json/);
    },
  );

  it('is not saved in an order view', async () => {
    const res = await asOwner('POST', '/api/v1/order-views', { name: 'Leap', filters: { from: '2026-02-30' } });
    expectRefusal(res, 400, /from/);
    const views = await asOwner('GET', '/api/v1/order-views');
    expect(JSON.stringify(views.json())).not.toContain('2026-02-30');
  });

  it('a real 29 February is taken', async () => {
    expect((await asOwner('GET', '/api/v1/orders?from=2024-02-29')).statusCode).toBe(200);
  });
});

describe('forged list cursors', () => {
  const forge = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
  const productSorts = ['updated', 'name', 'price', 'stock', 'created'];
  const cases: [string, string][] = [];
  for (const sort of productSorts) {
    for (const dir of ['asc', 'desc']) {
      // A name is any text but a NUL byte; every other sort's value has a type of its own.
      const key = sort === 'name' ? 'Lamp\u0000' : 'abc';
      cases.push([`/api/v1/product-list?sort=${sort}&dir=${dir}`, forge([sort, dir, key, 'x'])]);
    }
  }
  for (const sort of ['newest', 'oldest', 'total-high', 'total-low']) {
    cases.push([`/api/v1/orders?sort=${sort}`, forge([sort, 'next', 'not-a-value', '1'])]);
    cases.push([`/api/v1/orders?sort=${sort}`, forge([sort, 'next', '2026-02-30 10:00:00+00', '1'])]);
  }
  for (const sort of ['last_order', 'amount_spent', 'name']) {
    cases.push([`/api/v1/customers?sort=${sort}`, forge([sort, 'zz\u0000', 'u:x'])]);
    if (sort !== 'name')
      cases.push([`/api/v1/customers?sort=${sort}`, forge([sort, '99999999999999999999999', 'u:x'])]);
  }

  it.each(cases)('%s with a hand-made cursor is a 400 naming the cursor', async (url, cursor) => {
    const res = await asOwner('GET', `${url}&cursor=${cursor}`);
    expectRefusal(res, 400, /cursor/);
  });

  const impossible = Buffer.from('2026-02-30T00:00:00.000Z|00000000000000000000000000000000').toString('base64url');
  it.each([
    '/api/v1/newsletter/subscribers',
    '/api/v1/media',
    '/api/v1/audit/fetch',
    '/api/v1/promo-codes',
    '/api/v1/inventory/products/LGT-1001/movements',
  ])('%s refuses a cursor with an impossible time (Date.parse would read it as 2 March)', async (url) => {
    const promo = Buffer.from(JSON.stringify(['2026-02-30T00:00:00.000Z', 'X'])).toString('base64url');
    const history = Buffer.from(JSON.stringify(['2026-02-30T00:00:00.000Z', 'x'])).toString('base64url');
    const cursor = url.includes('promo') ? promo : url.includes('movements') ? history : impossible;
    const res = await asOwner('GET', `${url}?cursor=${cursor}`);
    expectRefusal(res, 400, /cursor/);
  });

  it.each([
    '/api/v1/product-list?sort=price&dir=asc',
    '/api/v1/orders?sort=total-high',
    '/api/v1/product-list?sort=updated&dir=desc',
  ])('%s still pages with the cursor it gave', async (url) => {
    const first = (await asOwner('GET', `${url}&limit=1`)).json() as { data: { nextCursor: string | null } };
    expect(first.data.nextCursor).toBeTruthy();
    const next = await asOwner('GET', `${url}&limit=1&cursor=${first.data.nextCursor}`);
    expect(next.statusCode).toBe(200);
  });
});

describe('unknown fields', () => {
  it.each([
    ['POST', '/api/v1/cms/create', { pageTitle: 'Hello', pageUrl: 'hello-unknown', surprise: 1 }],
    ['POST', '/api/v1/store/preview', { on: true, surprise: 1 }],
  ] as const)('%s %s refuses a field it does not know', async (method, url, body) => {
    const res = await asOwner(method, url, body);
    expectRefusal(res, 400, /surprise/);
  });
});

describe('numbers are never read from text', () => {
  it.each([
    ['"1e2"', '1e2'],
    ['"0x10"', '0x10'],
    ['true', true],
    ['[5]', [5]],
    ['"5"', '5'],
    ['null', null],
  ])('a refund amount of %s is a 400 and moves no money', async (_label, amount) => {
    const productId = await stockedProductId(t.database.db, 'lighting');
    const placed = await placeGuestOrder(t.app, { host: HOST, productId, quantity: 1, email: 'coerce@example.com' });
    const orderId = placed.json().data.orderId as string;
    const res = await asOwner('POST', `/api/v1/orders/${orderId}/refund`, { amount });
    expectRefusal(res, 400, /amount/);
    const order = (await asOwner('GET', `/api/v1/orders/${orderId}`)).json() as {
      data: { payment: { refunded: number } };
    };
    expect(order.data.payment.refunded).toBe(0);
  });

  it('a refund whose shipping is more than its amount is a 4xx naming the field', async () => {
    const productId = await stockedProductId(t.database.db, 'lighting');
    const placed = await placeGuestOrder(t.app, { host: HOST, productId, quantity: 1, email: 'ship@example.com' });
    const orderId = placed.json().data.orderId as string;
    const res = await asOwner('POST', `/api/v1/orders/${orderId}/refund`, { amount: 1, shipping: 16 });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expectRefusal(res, res.statusCode, /shipping/);
  });

  it.each([
    ['limit=1e2', /limit/],
    ['limit=0x10', /limit/],
    ['limit=%205', /limit/],
    ['limit=2&limit=3', /limit/],
  ])('a list query %s is a 400', async (query, mentions) => {
    const res = await asOwner('GET', `/api/v1/orders?${query}`);
    expectRefusal(res, 400, mentions);
  });

  it('a quantity sent as text to add to cart is refused', async () => {
    const productId = await stockedProductId(t.database.db, 'lighting');
    const res = (await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/product/addToCart',
      headers: { host: HOST },
      payload: { productId, quantity: '1e1' },
    })) as unknown as Res;
    expectRefusal(res, 400, /quantity/);
  });
});

describe('an upload declared over the limit', () => {
  /**
   * Over a real socket: the headers say 60 MB (over either limit), a few bytes follow, and the answer must come
   * without the rest (inject would hand the server the whole body at once).
   */
  let port = 0;
  async function declaredTooLarge(path: string, contentType: string) {
    if (!port) port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
    return new Promise<{ status: number; ms: number }>((resolve, reject) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: ${HOST}\r\nOrigin: http://${HOST}\r\nCookie: ${owner.cookie}\r\n` +
            `x-csrf-token: ${owner['x-csrf-token']}\r\nContent-Type: ${contentType}\r\n` +
            `Content-Length: ${60 * 1024 * 1024}\r\n\r\nsku,name\r\n`,
        );
      });
      let text = '';
      socket.on('data', (d) => {
        text += d.toString('latin1');
        const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
        if (m) {
          resolve({ status: Number(m[1]), ms: Date.now() - started });
          socket.destroy();
        }
      });
      socket.on('error', reject);
      setTimeout(() => reject(new Error('no answer while the body was still owed')), 5_000).unref();
    });
  }

  it('media upload answers 413 before the body is read', async () => {
    const r = await declaredTooLarge('/api/v1/media/upload', 'multipart/form-data; boundary=x');
    expect(r.status).toBe(413);
  });

  it('an upload within its own limit is read, though over the 1 MiB of JSON bodies', async () => {
    const boundary = '----sfupload';
    const file = Buffer.alloc(2 * 1024 * 1024, 7);
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\n` +
          'Content-Type: image/jpeg\r\n\r\n',
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    for (const url of ['/api/v1/media/upload', '/skulocity/api/v1/catalog/products/images/upload']) {
      const res = await asOwner('POST', url, payload as unknown as string, {
        'content-type': `multipart/form-data; boundary=${boundary}`,
      });
      // Not a picture: the content is judged (415), so the size was not refused first.
      expect(res.statusCode, `${url}: ${res.body}`).toBe(415);
    }
  });

  it('product import answers 413 before the body is read', async () => {
    const r = await declaredTooLarge('/skulocity/api/v1/catalog/products/import?fileName=a.csv', 'text/csv');
    expect(r.status).toBe(413);
  });
});
