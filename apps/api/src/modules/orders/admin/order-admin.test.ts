import { type Db, schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors';
import { placeGuestOrder, stockedProductId } from '../../../test/guest-order';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { startPayPalStandIn } from '../../../test/paypal-stand-in';
import { createTestSmtp } from '../../../test/smtp';
import { createStaff } from '../../../test/staff';
import { createMailer } from '../../mail/index';
import { createPayPalClient, createTestPaymentProvider, type PaymentProvider } from '../../payments/index';

// The order page's actions through the HTTP API, on a real database, with mail
// delivered to a real SMTP server and PayPal refunds sent to the stand-in.

const smtp = createTestSmtp();
const received = smtp.received;
/** A received mail's body with quoted-printable soft breaks undone. */
const plain = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

/** The test provider; `unreachableNext` makes the next refund fail as a provider that cannot be reached. */
let unreachableNext = false;
function provider(): PaymentProvider {
  const inner = createTestPaymentProvider();
  return {
    id: inner.id,
    tokenizeCard: (c) => inner.tokenizeCard(c),
    charge: (r) => inner.charge(r),
    async refund(req) {
      if (unreachableNext) {
        unreachableNext = false;
        throw new AppError(502, 'UNAVAILABLE', 'The payment provider could not be reached.');
      }
      return inner.refund(req);
    },
  };
}

let t: TestApp;
let db: Db;
let standIn: Awaited<ReturnType<typeof startPayPalStandIn>>;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
let catalogStaff: BrowserSession;
let ordersStaff: BrowserSession;
const HOST = 'lighting.localhost';
const A = '/api/v1/orders';
const transitioned: { orderId: string; from: string; to: string }[] = [];
let seq = 0;

function call(
  method: 'GET' | 'POST',
  url: string,
  opts: { body?: unknown; session?: BrowserSession | null; host?: string } = {},
) {
  const host = opts.host ?? HOST;
  return t.app.inject({
    method,
    url,
    headers: { host, origin: `http://${host}`, ...(opts.session === null ? {} : (opts.session ?? owner)) },
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
  });
}

/** A guest's paid order (test card) of `quantity` units of a stocked product. */
async function paidOrder(quantity = 2) {
  const productId = await stockedProductId(db, 'lighting');
  const email = `buyer-${++seq}-${Date.now()}@example.com`;
  const res = await placeGuestOrder(t.app, { host: HOST, productId, quantity, email });
  expect(res.statusCode).toBe(200);
  return { orderId: res.json().data.orderId as string, productId, email };
}

async function stockOf(productId: string) {
  const [row] = await db
    .select({ n: schema.products.stockQuantity })
    .from(schema.products)
    .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.productId, productId)));
  return row?.n as number;
}

async function auditOf(orderId: string) {
  return db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.tenantId, 'lighting'), eq(schema.auditLog.entityId, orderId)))
    .orderBy(asc(schema.auditLog.id));
}

/** Mail to `to` once the mail jobs ran. */
async function mailTo(to: string) {
  await t.services.jobs.drain();
  return received.filter((m) => m.to.includes(to)).map((m) => plain(m.raw));
}

async function pdfText(buffer: Buffer) {
  const pdf = await getDocumentProxy(new Uint8Array(buffer));
  const parts: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str);
  }
  return parts.join('\n');
}

beforeAll(async () => {
  const smtpUrl = await smtp.listen();
  standIn = await startPayPalStandIn({ clientId: 'cid', clientSecret: 'secret' });
  t = await createTestApp({
    paymentProvider: provider(),
    mailer: createMailer({ smtpUrl, from: 'Shop <no-reply@shop.test>', outboxDir: '' }),
    config: { PAYPAL_BASE_URL: standIn.url, PAYPAL_CLIENT_ID: 'cid', PAYPAL_CLIENT_SECRET: 'secret' },
  });
  db = t.database.db;
  t.services.events.on('order.transitioned', (e) => {
    transitioned.push({ orderId: e.orderId, from: e.from, to: e.to });
  });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', 'garden.localhost');
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  await createStaff(t.database, 'lighting', 'cat-only@lighting.test', ['catalog']);
  await createStaff(t.database, 'lighting', 'orders-only@lighting.test', ['orders']);
  catalogStaff = await signIn(t.app, 'cat-only@lighting.test', 'owner-demo-1', HOST);
  ordersStaff = await signIn(t.app, 'orders-only@lighting.test', 'owner-demo-1', HOST);
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
  await smtp.close();
});

describe('the order for staff', () => {
  it('shows lines, money, payment, customer and a timeline newest first', async () => {
    const { orderId, email } = await paidOrder(2);
    const res = await call('GET', `${A}/${orderId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const o = res.json().data;
    expect(o).toMatchObject({
      orderId,
      status: 'paid',
      statusLabel: 'Paid',
      paymentStatus: 'paid',
      paymentStatusLabel: 'Paid',
      customer: { email, registered: false, userId: null, orderCount: 1 },
      can: { fulfil: true, deliver: false, cancel: true, refund: true },
    });
    expect(o.customer.href).toBe(`/manage-store/customers/guest/${encodeURIComponent(email)}`);
    expect(o.lines[0]).toMatchObject({ lineNo: 1, quantity: 2, refundedQuantity: 0 });
    expect(o.lines[0].productHref).toMatch(/^\/manage-store\/products\//);
    expect(o.payment).toMatchObject({ captured: o.total, refunded: 0, refundable: o.total, refunds: [] });
    expect(o.subtotal - o.discount + o.shipping + o.tax).toBe(o.total);
    // The order was placed, then paid: the newest status first.
    const statuses = o.timeline.filter((e: { kind: string }) => e.kind === 'status');
    expect(statuses.map((e: { message: string }) => e.message)[0]).toMatch(/Payment received/);
    const times = o.timeline.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('401 for a visitor, 403 for a shopper and for staff without orders, 404 in another store', async () => {
    const { orderId } = await paidOrder(1);
    expect((await call('GET', `${A}/${orderId}`, { session: null })).statusCode).toBe(401);
    expect((await call('GET', `${A}/${orderId}`, { session: shopper })).statusCode).toBe(403);
    expect((await call('GET', `${A}/${orderId}`, { session: catalogStaff })).statusCode).toBe(403);
    expect((await call('GET', `${A}/${orderId}`, { session: ordersStaff })).statusCode).toBe(200);
    const foreign = await call('GET', `${A}/${orderId}`, { session: gardenOwner, host: 'garden.localhost' });
    expect(foreign.statusCode).toBe(404);
    // Another store's owner cannot act on it either, and nothing changes.
    for (const [path, body] of [
      ['fulfil', { carrier: 'ups', trackingNumber: '1Z999' }],
      ['cancel', {}],
      ['refund', { amount: 100 }],
      ['notes', { message: 'x' }],
    ] as const) {
      const r = await call('POST', `${A}/${orderId}/${path}`, { session: gardenOwner, host: 'garden.localhost', body });
      expect(r.statusCode).toBe(404);
    }
    for (const [path, body] of [
      ['fulfil', { carrier: 'ups', trackingNumber: '1Z999' }],
      ['deliver', {}],
      ['cancel', {}],
      ['refund', { amount: 100 }],
      ['notes', { message: 'x' }],
    ] as const) {
      expect((await call('POST', `${A}/${orderId}/${path}`, { session: null, body })).statusCode).toBe(401);
      expect((await call('POST', `${A}/${orderId}/${path}`, { session: shopper, body })).statusCode).toBe(403);
      expect((await call('POST', `${A}/${orderId}/${path}`, { session: catalogStaff, body })).statusCode).toBe(403);
    }
    expect((await call('GET', `${A}/${orderId}`)).json().data.status).toBe('paid');
    expect((await call('GET', `${A}/LIG-NOPE/invoice.pdf`)).statusCode).toBe(404);
  });
});

describe('notes', () => {
  it('adds a staff note to the timeline, audited, never shown to the shopper', async () => {
    const { orderId } = await paidOrder(1);
    const empty = await call('POST', `${A}/${orderId}/notes`, { body: { message: '   ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('message');
    const res = await call('POST', `${A}/${orderId}/notes`, { body: { message: 'Customer called: gift wrap please' } });
    expect(res.statusCode).toBe(200);
    const o = res.json().data.order;
    expect(o.timeline[0]).toMatchObject({
      kind: 'note',
      message: 'Customer called: gift wrap please',
      visibleToShopper: false,
    });
    expect(o.timeline[0].actor).toBeTruthy();
    expect((await auditOf(orderId)).map((a) => a.action)).toContain('note');
    const [row] = await db
      .select()
      .from(schema.orderEvents)
      .where(and(eq(schema.orderEvents.tenantId, 'lighting'), eq(schema.orderEvents.orderId, orderId)));
    expect(row).toMatchObject({ kind: 'note', visibleToShopper: false, actorKind: 'staff' });
  });
});

describe('fulfil', () => {
  it('refuses a bad carrier, a missing tracking number and a non-http link, naming the field', async () => {
    const { orderId } = await paidOrder(1);
    const cases: [unknown, string][] = [
      [{ carrier: 'pigeon', trackingNumber: '1' }, 'carrier'],
      [{ carrier: 'ups', trackingNumber: '' }, 'trackingNumber'],
      [
        { carrier: 'other', carrierName: 'Acme', trackingNumber: '1', trackingUrl: 'javascript:alert(1)' },
        'trackingUrl',
      ],
      [{ carrier: 'other', trackingNumber: '1', trackingUrl: 'https://acme.example/t/1' }, 'carrierName'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', `${A}/${orderId}/fulfil`, { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toContain(field);
    }
    expect((await call('GET', `${A}/${orderId}`)).json().data.status).toBe('paid');
  });

  it('ships a paid order with UPS: shipment, timeline, audit, event, and the shopper’s mail with the tracking link', async () => {
    const { orderId, email } = await paidOrder(1);
    const res = await call('POST', `${A}/${orderId}/fulfil`, {
      body: { carrier: 'ups', trackingNumber: '1Z999AA10123456784' },
    });
    expect(res.statusCode).toBe(200);
    const o = res.json().data.order;
    expect(o.status).toBe('fulfilled');
    expect(o.shipments).toEqual([
      expect.objectContaining({
        carrierName: 'UPS',
        trackingNumber: '1Z999AA10123456784',
        trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      }),
    ]);
    expect(
      o.timeline
        .slice(0, 3)
        .map((e: { kind: string }) => e.kind)
        .sort(),
    ).toEqual(['email', 'fulfillment', 'status']);
    expect(o.can).toMatchObject({ fulfil: false, deliver: true, cancel: false });
    expect(transitioned).toContainEqual({ orderId, from: 'paid', to: 'fulfilled' });
    const audit = (await auditOf(orderId)).find((a) => a.action === 'fulfil');
    expect(audit).toBeDefined();

    const mails = await mailTo(email);
    expect(mails).toHaveLength(2); // the receipt, then the shipment
    const shipped = mails[1] as string;
    expect(shipped).toContain(`is on its way`);
    expect(shipped).toContain('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    const link = /(http:\/\/lighting\.localhost(?::\d+)?\/order\?orderId=[^\s&]+&key=[A-Za-z0-9._%-]+)/.exec(
      shipped,
    )?.[1];
    expect(link).toBeDefined();

    // The shopper, through the mail's link, sees the shipment and the step.
    const key = new URL(link as string).searchParams.get('key') as string;
    const mine = await t.app.inject({
      url: `/skulocity/api/v1/ecommerce/order/status?orderId=${orderId}&key=${encodeURIComponent(key)}`,
      headers: { host: HOST },
    });
    expect(mine.statusCode).toBe(200);
    const order = mine.json().data;
    expect(order.shipments[0]).toMatchObject({ carrierName: 'UPS', trackingNumber: '1Z999AA10123456784' });
    expect(order.events.map((e: { kind: string }) => e.kind)).toEqual(['fulfillment']);
    expect(order.statusLabel).toBe('Shipped');

    // Shipped once: the state machine refuses a second shipment.
    const again = await call('POST', `${A}/${orderId}/fulfil`, { body: { carrier: 'ups', trackingNumber: '1Z2' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('INVALID_TRANSITION');
  });

  it("ships with another carrier's typed link, without a mail when asked", async () => {
    const { orderId, email } = await paidOrder(1);
    const res = await call('POST', `${A}/${orderId}/fulfil`, {
      body: {
        carrier: 'other',
        carrierName: 'Acme Couriers',
        trackingNumber: 'AC-1',
        trackingUrl: 'https://acme.example/track/AC-1',
        notify: false,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.order.shipments[0]).toMatchObject({
      carrierName: 'Acme Couriers',
      trackingUrl: 'https://acme.example/track/AC-1',
    });
    expect(await mailTo(email)).toHaveLength(1);
  });
});

describe('deliver', () => {
  it('refuses a move not in the table (paid → delivered) with 409, then delivers a shipped order', async () => {
    const { orderId } = await paidOrder(1);
    const refused = await call('POST', `${A}/${orderId}/deliver`, { body: {} });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('INVALID_TRANSITION');
    await call('POST', `${A}/${orderId}/fulfil`, { body: { carrier: 'dhl', trackingNumber: '123', notify: false } });
    const res = await call('POST', `${A}/${orderId}/deliver`, { body: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.order.status).toBe('delivered');
    expect(transitioned).toContainEqual({ orderId, from: 'fulfilled', to: 'delivered' });
    expect((await auditOf(orderId)).map((a) => a.action)).toContain('deliver');
  });
});

describe('cancel', () => {
  it('releases the stock once, refunds the capture, emails the shopper; a second cancel is 409 and releases nothing', async () => {
    const { orderId, productId, email } = await paidOrder(3);
    const stockBefore = await stockOf(productId);
    const res = await call('POST', `${A}/${orderId}/cancel`, { body: { reason: 'Out of stock at the warehouse' } });
    expect(res.statusCode).toBe(200);
    const o = res.json().data.order;
    expect(o.status).toBe('cancelled');
    expect(o.paymentStatus).toBe('refunded');
    expect(o.payment.refunded).toBe(o.payment.captured);
    expect(o.payment.refunds).toHaveLength(1);
    expect(o.lines[0].refundedQuantity).toBe(3);
    expect(await stockOf(productId)).toBe(stockBefore + 3);
    expect(transitioned).toContainEqual({ orderId, from: 'paid', to: 'cancelled' });
    expect((await auditOf(orderId)).map((a) => a.action)).toEqual(expect.arrayContaining(['cancel', 'refund']));

    const again = await call('POST', `${A}/${orderId}/cancel`, { body: {} });
    expect(again.statusCode).toBe(409);
    expect(await stockOf(productId)).toBe(stockBefore + 3);
    const released = await db
      .select()
      .from(schema.stockMovements)
      .where(
        and(
          eq(schema.stockMovements.tenantId, 'lighting'),
          eq(schema.stockMovements.orderId, orderId),
          eq(schema.stockMovements.reason, 'RELEASED'),
        ),
      );
    expect(released).toHaveLength(1);

    const mails = await mailTo(email);
    const notice = mails.find((m) => m.includes('has been cancelled')) as string;
    expect(notice).toContain('Out of stock at the warehouse');
    expect(notice).toMatch(/We have refunded \$[\d.,]+ to your/);
  });

  it('two cancels at once: one wins, the stock comes back exactly once', async () => {
    const { orderId, productId } = await paidOrder(2);
    const before = await stockOf(productId);
    const [a, b] = await Promise.all([
      call('POST', `${A}/${orderId}/cancel`, { body: { notify: false } }),
      call('POST', `${A}/${orderId}/cancel`, { body: { notify: false } }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await stockOf(productId)).toBe(before + 2);
    const view = (await call('GET', `${A}/${orderId}`)).json().data;
    expect(view.payment.refunds).toHaveLength(1);
    expect(view.payment.refunded).toBe(view.payment.captured);
  });

  it('a shipped order cannot be cancelled', async () => {
    const { orderId, productId } = await paidOrder(1);
    await call('POST', `${A}/${orderId}/fulfil`, { body: { carrier: 'usps', trackingNumber: '9400', notify: false } });
    const before = await stockOf(productId);
    const res = await call('POST', `${A}/${orderId}/cancel`, { body: {} });
    expect(res.statusCode).toBe(409);
    expect(await stockOf(productId)).toBe(before);
  });
});

describe('refund', () => {
  it('refunds one line partially, never above the capture, mails the shopper, and the invoices show it', async () => {
    const { orderId, email } = await paidOrder(2);
    const view = (await call('GET', `${A}/${orderId}`)).json().data;
    const line = view.lines[0];
    const res = await call('POST', `${A}/${orderId}/refund`, {
      body: { amount: line.refundPerUnit, lines: [{ lineNo: 1, quantity: 1 }], reason: 'Arrived scratched' },
    });
    expect(res.statusCode).toBe(200);
    const o = res.json().data.order;
    expect(o.paymentStatus).toBe('partially_refunded');
    expect(o.status).toBe('paid');
    expect(o.lines[0].refundedQuantity).toBe(1);
    expect(o.payment.refunded).toBe(line.refundPerUnit);
    // California taxes the order: the refund carries its share of the tax, shown with it below.
    const refundTax = o.payment.refunds[0].taxAmount as number;
    expect(refundTax).toBeGreaterThan(0);
    expect(o.timeline.some((e: { kind: string }) => e.kind === 'refund')).toBe(true);

    // More than is left: refused, naming the amount; nothing changes.
    const tooMuch = await call('POST', `${A}/${orderId}/refund`, { body: { amount: view.total } });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().code).toBe('REFUND_EXCEEDS_CAPTURED');
    expect(tooMuch.body).toContain('amount');
    const line2 = await call('POST', `${A}/${orderId}/refund`, {
      body: { amount: 1, lines: [{ lineNo: 1, quantity: 2 }] },
    });
    expect(line2.statusCode).toBe(422);
    const bad = await call('POST', `${A}/${orderId}/refund`, { body: { amount: -5 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('amount');
    expect((await call('GET', `${A}/${orderId}`)).json().data.payment.refunded).toBe(line.refundPerUnit);

    const mails = await mailTo(email);
    const notice = mails.find((m) => m.includes('We have refunded')) as string;
    expect(notice).toContain('Arrived scratched');

    // The shopper's order shows the refund, and both invoices print it with the net paid.
    const key = /&key=([A-Za-z0-9._%-]+)/.exec(notice)?.[1] as string;
    const mine = (
      await t.app.inject({
        url: `/skulocity/api/v1/ecommerce/order/status?orderId=${orderId}&key=${key}`,
        headers: { host: HOST },
      })
    ).json().data;
    expect(mine.refunds).toEqual([
      expect.objectContaining({ amount: line.refundPerUnit, taxAmount: refundTax, reason: 'Arrived scratched' }),
    ]);
    expect(mine.refundedTotal).toBe(line.refundPerUnit);
    const staffPdf = await call('GET', `${A}/${orderId}/invoice.pdf`);
    expect(staffPdf.statusCode).toBe(200);
    expect(staffPdf.headers['content-type']).toBe('application/pdf');
    const text = (await pdfText(staffPdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain(`(Arrived scratched), incl. tax $${(refundTax / 100).toFixed(2)} -$`);
    expect(text).toMatch(/Refunded \d{4}-\d\d-\d\d/);
    expect(text).toContain('Net paid');
    const shopperPdf = await t.app.inject({
      url: `/skulocity/api/v1/ecommerce/order/order/pdf?orderId=${orderId}&key=${key}`,
      headers: { host: HOST },
    });
    expect(shopperPdf.statusCode).toBe(200);
    expect(await pdfText(shopperPdf.rawPayload)).toContain('Net paid');
    expect((await call('GET', `${A}/${orderId}/invoice.pdf`, { session: shopper })).statusCode).toBe(403);
  });

  it('the rest of the capture moves the order to refunded; then nothing is left', async () => {
    const { orderId } = await paidOrder(1);
    const view = (await call('GET', `${A}/${orderId}`)).json().data;
    const res = await call('POST', `${A}/${orderId}/refund`, { body: { amount: view.total, notify: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.order).toMatchObject({ status: 'refunded', paymentStatus: 'refunded' });
    expect(transitioned).toContainEqual({ orderId, from: 'paid', to: 'refunded' });
    // A refunded order has nothing left to give back: the seam refuses it as a state conflict.
    const more = await call('POST', `${A}/${orderId}/refund`, { body: { amount: 1 } });
    expect(more.statusCode).toBe(409);
  });

  it('a provider that cannot be reached leaves the refund pending; retry settles it once', async () => {
    const { orderId } = await paidOrder(1);
    unreachableNext = true;
    const res = await call('POST', `${A}/${orderId}/refund`, { body: { amount: 500, notify: false } });
    expect(res.statusCode).toBe(502);
    const pending = (await call('GET', `${A}/${orderId}`)).json().data;
    expect(pending.payment.refunds).toEqual([expect.objectContaining({ status: 'pending', amount: 500 })]);
    expect(pending.payment.refunded).toBe(0);
    expect(pending.payment.refundable).toBe(pending.total - 500);
    const refundId = pending.payment.refunds[0].refundId;
    const retried = await call('POST', `${A}/${orderId}/refunds/${refundId}/retry`, { body: {} });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data.order.payment).toMatchObject({ refunded: 500 });
    const twice = await call('POST', `${A}/${orderId}/refunds/${refundId}/retry`, { body: {} });
    expect(twice.statusCode).toBe(200);
    expect(twice.json().data.order.payment.refunded).toBe(500);
    expect((await call('POST', `${A}/${orderId}/refunds/RF-NOPE/retry`, { body: {} })).statusCode).toBe(404);
  });

  it('refunds a PayPal order at PayPal (the stand-in)', async () => {
    const paypal = createPayPalClient({ baseUrl: standIn.url, clientId: 'cid', clientSecret: 'secret' });
    const created = await paypal.createOrder({
      amountMinor: 5000,
      currency: 'USD',
      referenceId: 'LIG-PP',
      requestId: 'order-admin-create-1',
      returnUrl: 'http://lighting.localhost/return',
      cancelUrl: 'http://lighting.localhost/cancel',
    });
    await fetch(created.approveUrl, { redirect: 'manual' });
    const capture = await paypal.captureOrder(created.id, 'order-admin-capture-1');
    if (!capture.ok) throw new Error('capture failed');
    const { orderId } = await paidOrder(1);
    await db
      .update(schema.orders)
      .set({
        paymentProvider: 'paypal',
        paymentRef: capture.captureId,
        paymentLabel: 'PayPal',
        capturedAmount: 5000,
        grandTotal: 5000,
        subtotal: 5000,
        shippingTotal: 0,
        taxTotal: 0,
        discount: 0,
      })
      .where(and(eq(schema.orders.tenantId, 'lighting'), eq(schema.orders.orderId, orderId)));
    const res = await call('POST', `${A}/${orderId}/refund`, { body: { amount: 1250, reason: 'Late', notify: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.order.payment).toMatchObject({ provider: 'paypal', refunded: 1250 });
    expect(standIn.refunds.map((r) => [r.captureId, r.amount.value])).toEqual([[capture.captureId, '12.50']]);

    standIn.refuseNextRefund('TRANSACTION_REFUSED');
    const refused = await call('POST', `${A}/${orderId}/refund`, { body: { amount: 100, notify: false } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('REFUND_DECLINED');
    const after = (await call('GET', `${A}/${orderId}`)).json().data;
    expect(after.payment.refunded).toBe(1250);
    expect(after.payment.refunds.map((r: { status: string }) => r.status)).toEqual(['succeeded', 'failed']);
  });
});
