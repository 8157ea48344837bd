import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Database } from '@app/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALIFORNIA_SHIP_TO, stockedProduct } from '../../test/guest-order';
import { SEEDED_HOSTS, type TestApp } from '../../test/harness';
import { connectStoreToPayPal } from '../../test/paypal-seller';
import { type PayPalStandIn, startPayPalStandIn, type WebhookInput } from '../../test/paypal-stand-in';
import { type MoveWorld, moveStore, openMoveWorld, rowsOf, storeRows } from './store-move.fixture';

// PayPal's webhooks reach a store moved to another database (decision 123). They are the platform's
// routes, outside any store's context: the service finds the store (by the order's custom_id, or by
// its seller, looked for at home and then on each database stores were moved to) and applies the
// event's effects, and the claim of its event id, where the store lives. As in the PayPal webhook tests,
// the stand-in signs each delivery and the server listens on a port. The set-up connects "lighting"
// to PayPal and then moves it, so its seller row is on the other database only.

const HOST = SEEDED_HOSTS.lighting.host;
const B = '/skulocity/api/v1';
const WEBHOOK_ID = 'WH9MOVED0STORE0ID';
const EMAIL = 'moved-paypal@example.com';
let world: MoveWorld;
let t: TestApp;
let shard: Database;
let paypal: PayPalStandIn;
let webhookUrl: string;
let merchantId: string;

const send = (input: WebhookInput) => paypal.deliverWebhook(webhookUrl, input);
/** The claim of an event id on one database: its tenant and outcome, if the event was recorded there. */
const claimOf = (db: Database, eventId: string) =>
  rowsOf<{ tenant_id: string | null; outcome: string }>(
    db,
    sql`SELECT tenant_id, outcome FROM paypal_webhook_events WHERE event_id = ${eventId}`,
  );
const sellerHistory = (db: Database) =>
  rowsOf<{ from_status: string | null; to_status: string; actor_kind: string }>(
    db,
    sql`SELECT from_status, to_status, actor_kind FROM paypal_seller_history WHERE tenant_id = 'lighting' ORDER BY id`,
  );

/** A guest's cart on the moved store (its products are read where it lives): the cart's cookie. */
async function guestCart() {
  const { productId } = await stockedProduct(shard.db, 'lighting');
  const added = await t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/product/addToCart`,
    headers: { host: HOST },
    payload: { productId, quantity: 1 },
  });
  expect(added.statusCode, added.body).toBe(200);
  return String([added.headers['set-cookie']].flat()[0]).split(';')[0] as string;
}
const createPayPalOrder = (cookie: string) =>
  t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/createPaypalOrder`,
    headers: { host: HOST, cookie },
    payload: { email: EMAIL, shipTo: CALIFORNIA_SHIP_TO, shippingMethodId: 'STANDARD' },
  });

beforeAll(async () => {
  paypal = await startPayPalStandIn({
    clientId: 'platform-client',
    clientSecret: 'platform-secret',
    webhookId: WEBHOOK_ID,
  });
  world = await openMoveWorld({
    PAYPAL_BASE_URL: paypal.url,
    PAYPAL_CLIENT_ID: 'platform-client',
    PAYPAL_CLIENT_SECRET: 'platform-secret',
    PAYPAL_PARTNER_ID: paypal.partnerId,
    PAYPAL_WEBHOOK_ID: WEBHOOK_ID,
  });
  ({ t, shard } = world);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  webhookUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/paypal/webhooks`;
  // Connected at home, then moved: the seller row goes with the store and the home copy is cleared.
  merchantId = await connectStoreToPayPal(t, paypal, 'lighting');
  await moveStore(world, 'lighting');
  expect(await storeRows(shard, 'lighting')).toHaveProperty('paypal_sellers', 1);
  expect(await storeRows(t.database, 'lighting')).not.toHaveProperty('paypal_sellers');
}, 180_000);
afterAll(async () => {
  await world?.close();
  await paypal?.close();
});

describe("PayPal's webhooks on a store moved to another database", () => {
  it("marks a moved store's PayPal order paid on its new database, claims the event there, and a replay is a no-op", async () => {
    const cookie = await guestCart();
    const created = await createPayPalOrder(cookie);
    expect(created.statusCode, created.body).toBe(200);
    const { paypalOrderId, approveUrl } = created.json().data as { paypalOrderId: string; approveUrl: string };
    expect((await fetch(approveUrl, { redirect: 'manual' })).status).toBe(302);
    // PayPal captures, but the shop's checkout never hears back: the order waits, placed, on the
    // store's database, and the webhook is the store's only news of the payment.
    const held = paypal.holdNextCapture();
    const capturing = t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/capturePaypalOrder`,
      headers: { host: HOST, cookie },
      payload: { paypalOrderId },
    });
    await held.captured;
    const orderOf = sql`SELECT order_id, status, payment_ref FROM orders WHERE tenant_id = 'lighting' AND email = ${EMAIL}`;
    const [placed] = await rowsOf<{ order_id: string; status: string }>(shard, orderOf);
    expect(placed).toMatchObject({ status: 'placed' });
    expect(await rowsOf(t.database, orderOf)).toEqual([]);
    const orderId = placed?.order_id as string;
    // Past the checkout's grace time, so the webhook settles it rather than asking PayPal to wait.
    await shard.db.execute(
      sql`UPDATE orders SET placed_at = now() - interval '10 minutes' WHERE order_id = ${orderId}`,
    );
    const captureId = paypal.orders.get(paypalOrderId)?.capture?.id;
    expect(captureId).toBeTruthy();

    const event = paypal.captureEvent(paypalOrderId);
    // As PayPal sends it for our checkout: the store named in custom_id.
    const first = await send({ ...event, resource: { ...(event.resource as object), custom_id: 'lighting' } });
    expect(first.status, first.responseBody).toBe(200);
    expect(JSON.parse(first.responseBody)).toEqual({ eventId: first.event.id, outcome: 'applied' });
    expect(await rowsOf(shard, orderOf)).toEqual([{ order_id: orderId, status: 'paid', payment_ref: captureId }]);
    const history = sql`SELECT from_status, status, actor_kind FROM order_status_history WHERE order_id = ${orderId} ORDER BY seq`;
    const steps = await rowsOf<{ status: string }>(shard, history);
    expect(steps.at(-1)).toEqual({ from_status: 'placed', status: 'paid', actor_kind: 'system' });
    // The event id is claimed where the store lives, with its outcome; the home database has no claim.
    expect(await claimOf(shard, first.event.id)).toEqual([{ tenant_id: 'lighting', outcome: 'applied' }]);
    expect(await claimOf(t.database, first.event.id)).toEqual([]);

    // The same delivery again (PayPal's retry, or a replay): found claimed, nothing changes.
    const replay = await paypal.redeliver(first);
    expect(replay.status, replay.responseBody).toBe(200);
    expect(JSON.parse(replay.responseBody)).toEqual({ eventId: first.event.id, outcome: 'duplicate' });
    expect(await rowsOf(shard, history)).toHaveLength(steps.length);
    expect(await claimOf(shard, first.event.id)).toEqual([{ tenant_id: 'lighting', outcome: 'applied' }]);
    expect(await claimOf(t.database, first.event.id)).toEqual([]);

    // The checkout finally hears back: the same paid order. One receipt reached the shopper.
    held.release();
    const res = await capturing;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ orderId, status: 'paid' });
    expect(await rowsOf(shard, history)).toHaveLength(steps.length);
    await t.services.jobs.drain({ timeoutMs: 30_000, dueWithinMs: 0 });
    const outbox = join(t.dataDir, 'outbox');
    const receipts = readdirSync(outbox)
      .map((f) => readFileSync(join(outbox, f), 'utf8'))
      .filter((m) => m.includes(EMAIL) && m.includes(`order ${orderId}`));
    expect(receipts).toHaveLength(1);
    // Nothing of the store's was written at home by the webhook.
    expect(await storeRows(t.database, 'lighting')).not.toHaveProperty('orders');
  }, 60_000);

  it("finds a moved store's seller on its new database when PayPal revokes the consent: PayPal is no longer offered", async () => {
    const event = paypal.consentRevokedEvent(merchantId);
    const before = await sellerHistory(shard);
    const first = await send(event);
    expect(first.status, first.responseBody).toBe(200);
    expect(JSON.parse(first.responseBody)).toEqual({ eventId: first.event.id, outcome: 'applied' });
    const seller = sql`SELECT status, reasons FROM paypal_sellers WHERE tenant_id = 'lighting'`;
    expect(await rowsOf(shard, seller)).toEqual([{ status: 'action_needed', reasons: ['CONSENT_REVOKED'] }]);
    const after = await sellerHistory(shard);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toEqual({ from_status: 'connected', to_status: 'action_needed', actor_kind: 'paypal' });
    expect(await claimOf(shard, first.event.id)).toEqual([{ tenant_id: 'lighting', outcome: 'applied' }]);
    expect(await claimOf(t.database, first.event.id)).toEqual([]);
    expect(await rowsOf(t.database, seller)).toEqual([]);

    // Replayed: nothing more.
    const replay = await paypal.redeliver(first);
    expect(JSON.parse(replay.responseBody)).toEqual({ eventId: first.event.id, outcome: 'duplicate' });
    expect(await sellerHistory(shard)).toHaveLength(after.length);

    // Checkout on the moved store stops offering PayPal at once: create is refused.
    const refused = await createPayPalOrder(await guestCart());
    expect(refused.statusCode, refused.body).toBe(409);
  }, 60_000);
});
