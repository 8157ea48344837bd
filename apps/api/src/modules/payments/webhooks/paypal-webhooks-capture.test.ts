import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { placeGuestOrder } from '../../../test/guest-order';
import type { WebhookInput } from '../../../test/paypal-stand-in';
import {
  approvedPayPalOrder,
  B,
  captureResource,
  forStore,
  GARDEN,
  gardenOwner,
  historyOf,
  issuesOf,
  LIGHTING,
  listIssues,
  mail,
  orderRow,
  owner,
  paypal,
  placedAgo,
  productId,
  send,
  t,
  usePayPalWebhooksApp,
  verifyCalls,
} from './paypal-webhooks-test-setup';

usePayPalWebhooksApp();

/**
 * A guest's PayPal order captured at PayPal whose answer the shop's checkout has not heard yet: the
 * order is placed, the capture request is still waiting (`capturing`) until `held.release()`.
 */
async function captureHeldAtPayPal() {
  const { cookie, paypalOrderId } = await approvedPayPalOrder();
  const held = paypal.holdNextCapture();
  const capturing = t.app.inject({
    method: 'POST',
    url: `${B}/public/ecommerce/capturePaypalOrder`,
    headers: { host: LIGHTING, cookie },
    payload: { paypalOrderId },
  });
  await held.captured;
  const [placed] = await t.database.db.select().from(schema.orders).where(eq(schema.orders.email, 'grace@example.com'));
  return { paypalOrderId, held, capturing, placed };
}

describe('PAYMENT.CAPTURE.COMPLETED', () => {
  it('settles a placed order whose checkout never heard back, once, and a replay changes nothing', async () => {
    const { paypalOrderId, held, capturing, placed } = await captureHeldAtPayPal();
    expect(placed?.status).toBe('placed');
    const orderId = placed?.orderId as string;
    const event = forStore(paypal.captureEvent(paypalOrderId));
    const captureId = paypal.orders.get(paypalOrderId)?.capture?.id;

    // While its checkout may still finish it, PayPal is asked to come back later: nothing recorded.
    const early = await send(event);
    expect(early.status).toBe(503);
    expect(JSON.parse(early.responseBody)).toMatchObject({ error: true, code: 'UNAVAILABLE' });
    expect((await orderRow(orderId))?.status).toBe('placed');
    expect(await t.database.db.select().from(schema.paypalWebhookEvents)).toHaveLength(0);

    // PayPal's retry after the checkout died: the order is paid with PayPal's capture.
    await placedAgo(orderId, 10);
    const retry = await paypal.redeliver(early);
    expect(retry.status).toBe(200);
    expect(JSON.parse(retry.responseBody)).toEqual({ eventId: early.event.id, outcome: 'applied' });
    expect(await orderRow(orderId)).toMatchObject({
      status: 'paid',
      paymentRef: captureId,
      paymentLabel: 'PayPal',
      capturedAmount: placed?.grandTotal,
    });
    const [checkout] = await t.database.db
      .select()
      .from(schema.paypalCheckouts)
      .where(eq(schema.paypalCheckouts.paypalOrderId, paypalOrderId));
    expect(checkout).toMatchObject({ orderId, status: 'placed' });
    const history = await historyOf(orderId);
    expect(history.at(-1)).toMatchObject({
      fromStatus: 'placed',
      status: 'paid',
      actorKind: 'system',
      reason: `PayPal reported the payment (webhook PAYMENT.CAPTURE.COMPLETED, capture ${captureId})`,
    });
    await t.services.jobs.drain();
    expect(mail.map((m) => m.subject)).toEqual([`Your Brightside Lighting order ${orderId}`]);
    expect(verifyCalls().length).toBeGreaterThanOrEqual(2);

    // The same event again (PayPal's retry, or an attacker's replay): 200, nothing changes.
    const replay = await paypal.redeliver(retry);
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.responseBody)).toEqual({ eventId: early.event.id, outcome: 'duplicate' });
    expect(await historyOf(orderId)).toHaveLength(history.length);
    await t.services.jobs.drain();
    expect(mail).toHaveLength(1);
    const [row] = await t.database.db
      .select()
      .from(schema.paypalWebhookEvents)
      .where(eq(schema.paypalWebhookEvents.eventId, early.event.id));
    expect(row).toMatchObject({ tenantId: 'lighting', outcome: 'applied', eventType: 'PAYMENT.CAPTURE.COMPLETED' });

    // The checkout finally hears back: the same paid order, one receipt.
    held.release();
    const res = await capturing;
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ orderId, status: 'paid' });
    await t.services.jobs.drain();
    expect(mail).toHaveLength(1);
  });

  it('delivered twice at once, settles the order once', async () => {
    const { paypalOrderId, held, capturing, placed } = await captureHeldAtPayPal();
    const orderId = placed?.orderId as string;
    await placedAgo(orderId, 10);
    const early = await send(forStore(paypal.captureEvent(paypalOrderId)));
    expect(early.status).toBe(200);
    await t.database.db.delete(schema.paypalWebhookEvents);
    // Back to placed as if the first delivery had never come, then the same event twice in parallel.
    await t.database.db.update(schema.orders).set({ status: 'placed' }).where(eq(schema.orders.orderId, orderId));
    const before = (await historyOf(orderId)).length;
    const answers = await Promise.all([paypal.redeliver(early), paypal.redeliver(early)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => JSON.parse(a.responseBody).outcome).sort()).toEqual(['applied', 'duplicate']);
    expect(await historyOf(orderId)).toHaveLength(before + 1);
    held.release();
    await capturing;
  });

  it('for an order the sweep had cancelled is money without an order', async () => {
    const placed = await placeGuestOrder(t.app, { host: LIGHTING, productId, email: 'late@example.com' });
    const orderId = placed.json().data.orderId as string;
    await t.database.db
      .update(schema.orders)
      .set({ status: 'cancelled', idempotencyKey: 'paypal:PPCANCELLED0001', paymentRef: null })
      .where(eq(schema.orders.orderId, orderId));
    const d = await send(captureResource({ id: 'CAPLATE00000001', value: '9.99', paypalOrderId: 'PPCANCELLED0001' }));
    expect(JSON.parse(d.responseBody).outcome).toBe('flagged');
    const [issue] = await issuesOf('lighting');
    expect(issue).toMatchObject({ kind: 'capture_without_order', orderId, amount: 999 });
    expect(issue?.message).toContain('had been cancelled');
    expect((await orderRow(orderId))?.status).toBe('cancelled');
  });

  it('for an order already paid by its checkout changes nothing', async () => {
    const { cookie, paypalOrderId } = await approvedPayPalOrder();
    const captured = await t.app.inject({
      method: 'POST',
      url: `${B}/public/ecommerce/capturePaypalOrder`,
      headers: { host: LIGHTING, cookie },
      payload: { paypalOrderId },
    });
    expect(captured.statusCode).toBe(200);
    const orderId = captured.json().data.orderId as string;
    const before = await historyOf(orderId);
    const d = await send(forStore(paypal.captureEvent(paypalOrderId)));
    expect(d.status).toBe(200);
    expect(JSON.parse(d.responseBody).outcome).toBe('applied');
    expect(await historyOf(orderId)).toHaveLength(before.length);
    expect(await issuesOf('lighting')).toEqual([]);
  });

  it('with no order of ours becomes an issue for that store only, and its checkout is flagged', async () => {
    const { paypalOrderId } = await approvedPayPalOrder();
    const d = await send(captureResource({ id: 'CAPNOORDER00001', value: '54.13', paypalOrderId }));
    expect(d.status).toBe(200);
    expect(JSON.parse(d.responseBody).outcome).toBe('flagged');
    const [issue, ...more] = await issuesOf('lighting');
    expect(more).toEqual([]);
    expect(issue).toMatchObject({
      kind: 'capture_without_order',
      captureId: 'CAPNOORDER00001',
      paypalOrderId,
      amount: 5413,
      currency: 'USD',
      status: 'open',
      orderId: null,
    });
    expect(issue?.message).toContain('$54.13');
    const [checkout] = await t.database.db
      .select()
      .from(schema.paypalCheckouts)
      .where(eq(schema.paypalCheckouts.paypalOrderId, paypalOrderId));
    expect(checkout?.status).toBe('flagged');

    // Listed for lighting's owner, not for garden's; the same capture again adds nothing.
    const list = await listIssues(owner);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toMatchObject({ openCount: 1, nextCursor: null });
    expect(list.json().data.items).toEqual([
      expect.objectContaining({ issueId: issue?.issueId, kind: 'capture_without_order', amount: 5413 }),
    ]);
    const garden = await listIssues(gardenOwner, GARDEN);
    expect(garden.json().data).toMatchObject({ items: [], openCount: 0 });
    await send(captureResource({ id: 'CAPNOORDER00001', value: '54.13', paypalOrderId }));
    expect(await issuesOf('lighting')).toHaveLength(1);
  });

  it('for another amount than the order total is an issue; the order stays placed', async () => {
    const { paypalOrderId, held, capturing, placed } = await captureHeldAtPayPal();
    await placedAgo(placed?.orderId as string, 10);
    const d = await send(captureResource({ id: 'CAPMISMATCH0001', value: '1.00', paypalOrderId }));
    expect(d.status).toBe(200);
    expect(JSON.parse(d.responseBody).outcome).toBe('flagged');
    expect((await orderRow(placed?.orderId as string))?.status).toBe('placed');
    expect(await issuesOf('lighting')).toEqual([
      expect.objectContaining({ kind: 'amount_mismatch', orderId: placed?.orderId, amount: 100 }),
    ]);
    held.release();
    await capturing;
  });

  it('of a store that is not on this platform is recorded as ignored, and shown to nobody', async () => {
    const d = await send(captureResource({ id: 'CAPELSEWHERE001', value: '5.00', tenantId: 'no-such-store' }));
    expect(d.status).toBe(200);
    expect(JSON.parse(d.responseBody).outcome).toBe('ignored');
    expect(await t.database.db.select().from(schema.paymentIssues)).toEqual([]);
  });
});

describe('denials and refunds', () => {
  it('a denied capture of an order is an issue and a line on the order timeline', async () => {
    const placed = await placeGuestOrder(t.app, { host: LIGHTING, productId, email: 'deny@example.com' });
    const orderId = placed.json().data.orderId as string;
    const order = await orderRow(orderId);
    await t.database.db
      .update(schema.orders)
      .set({ idempotencyKey: 'paypal:PPDENIED0000001' })
      .where(eq(schema.orders.orderId, orderId));
    const d = await send({
      event_type: 'PAYMENT.CAPTURE.DENIED',
      resource_type: 'capture',
      resource: {
        id: 'CAPDENIED000001',
        status: 'DECLINED',
        amount: { currency_code: 'USD', value: ((order?.grandTotal ?? 0) / 100).toFixed(2) },
        custom_id: 'lighting',
        supplementary_data: { related_ids: { order_id: 'PPDENIED0000001' } },
      },
    });
    expect(d.status).toBe(200);
    expect(await issuesOf('lighting')).toEqual([expect.objectContaining({ kind: 'capture_denied', orderId })]);
    const events = await t.database.db.select().from(schema.orderEvents).where(eq(schema.orderEvents.orderId, orderId));
    expect(events).toEqual([expect.objectContaining({ kind: 'payment', actorKind: 'system' })]);
    expect(events[0]?.message).toContain('PayPal denied the payment');
    expect((await orderRow(orderId))?.status).toBe(order?.status);
  });

  it('a reversed capture of a paid order is an issue; of no order, nothing', async () => {
    const placed = await placeGuestOrder(t.app, { host: LIGHTING, productId, email: 'reverse@example.com' });
    const orderId = placed.json().data.orderId as string;
    const captureId = (await orderRow(orderId))?.paymentRef as string;
    const reversal = (id: string) => ({
      event_type: 'PAYMENT.CAPTURE.REVERSED',
      resource_type: 'capture',
      resource: { id, status: 'REVERSED', amount: { currency_code: 'USD', value: '5.00' }, custom_id: 'lighting' },
    });
    expect(JSON.parse((await send(reversal('CAPUNKNOWN00001'))).responseBody).outcome).toBe('ignored');
    expect(await issuesOf('lighting')).toEqual([]);
    expect(JSON.parse((await send(reversal(captureId))).responseBody).outcome).toBe('flagged');
    const [issue] = await issuesOf('lighting');
    expect(issue).toMatchObject({ kind: 'capture_denied', orderId, captureId });
    expect(issue?.message).toContain('took back the payment');
  });

  it('a refund made at PayPal is an issue; one the store made is not', async () => {
    const placed = await placeGuestOrder(t.app, { host: LIGHTING, productId, email: 'refund@example.com' });
    const orderId = placed.json().data.orderId as string;
    const order = await orderRow(orderId);
    const captureId = order?.paymentRef as string;
    const refundEvent = (id: string, value: string): WebhookInput => ({
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      resource_type: 'refund',
      resource: {
        id,
        status: 'COMPLETED',
        amount: { currency_code: 'USD', value },
        custom_id: 'lighting',
        links: [
          { href: `${paypal.url}/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' },
          { href: `${paypal.url}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
        ],
      },
    });
    // Made through the store: order_refunds knows PayPal's id.
    await t.database.db.insert(schema.orderRefunds).values({
      tenantId: 'lighting',
      refundId: 'RF-KNOWN',
      orderId,
      amount: 100,
      currency: 'USD',
      status: 'succeeded',
      provider: 'paypal',
      providerRef: 'REFKNOWN0000001',
    });
    const known = await send(refundEvent('REFKNOWN0000001', '1.00'));
    expect(JSON.parse(known.responseBody).outcome).toBe('applied');
    expect(await issuesOf('lighting')).toEqual([]);

    const outside = await send(refundEvent('REFOUTSIDE00001', '2.50'));
    expect(JSON.parse(outside.responseBody).outcome).toBe('flagged');
    expect(await issuesOf('lighting')).toEqual([
      expect.objectContaining({ kind: 'refund_unknown', orderId, captureId, amount: 250, status: 'open' }),
    ]);
    // The store's books are the refunds module's: the webhook does not write refunded_amount.
    expect((await orderRow(orderId))?.refundedAmount).toBe(0);
    // A second refund outside the store adds to the capture's one issue.
    await send(refundEvent('REFOUTSIDE00002', '1.00'));
    expect(await issuesOf('lighting')).toEqual([expect.objectContaining({ kind: 'refund_unknown', amount: 350 })]);
    const events = await t.database.db.select().from(schema.orderEvents).where(eq(schema.orderEvents.orderId, orderId));
    expect(events.map((e) => e.kind)).toEqual(['refund', 'refund']);
  });
});
