import { randomBytes } from 'node:crypto';
import type { ProductVariantsView } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { createStaff } from '../../../test/staff';

/**
 * The owner's variant paths (decision 112): every caller (visitor 401, shopper and staff without the
 * catalog permission 403, another store's product or another product's variant 404, all before the
 * body is read), malformed bodies (400 with the error envelope), the rules as 409/422, and a round
 * of options, variants, change and removal as the editor makes it.
 */
const HOST = 'lighting.localhost';
const BASE = '/skulocity/api/v1/catalog/products';
let t: TestApp;
let owner: BrowserSession;
let shopper: BrowserSession;
let gardenOwner: BrowserSession;
let catalogStaff: BrowserSession;
let settingsStaff: BrowserSession;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', 'garden.localhost');
  await createStaff(t.database, 'lighting', 'va-catalog@lighting.test', ['catalog']);
  await createStaff(t.database, 'lighting', 'va-settings@lighting.test', ['settings']);
  catalogStaff = await signIn(t.app, 'va-catalog@lighting.test', 'owner-demo-1', HOST);
  settingsStaff = await signIn(t.app, 'va-settings@lighting.test', 'owner-demo-1', HOST);
});
afterAll(async () => t?.close());

type Session = BrowserSession | null;
const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  opts: { session?: Session; payload?: unknown; host?: string; raw?: string } = {},
) => {
  const host = opts.host ?? HOST;
  const session = opts.session === undefined ? owner : opts.session;
  return t.app.inject({
    method,
    url,
    headers: {
      host,
      origin: `http://${host}`,
      ...(opts.raw !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(session ?? {}),
    },
    ...(opts.raw !== undefined ? { payload: opts.raw } : {}),
    ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}),
  });
};
const u = () => randomBytes(4).toString('hex').toUpperCase();

async function product() {
  const sku = `VR-${u()}`;
  const res = await call('POST', BASE, {
    payload: { fields: { productName: `Drill ${sku}`, sku, listPrice: 9900, status: 'ACTIVE' } },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { productId: res.json().data.productId as string, sku };
}
const optionsBody = {
  options: [
    { name: 'Battery', values: [{ label: '2 Ah' }, { label: '5 Ah' }] },
    { name: 'Colour', values: [{ label: 'Red' }, { label: 'Blue' }, { label: 'Black' }] },
  ],
};

describe('callers', () => {
  it('a visitor 401, a shopper and staff without catalog 403, catalog staff allowed; all before the body', async () => {
    const { productId } = await product();
    const paths = [
      ['PUT', `${BASE}/${productId}/options`],
      ['POST', `${BASE}/${productId}/variants`],
      ['PUT', `${BASE}/${productId}/variants/${productId}`],
      ['DELETE', `${BASE}/${productId}/variants/${productId}`],
      ['GET', `${BASE}/${productId}/variants`],
    ] as const;
    for (const [method, url] of paths) {
      // A malformed body does not change the answer: who may act comes first.
      const payload = method === 'GET' || method === 'DELETE' ? undefined : { nonsense: true };
      expect((await call(method, url, { session: null, payload })).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, { session: shopper, payload })).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(method, url, { session: settingsStaff, payload })).statusCode, `${method} ${url}`).toBe(403);
    }
    const res = await call('PUT', `${BASE}/${productId}/options`, { session: catalogStaff, payload: optionsBody });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("another store's product and another product's variant are 404, before the body", async () => {
    const a = await product();
    const b = await product();
    for (const [method, url] of [
      ['PUT', `${BASE}/${a.productId}/options`],
      ['POST', `${BASE}/${a.productId}/variants`],
      ['PUT', `${BASE}/${a.productId}/variants/${a.productId}`],
      ['DELETE', `${BASE}/${a.productId}/variants/${a.productId}`],
      ['GET', `${BASE}/${a.productId}/variants`],
    ] as const) {
      const payload = method === 'GET' || method === 'DELETE' ? undefined : { nonsense: true };
      const res = await call(method, url, { session: gardenOwner, host: 'garden.localhost', payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await call(method, `${BASE}/${a.productId}/variants/${b.productId}`, {
        payload: method === 'PUT' ? { nonsense: true } : undefined,
      });
      expect(res.statusCode).toBe(404);
    }
    expect((await call('GET', `${BASE}/NOPE${u()}/variants`)).statusCode).toBe(404);
  });
});

describe('malformed', () => {
  it('answers 400 with the error envelope, never a crash', async () => {
    const { productId } = await product();
    const bad: [string, string, unknown][] = [
      ['PUT', 'options', { options: [{ name: 'A', values: [] }] }],
      ['PUT', 'options', { options: 'x' }],
      [
        'PUT',
        'options',
        {
          options: ['A', 'B', 'C', 'D'].map((name) => ({ name, values: [{ label: 'x' }] })),
        },
      ],
      ['PUT', 'options', { options: [{ name: 'A', values: [{ label: 'x' }, { label: 'X' }] }] }],
      ['PUT', 'options', { options: [{ name: 'A', values: [{ label: 'x', swatchColor: 'red' }] }] }],
      ['POST', 'variants', { values: ['x'], sku: 'has space', listPrice: 1 }],
      ['POST', 'variants', { values: ['x'], sku: 'OK-1', listPrice: -1 }],
      ['POST', 'variants', { values: ['x'], sku: 'OK-1', listPrice: 100, salePrice: 200 }],
      ['POST', 'variants', { values: ['x'], sku: 'OK-1', listPrice: 100, stock: -3 }],
      ['POST', 'variants', { values: ['x'], sku: 'OK-1', listPrice: 100, extra: 1 }],
      ['POST', 'variants', []],
      [`PUT`, `variants/${productId}`, { values: 'x' }],
    ];
    for (const [method, path, payload] of bad) {
      const res = await call(method as 'PUT', `${BASE}/${productId}/${path}`, { payload });
      expect(res.statusCode, `${method} ${path} ${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      expect(res.json().code).toMatch(/VALIDATION_FAILED|BAD_REQUEST/);
    }
    const broken = await call('POST', `${BASE}/${productId}/variants`, { raw: '{"values": [' });
    expect(broken.statusCode).toBe(400);
    // An id that cannot be a variant's is no variant of this product.
    const badId = await call('PUT', `${BASE}/${productId}/variants/not%20an%20id`, { payload: {} });
    expect(badId.statusCode).toBe(404);
  });
});

describe('the owner builds a product with variants', () => {
  it('options, six variants, a change, the rules as 409/422, a removal; the product list row follows', async () => {
    const { productId, sku } = await product();
    const opts = await call('PUT', `${BASE}/${productId}/options`, { payload: optionsBody });
    expect(opts.statusCode, opts.body).toBe(200);
    let view = opts.json().data as ProductVariantsView;
    expect(view.variants).toEqual([expect.objectContaining({ variantId: productId, title: '2 Ah / Red' })]);

    const combos = [
      ['2 Ah', 'Blue'],
      ['2 Ah', 'Black'],
      ['5 Ah', 'Red'],
      ['5 Ah', 'Blue'],
      ['5 Ah', 'Black'],
    ];
    for (const [i, values] of combos.entries()) {
      const res = await call('POST', `${BASE}/${productId}/variants`, {
        payload: { values, sku: `${sku}-${i}`, listPrice: 9900 + i * 1000, stock: i + 1 },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.headers.location).toMatch(/\/variants\/V[0-9A-F]{16}$/);
      view = res.json().data;
    }
    expect(view.variants).toHaveLength(6);

    const taken = await call('POST', `${BASE}/${productId}/variants`, {
      payload: { values: ['2 Ah', 'Blue'], sku: `${sku}-new`, listPrice: 100 },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/2 Ah \/ Blue already exists/);
    const notAValue = await call('POST', `${BASE}/${productId}/variants`, {
      payload: { values: ['2 Ah', 'Green'], sku: `${sku}-0`, listPrice: 100 },
    });
    expect(notAValue.statusCode).toBe(422);
    expect(notAValue.json().message).toMatch(/Colour has no value Green/);

    const first = view.variants.find((v) => v.title === '5 Ah / Black');
    const changed = await call('PUT', `${BASE}/${productId}/variants/${first?.variantId}`, {
      payload: { values: ['5 Ah', 'Black'], sku: `${sku}-0`, listPrice: 100 },
    });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().message).toMatch(new RegExp(`SKU ${sku}-0 is already used by Drill ${sku}, 2 Ah / Blue`));

    const ok = await call('PUT', `${BASE}/${productId}/variants/${first?.variantId}`, {
      payload: {
        values: ['5 Ah', 'Black'],
        sku: `${sku}-top`,
        listPrice: 19900,
        salePrice: 17900,
        stock: 8,
        stockSeen: 5,
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.variants.find((v: { variantId: string }) => v.variantId === first?.variantId)).toMatchObject({
      sku: `${sku}-top`,
      salePrice: 17900,
      stock: 8,
    });

    const removed = await call('DELETE', `${BASE}/${productId}/variants/${first?.variantId}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.outcome).toBe('removed');
    const again = await call('DELETE', `${BASE}/${productId}/variants/${first?.variantId}`);
    expect(again.statusCode).toBe(422);

    const list = await call('GET', `${BASE}/${productId}/variants`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.variants.filter((v: { removed: boolean }) => !v.removed)).toHaveLength(5);
  });
});

describe('what GET answers can be sent back', () => {
  it('a variant as read, with its valueIds, is taken by PUT; labels and ids together are 400', async () => {
    const { productId, sku } = await product();
    await call('PUT', `${BASE}/${productId}/options`, { payload: optionsBody });
    const added = await call('POST', `${BASE}/${productId}/variants`, {
      payload: { values: ['5 Ah', 'Blue'], sku: `${sku}-B`, listPrice: 12900, stock: 4 },
    });
    expect(added.statusCode, added.body).toBe(201);
    const read = (await call('GET', `${BASE}/${productId}/variants`)).json().data as ProductVariantsView;
    const blue = read.variants.find((v) => v.title === '5 Ah / Blue');
    if (!blue) throw new Error('no 5 Ah / Blue');
    // The read as it is, less what a write does not take, and a new price.
    const { productId: _p, title: _t, removed: _r, stock, ...writable } = blue;
    const put = await call('PUT', `${BASE}/${productId}/variants/${blue.variantId}`, {
      payload: { ...writable, listPrice: 13900, stock, stockSeen: stock },
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = (put.json().data as ProductVariantsView).variants.find((v) => v.variantId === blue.variantId);
    expect(after).toMatchObject({ title: '5 Ah / Blue', valueIds: blue.valueIds, listPrice: 13900, stock: 4 });

    // valueIds move a variant to another combination; an id of another option is 422 naming it.
    const black = read.options[1]?.values.find((v) => v.label === 'Black')?.valueId as string;
    const moved = await call('PUT', `${BASE}/${productId}/variants/${blue.variantId}`, {
      payload: { ...writable, valueIds: [blue.valueIds[0], black] },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((moved.json().data as ProductVariantsView).variants.find((v) => v.variantId === blue.variantId)?.title).toBe(
      '5 Ah / Black',
    );
    const wrong = await call('POST', `${BASE}/${productId}/variants`, {
      payload: { valueIds: [black, black], sku: `${sku}-W`, listPrice: 100 },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toMatch(/Battery has no value/);
    const both = await call('POST', `${BASE}/${productId}/variants`, {
      payload: { values: ['2 Ah', 'Blue'], valueIds: blue.valueIds, sku: `${sku}-W`, listPrice: 100 },
    });
    expect(both.statusCode).toBe(400);
    const neither = await call('POST', `${BASE}/${productId}/variants`, {
      payload: { sku: `${sku}-W`, listPrice: 100 },
    });
    expect(neither.statusCode).toBe(400);
  });
});

describe('reordering options and values', () => {
  it('moves the variants’ values with the options, keeps ids, retitles; three options that swap are 422', async () => {
    const { productId, sku } = await product();
    let view = (await call('PUT', `${BASE}/${productId}/options`, { payload: optionsBody })).json()
      .data as ProductVariantsView;
    for (const [i, values] of [
      ['2 Ah', 'Blue'],
      ['5 Ah', 'Red'],
    ].entries()) {
      view = (
        await call('POST', `${BASE}/${productId}/variants`, {
          payload: { values, sku: `${sku}-${i}`, listPrice: 9900 },
        })
      ).json().data;
    }
    const [battery, colour] = view.options as [
      ProductVariantsView['options'][number],
      ProductVariantsView['options'][number],
    ];
    const reordered = await call('PUT', `${BASE}/${productId}/options`, {
      payload: {
        options: [
          { optionId: colour.optionId, name: colour.name, values: [...colour.values].reverse() },
          { optionId: battery.optionId, name: battery.name, values: battery.values },
        ],
      },
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    const after = reordered.json().data as ProductVariantsView;
    expect(after.options.map((o) => [o.optionId, o.position, o.values.map((v) => v.label)])).toEqual([
      [colour.optionId, 1, ['Black', 'Blue', 'Red']],
      [battery.optionId, 2, ['2 Ah', '5 Ah']],
    ]);
    for (const v of view.variants) {
      const now = after.variants.find((x) => x.variantId === v.variantId);
      expect(now?.valueIds).toEqual([...v.valueIds].reverse());
      expect(now?.title).toBe(v.title.split(' / ').reverse().join(' / '));
    }
    // The options as read, less their position (the order sent is the position).
    const asInput = (os: ProductVariantsView['options']) => os.map(({ position: _p, ...o }) => o);
    const three = await call('PUT', `${BASE}/${productId}/options`, {
      payload: { options: [...asInput(after.options), { name: 'Grip', values: [{ label: 'Soft' }] }] },
    });
    expect(three.statusCode, three.body).toBe(200);
    const opts3 = (three.json().data as ProductVariantsView).options;
    const swapped = await call('PUT', `${BASE}/${productId}/options`, {
      payload: { options: asInput([opts3[1], opts3[0], opts3[2]] as ProductVariantsView['options']) },
    });
    expect(swapped.statusCode).toBe(422);
    expect(swapped.json().message).toMatch(/three options cannot be reordered yet/);
    expect((await call('GET', `${BASE}/${productId}/variants`)).json().data.options).toEqual(opts3);
  });
});
