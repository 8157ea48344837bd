import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertedSeller, checkBearer, respond, sendError, sendJson } from './paypal-stand-in-http';
import {
  capture,
  captureEvent,
  createOrder,
  findOrder,
  forSeller,
  orderBody,
  orderLinks,
} from './paypal-stand-in-orders';
import {
  consentRevokedEvent,
  knownSeller,
  newSeller,
  onboardingCompletedEvent,
  partnerRoute,
  signupPage,
} from './paypal-stand-in-partner';
import { refund, refundBody, refundEvent } from './paypal-stand-in-refunds';
import {
  flattenHeaders,
  PayPalError,
  parseJsonBody,
  paypalId,
  readBody,
  type StandInApp,
} from './paypal-stand-in-shared';
import { createStandInState, type StandInOptions, type StandInState } from './paypal-stand-in-state';
import type { PayPalStandIn, StandInRequest } from './paypal-stand-in-types';
import { autoWebhook, deliverWebhook, post, settleWebhooks, verifyWebhook } from './paypal-stand-in-webhooks';

/**
 * A local stand-in for PayPal's REST API (OAuth token, Orders v2 create / get / capture) and for the
 * buyer's approval page, answering with PayPal's documented shapes, status codes and error bodies,
 * so the client and checkout can be tested offline. It is strict where PayPal is strict (Basic
 * credentials, bearer tokens, amount digits per currency, idempotency by PayPal-Request-Id) so a
 * client bug shows up here rather than in production. One purchase unit per order, intent CAPTURE
 * or AUTHORIZE (only CAPTURE can be captured).
 *
 * The partner (platform) side is modelled too: the configured client is the platform's app (its own
 * merchant is `partnerId`); stores may have their own apps (`addApp`). Sellers connect to the
 * platform through partner referrals and a sign-up page, the platform reads their status from
 * merchant-integrations, takes orders with a seller as payee, acts for a seller with
 * PayPal-Auth-Assertion, and receives signed webhooks it can check with verify-webhook-signature.
 * Webhook signatures are an HMAC with the stand-in's own key (PayPal's are RSA with a certificate):
 * only verify-webhook-signature can check them, which is what a receiver should use anyway.
 */

export { crc32 } from './paypal-stand-in-shared';
export type {
  PayPalStandIn,
  SellerOptions,
  StandInAmount,
  StandInCapture,
  StandInOrder,
  StandInRefund,
  StandInRequest,
  StandInSeller,
  WebhookDelivery,
  WebhookEvent,
  WebhookInput,
} from './paypal-stand-in-types';

// This file holds the server: the OAuth token, the buyer's approval page, the request routing and the control
// methods a test calls. What it serves lives by PayPal API area, in plain functions taking the stand-in's state
// (paypal-stand-in-state.ts) first: orders (paypal-stand-in-orders.ts), refunds (paypal-stand-in-refunds.ts),
// the partner side (paypal-stand-in-partner.ts), webhooks (paypal-stand-in-webhooks.ts), answering and the
// caller's identity (paypal-stand-in-http.ts).

export async function startPayPalStandIn(opts: StandInOptions): Promise<PayPalStandIn> {
  const s = createStandInState(opts);

  const server = createServer((req, res) => {
    const entry: StandInRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: flattenHeaders(req),
      body: undefined,
    };
    s.requests.push(entry);
    s.entries.set(res, entry);
    handle(s, req, res, entry).catch((e: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof PayPalError) return sendError(s, res, e);
      sendError(s, res, new PayPalError(500, 'INTERNAL_SERVER_ERROR'));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: s.url,
    partnerId: s.partnerId,
    webhookId: s.webhookId,
    setWebhookUrl(target) {
      s.webhookUrl = target;
    },
    addApp(app) {
      if (s.apps.has(app.clientId)) throw new Error(`The stand-in already has an app ${app.clientId}.`);
      const made: StandInApp = { ...app, merchantId: paypalId(13), platform: false };
      s.apps.set(app.clientId, made);
      return { merchantId: made.merchantId };
    },
    nextSeller(o) {
      s.nextSellerOpts = { ...o };
    },
    addSeller(o) {
      return newSeller(s, o.trackingId, o).merchantId;
    },
    updateSeller(merchantId, patch) {
      Object.assign(knownSeller(s, merchantId), patch);
    },
    revokeConsent(merchantId) {
      knownSeller(s, merchantId).consent = false;
      autoWebhook(s, consentRevokedEvent(s, merchantId));
    },
    sellers: s.sellers,
    deliverWebhook(targetUrl, input, o) {
      return deliverWebhook(s, targetUrl, input, o);
    },
    redeliver(delivery) {
      return post(s, delivery.targetUrl, delivery.headers, delivery.rawBody, delivery.event);
    },
    webhookDeliveries: s.webhookDeliveries,
    settleWebhooks() {
      return settleWebhooks(s);
    },
    captureEvent(orderId) {
      return captureEvent(s, orderId);
    },
    refundEvent(refundId) {
      return refundEvent(s, refundId);
    },
    onboardingCompletedEvent(merchantId) {
      return onboardingCompletedEvent(s, merchantId);
    },
    consentRevokedEvent(merchantId) {
      return consentRevokedEvent(s, merchantId);
    },
    orders: s.orders,
    requests: s.requests,
    refunds: s.refunds,
    refuseNextRefund(issue = 'TRANSACTION_REFUSED') {
      s.refuseNext = issue;
    },
    declineNextCapture(how = 'instrument') {
      s.declineNext = how;
    },
    revokeTokens() {
      s.tokens.clear();
    },
    failNextRequest(status = 503) {
      s.failNext = status;
    },
    holdNextCapture() {
      let captured: () => void = () => {};
      let release: () => void = () => {};
      const reached = new Promise<void>((r) => {
        captured = r;
      });
      const released = new Promise<void>((r) => {
        release = r;
      });
      s.holdNext = { captured, released };
      return { captured: reached, release };
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // fetch keeps connections alive; without this close() waits for them to time out.
        server.closeAllConnections();
      });
    },
  };
}

/** POST /v1/oauth2/token: client credentials only, as the platform and stores' apps use it. */
function token(s: StandInState, req: IncomingMessage, raw: string, res: ServerResponse) {
  const m = /^Basic (\S+)$/.exec(req.headers.authorization ?? '');
  const decoded = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const app = colon > 0 ? s.apps.get(decoded.slice(0, colon)) : undefined;
  if (!app || decoded.slice(colon + 1) !== app.clientSecret) {
    sendJson(s, res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
    return;
  }
  const grant = new URLSearchParams(raw).get('grant_type');
  if (grant !== 'client_credentials') {
    sendJson(s, res, 400, {
      error: 'unsupported_grant_type',
      error_description: grant ? `Grant Type ${grant} is not supported` : 'Grant Type is NULL',
    });
    return;
  }
  const accessToken = `A21AA${randomBytes(48).toString('base64url')}`;
  s.tokens.set(accessToken, { expiry: Date.now() + s.tokenTtl * 1000, app });
  sendJson(s, res, 200, {
    scope: 'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/payments/refund',
    access_token: accessToken,
    token_type: 'Bearer',
    app_id: s.appId,
    expires_in: s.tokenTtl,
    nonce: `${new Date().toISOString().slice(0, 19)}Z${randomBytes(16).toString('base64url')}`,
  });
}

/** GET /checkoutnow: the buyer approves (or cancels) and is sent back to the shop. */
function approvalPage(s: StandInState, query: URLSearchParams, res: ServerResponse) {
  const order = s.orders.get(query.get('token') ?? '');
  if (!order) {
    respond(
      s,
      res,
      404,
      { 'Content-Type': 'text/html; charset=utf-8' },
      '<!doctype html><title>PayPal</title><p>Things don&#39;t appear to be working at the moment.</p>',
    );
    return;
  }
  const cancel = query.get('cancel') === '1';
  if (!cancel && (order.status === 'CREATED' || order.status === 'PAYER_ACTION_REQUIRED')) {
    order.status = 'APPROVED';
    order.payerId = paypalId(13);
    order.updateTime = new Date().toISOString();
  }
  const target = cancel ? order.cancelUrl : order.returnUrl;
  if (!target) {
    respond(
      s,
      res,
      200,
      { 'Content-Type': 'text/html; charset=utf-8' },
      `<!doctype html><title>PayPal</title><p>Order ${order.id}: ${order.status}.</p>`,
    );
    return;
  }
  // PayPal appends token (the order id) to both URLs, and PayerID to the return URL.
  const location = new URL(target);
  location.searchParams.set('token', order.id);
  if (!cancel && order.payerId) location.searchParams.set('PayerID', order.payerId);
  respond(s, res, 302, { Location: location.href });
}

/** Reads the request, logs its body and routes it; a thrown PayPalError becomes PayPal's error answer. */
async function handle(s: StandInState, req: IncomingMessage, res: ServerResponse, entry: StandInRequest) {
  const method = req.method ?? 'GET';
  const parsed = new URL(req.url ?? '/', 'http://stand-in');
  const path = parsed.pathname;
  const raw = await readBody(req);
  const type = req.headers['content-type'] ?? '';
  if (raw) {
    if (/json/i.test(type)) {
      try {
        entry.body = JSON.parse(raw);
      } catch {
        entry.body = raw;
      }
    } else if (/x-www-form-urlencoded/i.test(type)) {
      entry.body = Object.fromEntries(new URLSearchParams(raw));
    } else {
      entry.body = raw;
    }
  }

  if (path === '/' && method === 'GET') return sendJson(s, res, 200, { name: 'paypal-stand-in', status: 'ok' });
  if (path === '/checkoutnow' && method === 'GET') return approvalPage(s, parsed.searchParams, res);
  if (path === '/bizsignup/partner/entry') return signupPage(s, method, parsed.searchParams, raw, res);
  if (path === '/v1/oauth2/token') {
    if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
    return token(s, req, raw, res);
  }
  const apiPrefixes = [
    '/v2/checkout/orders',
    '/v2/payments/captures/',
    '/v2/customer/partner-referrals',
    '/v1/customer/partners/',
    '/v1/notifications/verify-webhook-signature',
  ];
  if (!apiPrefixes.some((prefix) => path.startsWith(prefix))) {
    throw new PayPalError(404, 'RESOURCE_NOT_FOUND');
  }

  const app = checkBearer(s, req);
  if (s.failNext !== undefined) {
    const status = s.failNext;
    s.failNext = undefined;
    throw new PayPalError(status, 'INTERNAL_SERVER_ERROR');
  }
  const requestId = req.headers['paypal-request-id'] as string | undefined;
  if (partnerRoute(s, method, path, parsed, req, raw, res, app)) return;
  if (path === '/v1/notifications/verify-webhook-signature') {
    if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
    return sendJson(s, res, 200, { verification_status: verifyWebhook(s, parseJsonBody(req, raw, true), app) });
  }
  const seller = assertedSeller(s, req, app);

  const refundPath = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
  if (refundPath) {
    if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
    const known = requestId ? s.refundKeys.get(requestId) : undefined;
    if (known) return sendJson(s, res, 200, refundBody(s, known));
    const made = refund(s, decodeURIComponent(refundPath[1]!), parseJsonBody(req, raw, false), app, seller);
    if (requestId) s.refundKeys.set(requestId, made);
    return sendJson(s, res, 201, refundBody(s, made));
  }
  if (!path.startsWith('/v2/checkout/orders')) throw new PayPalError(404, 'RESOURCE_NOT_FOUND');

  if (path === '/v2/checkout/orders') {
    if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
    const known = requestId ? s.orders.get(s.createKeys.get(requestId) ?? '') : undefined;
    // A repeated PayPal-Request-Id gets the order it created, in its latest state, with 200.
    if (known) return sendJson(s, res, 200, { id: known.id, status: known.status, links: orderLinks(s, known) });
    // An order for a seller is created by the platform naming the payee, not on the seller's behalf.
    const order = createOrder(s, parseJsonBody(req, raw, true), app);
    if (requestId) s.createKeys.set(requestId, order.id);
    return sendJson(s, res, 201, { id: order.id, status: order.status, links: orderLinks(s, order) });
  }

  const m = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
  if (!m) throw new PayPalError(404, 'RESOURCE_NOT_FOUND');
  const id = decodeURIComponent(m[1]!);
  if (!m[2]) {
    if (method !== 'GET') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
    return sendJson(s, res, 200, orderBody(s, forSeller(findOrder(s, id, app), seller)));
  }
  if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
  // PayPal wants the JSON content type on a capture even though its body is optional.
  if (!/^application\/json\b/i.test(type)) throw new PayPalError(415, 'UNSUPPORTED_MEDIA_TYPE');
  parseJsonBody(req, raw, false);
  const replayKey = requestId ? `${id}\n${requestId}` : undefined;
  const replay = replayKey ? s.captureAnswers.get(replayKey) : undefined;
  if (replay) return sendJson(s, res, 200, replay.body);
  const answer = capture(s, forSeller(findOrder(s, id, app), seller));
  if (replayKey) s.captureAnswers.set(replayKey, { body: answer.body });
  const hold = s.holdNext;
  s.holdNext = undefined;
  if (hold) {
    hold.captured();
    await hold.released;
  }
  return sendJson(s, res, answer.status, answer.body);
}
