import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  crc32,
  type Detail,
  debugId,
  escapeHtml,
  flattenHeaders,
  isHttpUrl,
  isObject,
  MESSAGES,
  PAYPAL_CURRENCY_DIGITS,
  PayPalError,
  paypalId,
  REFERRAL_FEATURES,
  REFERRAL_OPERATIONS,
  REFERRAL_PRODUCTS,
  readBody,
  type StandInApp,
  type StandInReferral,
  THIRD_PARTY_SCOPES,
} from './paypal-stand-in-shared';
import type {
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

export async function startPayPalStandIn(opts: {
  clientId: string;
  clientSecret: string;
  port?: number;
  /** Lifetime of the access tokens issued; PayPal's are 32400 s (nine hours). */
  tokenTtlSeconds?: number;
  /** The platform's own merchant id (the partner id). Default PARTNERSTANDIN1. */
  partnerId?: string;
  /** The platform's webhook id. Default a generated WH-… id. */
  webhookId?: string;
  /** Where the stand-in sends its own webhooks; none when unset. */
  webhookUrl?: string;
}): Promise<PayPalStandIn> {
  const tokenTtl = opts.tokenTtlSeconds ?? 32_400;
  const appId = `APP-${paypalId(17)}`;
  const partnerId = opts.partnerId ?? 'PARTNERSTANDIN1';
  const webhookId = opts.webhookId ?? `WH-${paypalId(17)}`;
  let webhookUrl = opts.webhookUrl;
  const signingKey = randomBytes(32);
  const certUrlPath = `/v1/notifications/certs/CERT-360caa42-fca2a594-${paypalId(8).toLowerCase()}`;
  const apps = new Map<string, StandInApp>([
    [
      opts.clientId,
      { clientId: opts.clientId, clientSecret: opts.clientSecret, merchantId: partnerId, platform: true },
    ],
  ]);
  const platformApp = apps.get(opts.clientId)!;
  const tokens = new Map<string, { expiry: number; app: StandInApp }>();
  const sellers = new Map<string, StandInSeller>();
  const referrals = new Map<string, StandInReferral>(); // by referral id
  const referralKeys = new Map<string, string>(); // PayPal-Request-Id -> referral id
  let nextSellerOpts: SellerOptions | undefined;
  const webhookDeliveries: WebhookDelivery[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const orders = new Map<string, StandInOrder>();
  const requests: StandInRequest[] = [];
  // PayPal-Request-Id -> order id (create) and -> first successful answer (capture).
  const createKeys = new Map<string, string>();
  const captureAnswers = new Map<string, { body: unknown }>();
  const refunds: StandInRefund[] = [];
  // PayPal-Request-Id -> the refund it made: a repeated request gets the first refund back.
  const refundKeys = new Map<string, StandInRefund>();
  let refuseNext: string | undefined;
  let declineNext: 'instrument' | 'capture' | undefined;
  let failNext: number | undefined;
  let holdNext: { captured: () => void; released: Promise<void> } | undefined;
  let url = '';

  const infoLink = (issue: string) => ({
    href: `https://developer.paypal.com/docs/api/orders/v2/#error-${issue}`,
    rel: 'information_link',
    method: 'GET',
  });

  const entries = new WeakMap<ServerResponse, StandInRequest>();

  /** Every answer goes out here, so the request log has its status before the client can read it. */
  function respond(res: ServerResponse, status: number, headers: Record<string, string>, body = '') {
    const entry = entries.get(res);
    if (entry) entry.status = status;
    res.writeHead(status, headers);
    res.end(body);
  }

  function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    respond(res, status, { 'Content-Type': 'application/json', ...headers }, JSON.stringify(body));
  }

  function sendError(res: ServerResponse, err: PayPalError) {
    const id = debugId();
    const body: Record<string, unknown> = { name: err.errorName, message: MESSAGES[err.errorName] };
    if (err.details.length) body.details = err.details;
    if (err.errorName !== 'AUTHENTICATION_FAILURE') body.debug_id = id;
    body.links = err.details.length
      ? [infoLink(err.details[0]!.issue)]
      : [{ href: 'https://developer.paypal.com/docs/api/overview/#error', rel: 'information_link' }];
    sendJson(res, err.status, body, { 'PayPal-Debug-Id': id });
  }

  function orderLinks(order: StandInOrder) {
    const self = { href: `${url}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' };
    if (order.status === 'APPROVED') {
      return [self, { href: `${url}/v2/checkout/orders/${order.id}/capture`, rel: 'capture', method: 'POST' }];
    }
    if (order.status === 'COMPLETED') return [self];
    return [self, { href: `${url}/checkoutnow?token=${order.id}`, rel: order.approvalRel, method: 'GET' }];
  }

  function payer(order: StandInOrder) {
    return {
      name: { given_name: 'Stand-in', surname: 'Buyer' },
      email_address: 'buyer@paypal-stand-in.test',
      payer_id: order.payerId,
      address: { country_code: 'US' },
    };
  }

  function payeeBody(order: StandInOrder) {
    const seller = sellers.get(order.payeeMerchantId);
    return {
      email_address: seller?.primaryEmail ?? `merchant-${order.payeeMerchantId.toLowerCase()}@paypal-stand-in.test`,
      merchant_id: order.payeeMerchantId,
    };
  }

  function captureBody(capture: StandInCapture, order: StandInOrder) {
    return {
      ...capture,
      ...(order.invoiceId ? { invoice_id: order.invoiceId } : {}),
      ...(order.customId ? { custom_id: order.customId } : {}),
      seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
      update_time: capture.create_time,
      links: [
        { href: `${url}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' },
        { href: `${url}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
      ],
    };
  }

  /** GET's full representation. */
  function orderBody(order: StandInOrder) {
    const approved = order.payerId !== undefined;
    return {
      id: order.id,
      intent: order.intent,
      status: order.status,
      ...(approved
        ? {
            payment_source: {
              paypal: {
                email_address: 'buyer@paypal-stand-in.test',
                account_id: order.payerId,
                account_status: 'VERIFIED',
                name: { given_name: 'Stand-in', surname: 'Buyer' },
              },
            },
            payer: payer(order),
          }
        : {}),
      purchase_units: [
        {
          reference_id: order.referenceId,
          amount: order.amount,
          payee: payeeBody(order),
          ...(order.customId ? { custom_id: order.customId } : {}),
          ...(order.invoiceId ? { invoice_id: order.invoiceId } : {}),
          ...(order.capture ? { payments: { captures: [captureBody(order.capture, order)] } } : {}),
        },
      ],
      create_time: order.createTime,
      update_time: order.updateTime,
      links: orderLinks(order),
    };
  }

  /** The app the bearer token belongs to. */
  function checkBearer(req: IncomingMessage): StandInApp {
    const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const known = m ? tokens.get(m[1]!) : undefined;
    if (known === undefined || known.expiry <= Date.now()) throw new PayPalError(401, 'AUTHENTICATION_FAILURE');
    return known.app;
  }

  const denied = () => new PayPalError(403, 'PERMISSION_DENIED');

  /**
   * The seller a PayPal-Auth-Assertion names, checked as PayPal does: an unsigned JWT (alg none)
   * whose iss is the calling app and whose payer_id is a seller that consented to that app.
   */
  function assertedSeller(req: IncomingMessage, app: StandInApp): StandInSeller | undefined {
    const header = req.headers['paypal-auth-assertion'];
    if (header === undefined) return undefined;
    const malformed = () =>
      new PayPalError(400, 'INVALID_REQUEST', [
        {
          field: 'PayPal-Auth-Assertion',
          location: 'header',
          issue: 'INVALID_PAYPAL_AUTH_ASSERTION',
          description: 'PayPal-Auth-Assertion header is malformed.',
        },
      ]);
    const parts = String(header).split('.');
    if (parts.length !== 3 || parts[2] !== '') throw malformed();
    let head: unknown;
    let claims: unknown;
    try {
      head = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    } catch {
      throw malformed();
    }
    if (!isObject(head) || head.alg !== 'none' || !isObject(claims) || typeof claims.iss !== 'string') {
      throw malformed();
    }
    if (typeof claims.payer_id !== 'string' || !claims.payer_id) throw malformed();
    if (claims.iss !== app.clientId) throw denied();
    const seller = sellers.get(claims.payer_id);
    // Consent is given to the platform's app; no other app may act for the seller.
    if (!seller?.consent || !app.platform) throw denied();
    return seller;
  }

  function parseJsonBody(req: IncomingMessage, raw: string, required: boolean): unknown {
    if (!raw && !required) return undefined;
    const type = req.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(type)) throw new PayPalError(415, 'UNSUPPORTED_MEDIA_TYPE');
    try {
      return JSON.parse(raw);
    } catch {
      throw new PayPalError(400, 'INVALID_REQUEST', [
        { issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.', location: 'body' },
      ]);
    }
  }

  const invalid = (field: string, issue: string, description: string, value?: unknown) =>
    new PayPalError(400, 'INVALID_REQUEST', [
      { field, ...(value === undefined ? {} : { value: String(value) }), location: 'body', issue, description },
    ]);
  const unprocessable = (issue: string, description: string, field?: string, value?: unknown) =>
    new PayPalError(422, 'UNPROCESSABLE_ENTITY', [
      {
        ...(field ? { field, location: 'body' as const } : {}),
        ...(value === undefined ? {} : { value: String(value) }),
        issue,
        description,
      },
    ]);

  function validateAmount(amount: unknown, unitField: string): StandInAmount {
    if (!isObject(amount)) {
      throw invalid(`${unitField}/amount`, 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.');
    }
    const { currency_code: currency, value } = amount;
    if (currency === undefined) {
      throw invalid(
        `${unitField}/amount/currency_code`,
        'MISSING_REQUIRED_PARAMETER',
        'A required field / parameter is missing.',
      );
    }
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) {
      throw invalid(
        `${unitField}/amount/currency_code`,
        'INVALID_PARAMETER_SYNTAX',
        'The value of a field does not conform to the expected format.',
        currency,
      );
    }
    const digits = PAYPAL_CURRENCY_DIGITS[currency];
    if (digits === undefined) {
      throw unprocessable(
        'CURRENCY_NOT_SUPPORTED',
        'Currency code is not currently supported. Please refer https://developer.paypal.com/docs/api/reference/currency-codes/ for list of supported currency codes.',
        `${unitField}/amount/currency_code`,
        currency,
      );
    }
    if (value === undefined) {
      throw invalid(
        `${unitField}/amount/value`,
        'MISSING_REQUIRED_PARAMETER',
        'A required field / parameter is missing.',
      );
    }
    // PayPal's amount value is a string: a number in JSON is a schema violation.
    if (typeof value !== 'string' || value.length > 32 || !/^(-?[0-9]+|-?[0-9]*\.[0-9]+)$/.test(value)) {
      throw invalid(
        `${unitField}/amount/value`,
        'INVALID_PARAMETER_SYNTAX',
        'The value of a field does not conform to the expected format.',
        value,
      );
    }
    const fraction = value.split('.')[1] ?? '';
    if (fraction.length > 0 && digits === 0) {
      throw unprocessable(
        'DECIMALS_NOT_SUPPORTED',
        'Currency does not support decimals. Please refer to https://developer.paypal.com/docs/api/reference/currency-codes/ for more information.',
        `${unitField}/amount/value`,
        value,
      );
    }
    if (fraction.length > digits) {
      throw unprocessable(
        'DECIMAL_PRECISION',
        'If the currency supports decimals, only two decimal place precision is supported.',
        `${unitField}/amount/value`,
        value,
      );
    }
    if (!(Number(value) > 0)) {
      throw unprocessable(
        'CANNOT_BE_ZERO_OR_NEGATIVE',
        'Must be greater than zero. If the currency supports decimals, only two decimal place precision is supported.',
        `${unitField}/amount/value`,
        value,
      );
    }
    return { currency_code: currency, value };
  }

  function createOrder(body: unknown, app: StandInApp): StandInOrder {
    if (!isObject(body)) throw invalid('/', 'INVALID_PARAMETER_SYNTAX', 'The request body must be a JSON object.');
    if (body.intent === undefined) {
      throw invalid('/intent', 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.');
    }
    if (body.intent !== 'CAPTURE' && body.intent !== 'AUTHORIZE') {
      throw invalid('/intent', 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid.', body.intent);
    }
    const units = body.purchase_units;
    if (!Array.isArray(units) || units.length === 0) {
      throw invalid('/purchase_units', 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.');
    }
    if (units.length > 1) {
      throw invalid('/purchase_units', 'INVALID_ARRAY_MAX_ITEMS', 'The stand-in models one purchase unit per order.');
    }
    const unit = units[0];
    if (!isObject(unit))
      throw invalid('/purchase_units/0', 'INVALID_PARAMETER_SYNTAX', 'A purchase unit is an object.');
    const referenceId = unit.reference_id ?? 'default';
    if (typeof referenceId !== 'string' || referenceId.length < 1 || referenceId.length > 256) {
      throw invalid(
        '/purchase_units/0/reference_id',
        'INVALID_STRING_LENGTH',
        'The value of a field is either too short or too long.',
        referenceId,
      );
    }
    const unitField = `/purchase_units/@reference_id=='${referenceId}'`;
    const amount = validateAmount(unit.amount, unitField);
    const texts: Record<string, string> = {};
    for (const key of ['custom_id', 'invoice_id'] as const) {
      const v = unit[key];
      if (v === undefined) continue;
      if (typeof v !== 'string' || v.length < 1 || v.length > 127) {
        throw invalid(
          `${unitField}/${key}`,
          'INVALID_STRING_LENGTH',
          'The value of a field is either too short or too long.',
          v,
        );
      }
      texts[key] = v;
    }
    const payeeMerchantId = checkPayee(unit.payee, unitField, app);

    // The current way (payment_source.paypal.experience_context) or the deprecated application_context.
    let context: Record<string, unknown> = {};
    let contextField = '/application_context';
    let approvalRel: StandInOrder['approvalRel'] = 'approve';
    const source = body.payment_source;
    if (source !== undefined) {
      if (!isObject(source) || !isObject(source.paypal)) {
        throw invalid('/payment_source', 'INVALID_PARAMETER_VALUE', 'Only payment_source.paypal is modelled.');
      }
      approvalRel = 'payer-action';
      contextField = '/payment_source/paypal/experience_context';
      const ec = source.paypal.experience_context;
      if (ec !== undefined && !isObject(ec)) {
        throw invalid(contextField, 'INVALID_PARAMETER_SYNTAX', 'experience_context is an object.');
      }
      context = ec ?? {};
    } else if (isObject(body.application_context)) {
      context = body.application_context;
    }
    for (const key of ['return_url', 'cancel_url'] as const) {
      if (context[key] !== undefined && !isHttpUrl(context[key])) {
        throw invalid(
          `${contextField}/${key}`,
          'INVALID_PARAMETER_SYNTAX',
          'The value of a field does not conform to the expected format.',
          context[key],
        );
      }
    }
    const enums: Record<string, string[]> = {
      user_action: ['CONTINUE', 'PAY_NOW'],
      shipping_preference: ['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS'],
      landing_page: ['LOGIN', 'GUEST_CHECKOUT', 'NO_PREFERENCE'],
    };
    for (const [key, allowed] of Object.entries(enums)) {
      if (context[key] !== undefined && !allowed.includes(context[key] as string)) {
        throw invalid(
          `${contextField}/${key}`,
          'INVALID_PARAMETER_VALUE',
          'The value of a field is invalid.',
          context[key],
        );
      }
    }
    const brandName = context.brand_name;
    if (brandName !== undefined && (typeof brandName !== 'string' || brandName.length < 1 || brandName.length > 127)) {
      throw invalid(
        `${contextField}/brand_name`,
        'INVALID_STRING_LENGTH',
        'The value of a field is either too short or too long.',
        brandName,
      );
    }
    const now = new Date().toISOString();
    const order: StandInOrder = {
      id: paypalId(17),
      clientId: app.clientId,
      payeeMerchantId,
      ...(texts.custom_id ? { customId: texts.custom_id } : {}),
      ...(texts.invoice_id ? { invoiceId: texts.invoice_id } : {}),
      intent: body.intent,
      status: approvalRel === 'payer-action' ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
      referenceId,
      amount,
      approvalRel,
      createTime: now,
      updateTime: now,
      ...(typeof context.return_url === 'string' ? { returnUrl: context.return_url } : {}),
      ...(typeof context.cancel_url === 'string' ? { cancelUrl: context.cancel_url } : {}),
      ...(typeof brandName === 'string' ? { brandName } : {}),
    };
    orders.set(order.id, order);
    return order;
  }

  /**
   * purchase_units[0].payee: absent or the app's own merchant, or a seller who consented to the
   * app and can receive payments (PayPal's 422 issues otherwise).
   */
  function checkPayee(payee: unknown, unitField: string, app: StandInApp): string {
    if (payee === undefined) return app.merchantId;
    if (!isObject(payee)) throw invalid(`${unitField}/payee`, 'INVALID_PARAMETER_SYNTAX', 'payee is an object.');
    const id = payee.merchant_id;
    if (id === undefined) {
      // Payee by email is PayPal's too, but nothing here uses it.
      throw invalid(
        `${unitField}/payee/merchant_id`,
        'MISSING_REQUIRED_PARAMETER',
        'A required field / parameter is missing.',
      );
    }
    if (typeof id !== 'string' || !/^[A-Z0-9]{1,20}$/.test(id)) {
      throw invalid(
        `${unitField}/payee/merchant_id`,
        'INVALID_PARAMETER_SYNTAX',
        'The value of a field does not conform to the expected format.',
        id,
      );
    }
    if (id === app.merchantId) return id;
    const seller = sellers.get(id);
    const field = `${unitField}/payee/merchant_id`;
    if (!seller) {
      throw unprocessable(
        'PAYEE_ACCOUNT_INVALID',
        'Payee account specified is invalid. Please check the `payee.merchant_id` specified and try again.',
        field,
        id,
      );
    }
    if (!seller.consent || !app.platform) {
      throw unprocessable(
        'PAYEE_NOT_CONSENTED',
        "Payee does not have appropriate consent to allow the API caller to process this type of transaction on their behalf. Your current setup requires the 'payee' to provide a consent before this transaction can be processed successfully.",
        field,
        id,
      );
    }
    if (!seller.paymentsReceivable) {
      throw unprocessable('PAYEE_ACCOUNT_RESTRICTED', 'The merchant account is restricted.', field, id);
    }
    return id;
  }

  function findOrder(id: string, app: StandInApp): StandInOrder {
    const order = orders.get(id);
    // Another app's order is as unknown to this one as an order that does not exist.
    if (!order || order.clientId !== app.clientId) {
      throw new PayPalError(404, 'RESOURCE_NOT_FOUND', [
        {
          issue: 'INVALID_RESOURCE_ID',
          description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
          location: 'path',
        },
      ]);
    }
    return order;
  }

  function capture(order: StandInOrder): { status: number; body: unknown } {
    if (order.intent !== 'CAPTURE') {
      throw unprocessable(
        'ACTION_DOES_NOT_MATCH_INTENT',
        "Order was created with an intent to 'AUTHORIZE'. Please use the authorize endpoint instead.",
      );
    }
    if (order.status === 'COMPLETED') {
      throw unprocessable(
        'ORDER_ALREADY_CAPTURED',
        "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    }
    if (order.status !== 'APPROVED') {
      throw unprocessable(
        'ORDER_NOT_APPROVED',
        "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
      );
    }
    const decline = declineNext;
    declineNext = undefined;
    if (decline === 'instrument') {
      // The order stays APPROVED: the buyer may pick another funding source and the capture be retried.
      throw unprocessable(
        'INSTRUMENT_DECLINED',
        "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }
    const now = new Date().toISOString();
    order.capture = {
      id: paypalId(17),
      status: decline === 'capture' ? 'DECLINED' : 'COMPLETED',
      amount: { ...order.amount },
      final_capture: true,
      create_time: now,
    };
    order.status = 'COMPLETED';
    order.updateTime = now;
    // PayPal notifies whether or not the capture's answer reaches the shop.
    if (order.clientId === platformApp.clientId) autoWebhook(captureEvent(order.id));
    return {
      status: 201,
      body: {
        id: order.id,
        status: order.status,
        payment_source: orderBody(order).payment_source,
        purchase_units: [
          { reference_id: order.referenceId, payments: { captures: [captureBody(order.capture, order)] } },
        ],
        payer: payer(order),
        links: [{ href: `${url}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' }],
      },
    };
  }

  function refundBody(r: StandInRefund) {
    return {
      id: r.id,
      status: r.status,
      links: [
        { href: `${url}/v2/payments/refunds/${r.id}`, rel: 'self', method: 'GET' },
        { href: `${url}/v2/payments/captures/${r.captureId}`, rel: 'up', method: 'GET' },
      ],
    };
  }

  /** Minor units of an amount the stand-in itself validated. */
  const minor = (a: StandInAmount) =>
    Math.round(Number(a.value) * 10 ** (PAYPAL_CURRENCY_DIGITS[a.currency_code] ?? 2));

  /** A full refund without an amount, or a partial one; never more than is left of the capture. */
  function refund(captureId: string, body: unknown, app: StandInApp, seller: StandInSeller | undefined): StandInRefund {
    const order = [...orders.values()].find((o) => o.capture?.id === captureId && o.clientId === app.clientId);
    const captured = order?.capture;
    if (!order || !captured || captured.status !== 'COMPLETED') {
      throw new PayPalError(404, 'RESOURCE_NOT_FOUND', [
        {
          issue: 'INVALID_RESOURCE_ID',
          description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
          location: 'path',
        },
      ]);
    }
    // The seller's money: a platform refunds it only acting for that seller.
    if (order.payeeMerchantId !== app.merchantId && seller?.merchantId !== order.payeeMerchantId) throw denied();
    if (seller && seller.merchantId !== order.payeeMerchantId) throw denied();
    if (body !== undefined && !isObject(body)) {
      throw invalid('/', 'INVALID_PARAMETER_SYNTAX', 'The request body must be a JSON object.');
    }
    const refused = refuseNext;
    refuseNext = undefined;
    if (refused) throw unprocessable(refused, 'The refund was refused.');
    const already = refunds.filter((r) => r.captureId === captureId).reduce((sum, r) => sum + minor(r.amount), 0);
    const total = minor(captured.amount);
    if (already >= total) throw unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded.');
    let amount: StandInAmount;
    if (body?.amount === undefined) {
      const digits = PAYPAL_CURRENCY_DIGITS[captured.amount.currency_code] ?? 2;
      amount = {
        currency_code: captured.amount.currency_code,
        value: ((total - already) / 10 ** digits).toFixed(digits),
      };
    } else {
      amount = validateAmount(body.amount, '');
      if (amount.currency_code !== captured.amount.currency_code) {
        throw unprocessable(
          'REFUND_CURRENCY_MISMATCH',
          'Refund must be in the same currency as the capture.',
          '/amount/currency_code',
        );
      }
      if (already + minor(amount) > total) {
        throw unprocessable(
          'REFUND_AMOUNT_EXCEEDED',
          'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
        );
      }
    }
    const made: StandInRefund = {
      id: paypalId(17),
      captureId,
      status: 'COMPLETED',
      amount,
      createTime: new Date().toISOString(),
      ...(typeof body?.note_to_payer === 'string' ? { noteToPayer: body.note_to_payer } : {}),
      ...(typeof body?.invoice_id === 'string' ? { invoiceId: body.invoice_id } : {}),
    };
    refunds.push(made);
    if (order.clientId === platformApp.clientId) autoWebhook(refundEvent(made.id));
    return made;
  }

  // ---- Partner: referrals, the seller's sign-up page, merchant integrations ----

  const missing = (field: string) =>
    invalid(field, 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.');

  function createReferral(body: unknown): StandInReferral {
    if (!isObject(body)) throw invalid('/', 'INVALID_PARAMETER_SYNTAX', 'The request body must be a JSON object.');
    const trackingId = body.tracking_id;
    if (trackingId === undefined) throw missing('/tracking_id');
    if (typeof trackingId !== 'string' || trackingId.length < 1 || trackingId.length > 127) {
      throw invalid(
        '/tracking_id',
        'INVALID_STRING_LENGTH',
        'The value of a field is either too short or too long.',
        trackingId,
      );
    }
    if (
      body.email !== undefined &&
      (typeof body.email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(body.email))
    ) {
      throw invalid(
        '/email',
        'INVALID_PARAMETER_SYNTAX',
        'The value of a field does not conform to the expected format.',
        body.email,
      );
    }
    const operations = body.operations;
    if (!Array.isArray(operations) || operations.length === 0) throw missing('/operations');
    operations.forEach((op, i) => {
      const field = `/operations/${i}`;
      if (!isObject(op)) throw invalid(field, 'INVALID_PARAMETER_SYNTAX', 'An operation is an object.');
      if (op.operation === undefined) throw missing(`${field}/operation`);
      if (typeof op.operation !== 'string' || !REFERRAL_OPERATIONS.has(op.operation)) {
        throw invalid(
          `${field}/operation`,
          'INVALID_PARAMETER_VALUE',
          'The value of a field is invalid.',
          op.operation,
        );
      }
      if (op.operation !== 'API_INTEGRATION') return;
      const pref = op.api_integration_preference;
      if (!isObject(pref)) throw missing(`${field}/api_integration_preference`);
      const rest = pref.rest_api_integration;
      if (!isObject(rest)) throw missing(`${field}/api_integration_preference/rest_api_integration`);
      const restField = `${field}/api_integration_preference/rest_api_integration`;
      if (rest.integration_method !== 'PAYPAL' && rest.integration_method !== 'BRAINTREE') {
        if (rest.integration_method === undefined) throw missing(`${restField}/integration_method`);
        throw invalid(
          `${restField}/integration_method`,
          'INVALID_PARAMETER_VALUE',
          'The value of a field is invalid.',
          rest.integration_method,
        );
      }
      if (rest.integration_type !== 'FIRST_PARTY' && rest.integration_type !== 'THIRD_PARTY') {
        if (rest.integration_type === undefined) throw missing(`${restField}/integration_type`);
        throw invalid(
          `${restField}/integration_type`,
          'INVALID_PARAMETER_VALUE',
          'The value of a field is invalid.',
          rest.integration_type,
        );
      }
      if (rest.integration_type === 'THIRD_PARTY') {
        const details = rest.third_party_details;
        const features = isObject(details) ? details.features : undefined;
        if (!Array.isArray(features) || features.length === 0)
          throw missing(`${restField}/third_party_details/features`);
        features.forEach((f, j) => {
          if (typeof f !== 'string' || !REFERRAL_FEATURES.has(f)) {
            throw invalid(
              `${restField}/third_party_details/features/${j}`,
              'INVALID_PARAMETER_VALUE',
              'The value of a field is invalid.',
              f,
            );
          }
        });
      }
    });
    const products = body.products;
    if (!Array.isArray(products) || products.length === 0) throw missing('/products');
    products.forEach((p, i) => {
      if (typeof p !== 'string' || !REFERRAL_PRODUCTS.has(p)) {
        throw invalid(`/products/${i}`, 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid.', p);
      }
    });
    const consents = body.legal_consents;
    if (!Array.isArray(consents) || consents.length === 0) throw missing('/legal_consents');
    consents.forEach((c, i) => {
      if (!isObject(c))
        throw invalid(`/legal_consents/${i}`, 'INVALID_PARAMETER_SYNTAX', 'A legal consent is an object.');
      if (c.type !== 'SHARE_DATA_CONSENT') {
        if (c.type === undefined) throw missing(`/legal_consents/${i}/type`);
        throw invalid(
          `/legal_consents/${i}/type`,
          'INVALID_PARAMETER_VALUE',
          'The value of a field is invalid.',
          c.type,
        );
      }
      if (typeof c.granted !== 'boolean') throw missing(`/legal_consents/${i}/granted`);
    });
    // Third-party API access needs the seller's data shared with the partner.
    if (!consents.some((c) => isObject(c) && c.type === 'SHARE_DATA_CONSENT' && c.granted === true)) {
      throw invalid('/legal_consents', 'INVALID_PARAMETER_VALUE', 'SHARE_DATA_CONSENT must be granted.');
    }
    let returnUrl: string | undefined;
    const override = body.partner_config_override;
    if (override !== undefined) {
      if (!isObject(override))
        throw invalid('/partner_config_override', 'INVALID_PARAMETER_SYNTAX', 'partner_config_override is an object.');
      if (override.return_url !== undefined) {
        if (!isHttpUrl(override.return_url)) {
          throw invalid(
            '/partner_config_override/return_url',
            'INVALID_PARAMETER_SYNTAX',
            'The value of a field does not conform to the expected format.',
            override.return_url,
          );
        }
        returnUrl = override.return_url;
      }
    }
    const referral: StandInReferral = {
      id: randomBytes(36).toString('base64url'),
      token: randomBytes(48).toString('base64url'),
      trackingId,
      data: body,
      ...(returnUrl ? { returnUrl } : {}),
      ...(typeof body.email === 'string' ? { email: body.email } : {}),
    };
    referrals.set(referral.id, referral);
    return referral;
  }

  const actionUrl = (r: StandInReferral) =>
    `${url}/bizsignup/partner/entry?referralToken=${encodeURIComponent(r.token)}`;
  const referralLinks = (r: StandInReferral) => [
    { href: `${url}/v2/customer/partner-referrals/${r.id}`, rel: 'self', method: 'GET' },
    { href: actionUrl(r), rel: 'action_url', method: 'GET' },
  ];

  function newSeller(trackingId: string, o: SellerOptions, email?: string): StandInSeller {
    const merchantId = paypalId(13);
    const seller: StandInSeller = {
      merchantId,
      trackingId,
      paymentsReceivable: o.paymentsReceivable ?? true,
      emailConfirmed: o.emailConfirmed ?? true,
      primaryEmail: email ?? `seller-${merchantId.toLowerCase()}@paypal-stand-in.test`,
      legalName: `Stand-in Seller ${merchantId}`,
      consent: o.consent ?? true,
      merchantClientId: randomBytes(30).toString('base64url'),
    };
    sellers.set(merchantId, seller);
    return seller;
  }

  const html = (res: ServerResponse, status: number, title: string, main: string) =>
    respond(
      res,
      status,
      { 'Content-Type': 'text/html; charset=utf-8' },
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
        '<style>body{font-family:system-ui,sans-serif;margin:0;background:#f5f7fa;color:#1a1a1a}main{max-width:28rem;margin:3rem auto;padding:1.5rem;background:#fff;border-radius:8px}' +
        'button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:20px;background:#0070ba;color:#fff;cursor:pointer}a{color:#0a58a5}.actions{display:flex;gap:1rem;align-items:center}</style>' +
        `</head><body><main>${main}</main></body></html>`,
    );

  /** The seller's side of a referral: PayPal's sign-up and consent, one page, no JavaScript. */
  function signupPage(method: string, query: URLSearchParams, raw: string, res: ServerResponse) {
    const tokenValue = query.get('referralToken') ?? new URLSearchParams(raw).get('referralToken') ?? '';
    const referral = [...referrals.values()].find((r) => r.token === tokenValue);
    if (!referral) {
      return html(
        res,
        404,
        'PayPal',
        '<h1>This link is no longer valid</h1><p>Please go back to the store and start again.</p>',
      );
    }
    if (method === 'GET') {
      const cancel = referral.returnUrl ? `<a href="${escapeHtml(referral.returnUrl)}">Cancel</a>` : '';
      return html(
        res,
        200,
        'Connect your PayPal account',
        '<h1>Connect your PayPal account</h1>' +
          '<p>The platform asks to take payments and make refunds for you, paid into your own PayPal account.</p>' +
          `<p>Store reference: <strong>${escapeHtml(referral.trackingId)}</strong></p>` +
          (referral.email ? `<p>PayPal account: ${escapeHtml(referral.email)}</p>` : '') +
          `<form method="post" action="/bizsignup/partner/entry?referralToken=${encodeURIComponent(referral.token)}">` +
          `<input type="hidden" name="referralToken" value="${escapeHtml(referral.token)}">` +
          `<div class="actions"><button type="submit">Agree and connect</button>${cancel}</div></form>`,
      );
    }
    if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
    const knob = nextSellerOpts ?? {};
    nextSellerOpts = undefined;
    let seller = [...sellers.values()].find((x) => x.trackingId === referral.trackingId);
    if (seller) {
      // The same store signing up again: the same PayPal account, its consent given anew.
      seller.consent = knob.consent ?? true;
      if (knob.paymentsReceivable !== undefined) seller.paymentsReceivable = knob.paymentsReceivable;
      if (knob.emailConfirmed !== undefined) seller.emailConfirmed = knob.emailConfirmed;
    } else {
      seller = newSeller(referral.trackingId, knob, referral.email);
    }
    if (seller.consent) autoWebhook(onboardingCompletedEvent(seller.merchantId));
    if (!referral.returnUrl) {
      return html(
        res,
        200,
        'PayPal',
        '<h1>You are connected</h1><p>You can close this page and go back to the store.</p>',
      );
    }
    // PayPal's documented return query (merchantId is our tracking id).
    const location = new URL(referral.returnUrl);
    const q = location.searchParams;
    q.set('merchantId', referral.trackingId);
    q.set('merchantIdInPayPal', seller.merchantId);
    q.set('permissionsGranted', String(seller.consent));
    q.set('consentStatus', String(seller.consent));
    q.set('productIntentId', 'addipmt');
    q.set('isEmailConfirmed', String(seller.emailConfirmed));
    q.set('accountStatus', 'BUSINESS_ACCOUNT');
    respond(res, 302, { Location: location.href });
  }

  const integrationUrl = (merchantId: string) =>
    `${url}/v1/customer/partners/${partnerId}/merchant-integrations/${merchantId}`;

  function merchantIntegrationBody(seller: StandInSeller) {
    const capabilities = [
      { name: 'PAYPAL_CHECKOUT', status: seller.paymentsReceivable ? 'ACTIVE' : 'SUSPENDED' },
      { name: 'WITHDRAW_MONEY', status: seller.paymentsReceivable ? 'ACTIVE' : 'SUSPENDED' },
    ];
    return {
      merchant_id: seller.merchantId,
      tracking_id: seller.trackingId,
      products: [
        {
          name: 'EXPRESS_CHECKOUT',
          vetting_status: 'SUBSCRIBED',
          capabilities: capabilities.map((c) => c.name),
        },
      ],
      capabilities,
      payments_receivable: seller.paymentsReceivable,
      legal_name: seller.legalName,
      primary_email: seller.primaryEmail,
      primary_email_confirmed: seller.emailConfirmed,
      oauth_integrations: seller.consent
        ? [
            {
              integration_type: 'OAUTH_THIRD_PARTY',
              integration_method: 'PAYPAL',
              oauth_third_party: [
                {
                  partner_client_id: platformApp.clientId,
                  merchant_client_id: seller.merchantClientId,
                  scopes: THIRD_PARTY_SCOPES,
                },
              ],
            },
          ]
        : [],
      links: [{ href: integrationUrl(seller.merchantId), rel: 'self', method: 'GET' }],
    };
  }

  const notFound = (location: Detail['location'] = 'path') =>
    new PayPalError(404, 'RESOURCE_NOT_FOUND', [
      {
        issue: 'INVALID_RESOURCE_ID',
        description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
        location,
      },
    ]);

  // ---- Webhooks ----

  const sign = (transmissionId: string, time: string, hookId: string, rawBody: string) =>
    createHmac('sha256', signingKey)
      .update(`${transmissionId}|${time}|${hookId}|${crc32(rawBody)}`)
      .digest('base64');

  const money = (a: StandInAmount) => `${a.value} ${a.currency_code}`;

  function captureEvent(orderId: string): WebhookInput {
    const order = orders.get(orderId);
    if (!order?.capture) throw new Error(`The stand-in has no captured order ${orderId}.`);
    const c = order.capture;
    const completed = c.status === 'COMPLETED';
    return {
      event_type: completed ? 'PAYMENT.CAPTURE.COMPLETED' : 'PAYMENT.CAPTURE.DENIED',
      resource_type: 'capture',
      summary: completed
        ? `Payment completed for ${money(c.amount)}`
        : `A ${money(c.amount)} capture payment was denied`,
      resource: {
        id: c.id,
        status: c.status,
        amount: c.amount,
        final_capture: c.final_capture,
        ...(order.invoiceId ? { invoice_id: order.invoiceId } : {}),
        ...(order.customId ? { custom_id: order.customId } : {}),
        payee: payeeBody(order),
        seller_protection: {
          status: 'ELIGIBLE',
          dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'],
        },
        supplementary_data: { related_ids: { order_id: order.id } },
        create_time: c.create_time,
        update_time: c.create_time,
        links: [
          { href: `${url}/v2/payments/captures/${c.id}`, rel: 'self', method: 'GET' },
          { href: `${url}/v2/payments/captures/${c.id}/refund`, rel: 'refund', method: 'POST' },
          { href: `${url}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
        ],
      },
    };
  }

  function refundEvent(refundId: string): WebhookInput {
    const r = refunds.find((x) => x.id === refundId);
    if (!r) throw new Error(`The stand-in has no refund ${refundId}.`);
    const order = [...orders.values()].find((o) => o.capture?.id === r.captureId);
    const invoiceId = r.invoiceId ?? order?.invoiceId;
    return {
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      resource_type: 'refund',
      summary: `A ${money(r.amount)} capture payment was refunded`,
      resource: {
        id: r.id,
        status: r.status,
        amount: r.amount,
        ...(invoiceId ? { invoice_id: invoiceId } : {}),
        ...(order?.customId ? { custom_id: order.customId } : {}),
        ...(r.noteToPayer ? { note_to_payer: r.noteToPayer } : {}),
        ...(order ? { payer: { merchant_id: order.payeeMerchantId } } : {}),
        create_time: r.createTime,
        update_time: r.createTime,
        links: [
          { href: `${url}/v2/payments/refunds/${r.id}`, rel: 'self', method: 'GET' },
          { href: `${url}/v2/payments/captures/${r.captureId}`, rel: 'up', method: 'GET' },
        ],
      },
    };
  }

  function knownSeller(merchantId: string): StandInSeller {
    const seller = sellers.get(merchantId);
    if (!seller) throw new Error(`The stand-in has no seller ${merchantId}.`);
    return seller;
  }

  function onboardingCompletedEvent(merchantId: string): WebhookInput {
    const seller = knownSeller(merchantId);
    return {
      event_type: 'MERCHANT.ONBOARDING.COMPLETED',
      resource_type: 'merchant-onboarding',
      summary: 'The merchant account setup is completed',
      resource: {
        partner_client_id: platformApp.clientId,
        merchant_id: seller.merchantId,
        tracking_id: seller.trackingId,
        links: [
          {
            href: integrationUrl(seller.merchantId),
            rel: 'self',
            method: 'GET',
            description: 'Get the merchant status information of merchants onboarded by this partner',
          },
        ],
      },
    };
  }

  function consentRevokedEvent(merchantId: string): WebhookInput {
    const seller = knownSeller(merchantId);
    return {
      event_type: 'MERCHANT.PARTNER-CONSENT.REVOKED',
      resource_type: 'partner-consent',
      summary: 'The Account setup consents has been revoked or the merchant account is closed',
      resource: {
        merchant_id: seller.merchantId,
        tracking_id: seller.trackingId,
        links: [{ href: integrationUrl(seller.merchantId), rel: 'self', method: 'GET' }],
      },
    };
  }

  async function post(targetUrl: string, headers: Record<string, string>, rawBody: string, event: WebhookEvent) {
    let status = 0;
    let responseBody = '';
    try {
      const res = await fetch(targetUrl, {
        method: 'POST',
        headers,
        body: rawBody,
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      responseBody = await res.text().catch(() => '');
    } catch (e) {
      responseBody = e instanceof Error ? `${e.name}: ${e.message}` : 'unreachable';
    }
    const delivery: WebhookDelivery = { targetUrl, status, responseBody, event, headers, rawBody };
    webhookDeliveries.push(delivery);
    return delivery;
  }

  function deliverWebhook(targetUrl: string, input: WebhookInput, o: { forge?: boolean } = {}) {
    const id = `WH-${paypalId(17)}-${paypalId(17)}`;
    const event: WebhookEvent = {
      id,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: input.resource_type,
      event_type: input.event_type,
      summary: input.summary ?? input.event_type,
      resource: input.resource,
      links: [
        { href: `${url}/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' },
        { href: `${url}/v1/notifications/webhooks-events/${id}/resend`, rel: 'resend', method: 'POST' },
      ],
    };
    const rawBody = JSON.stringify(event);
    const transmissionId = randomUUID();
    const time = new Date().toISOString();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'PayPal/AUHD-214.0-58844133',
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': time,
      'paypal-transmission-sig': o.forge
        ? randomBytes(32).toString('base64')
        : sign(transmissionId, time, webhookId, rawBody),
      'paypal-cert-url': `${url}${certUrlPath}`,
      'paypal-auth-algo': 'SHA256withRSA',
    };
    return post(targetUrl, headers, rawBody, event);
  }

  /** A webhook the stand-in sends by itself, to the platform's webhook URL when one is set. */
  function autoWebhook(input: WebhookInput) {
    const target = webhookUrl;
    if (!target) return;
    // After the answer in progress has gone out, as PayPal's notifications come on their own.
    const p = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => deliverWebhook(target, input))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  const WEBHOOK_FIELDS = [
    'auth_algo',
    'cert_url',
    'transmission_id',
    'transmission_sig',
    'transmission_time',
    'webhook_id',
  ] as const;

  function verifyWebhook(body: unknown, app: StandInApp): 'SUCCESS' | 'FAILURE' {
    if (!isObject(body)) throw invalid('/', 'INVALID_PARAMETER_SYNTAX', 'The request body must be a JSON object.');
    for (const field of WEBHOOK_FIELDS) {
      if (body[field] === undefined || body[field] === '') throw missing(`/${field}`);
      if (typeof body[field] !== 'string') {
        throw invalid(
          `/${field}`,
          'INVALID_PARAMETER_SYNTAX',
          'The value of a field does not conform to the expected format.',
        );
      }
    }
    if (body.webhook_event === undefined) throw missing('/webhook_event');
    if (!isObject(body.webhook_event)) {
      throw invalid('/webhook_event', 'INVALID_PARAMETER_SYNTAX', 'webhook_event is the event object.');
    }
    const b = body as Record<(typeof WEBHOOK_FIELDS)[number], string>;
    // The certificate must be PayPal's own (here: the stand-in's), as PayPal checks the cert URL's origin.
    if (!app.platform || b.webhook_id !== webhookId || b.auth_algo !== 'SHA256withRSA') return 'FAILURE';
    if (b.cert_url !== `${url}${certUrlPath}`) return 'FAILURE';
    const expected = Buffer.from(
      sign(b.transmission_id, b.transmission_time, b.webhook_id, JSON.stringify(body.webhook_event)),
    );
    const given = Buffer.from(b.transmission_sig);
    return expected.length === given.length && timingSafeEqual(expected, given) ? 'SUCCESS' : 'FAILURE';
  }

  /** The partner routes; undefined when the path is none of them. */
  function partnerRoute(
    method: string,
    path: string,
    parsed: URL,
    req: IncomingMessage,
    raw: string,
    res: ServerResponse,
    app: StandInApp,
  ): true | undefined {
    const requestId = req.headers['paypal-request-id'] as string | undefined;
    if (path === '/v2/customer/partner-referrals') {
      if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      if (!app.platform) throw denied();
      const known = requestId ? referrals.get(referralKeys.get(requestId) ?? '') : undefined;
      if (known) {
        sendJson(res, 200, { links: referralLinks(known) });
        return true;
      }
      const made = createReferral(parseJsonBody(req, raw, true));
      if (requestId) referralKeys.set(requestId, made.id);
      sendJson(res, 201, { links: referralLinks(made) });
      return true;
    }
    const referralPath = /^\/v2\/customer\/partner-referrals\/([^/]+)$/.exec(path);
    if (referralPath) {
      if (method !== 'GET') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      if (!app.platform) throw denied();
      const r = referrals.get(decodeURIComponent(referralPath[1]!));
      if (!r) throw notFound();
      sendJson(res, 200, {
        partner_referral_id: r.id,
        submitter_payer_id: partnerId,
        referral_data: r.data,
        links: referralLinks(r),
      });
      return true;
    }
    const integrations = /^\/v1\/customer\/partners\/([^/]+)\/merchant-integrations(?:\/([^/]+))?$/.exec(path);
    if (integrations) {
      if (method !== 'GET') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      if (!app.platform) throw denied();
      if (decodeURIComponent(integrations[1]!) !== partnerId) throw notFound();
      if (integrations[2] !== undefined) {
        const seller = sellers.get(decodeURIComponent(integrations[2]));
        if (!seller) throw notFound();
        sendJson(res, 200, merchantIntegrationBody(seller));
        return true;
      }
      const trackingId = parsed.searchParams.get('tracking_id');
      if (!trackingId) {
        throw new PayPalError(400, 'INVALID_REQUEST', [
          {
            field: 'tracking_id',
            location: 'query',
            issue: 'MISSING_REQUIRED_PARAMETER',
            description: 'A required field / parameter is missing.',
          },
        ]);
      }
      const seller = [...sellers.values()].find((x) => x.trackingId === trackingId);
      if (!seller) throw notFound('query');
      sendJson(res, 200, {
        merchant_id: seller.merchantId,
        tracking_id: seller.trackingId,
        links: [
          {
            href: integrationUrl(seller.merchantId),
            rel: 'read',
            method: 'GET',
            description: 'Main partner-merchant integration details',
          },
        ],
      });
      return true;
    }
    if (path === '/v1/notifications/verify-webhook-signature') {
      if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      sendJson(res, 200, { verification_status: verifyWebhook(parseJsonBody(req, raw, true), app) });
      return true;
    }
    return undefined;
  }

  function token(req: IncomingMessage, raw: string, res: ServerResponse) {
    const m = /^Basic (\S+)$/.exec(req.headers.authorization ?? '');
    const decoded = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const app = colon > 0 ? apps.get(decoded.slice(0, colon)) : undefined;
    if (!app || decoded.slice(colon + 1) !== app.clientSecret) {
      sendJson(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      return;
    }
    const grant = new URLSearchParams(raw).get('grant_type');
    if (grant !== 'client_credentials') {
      sendJson(res, 400, {
        error: 'unsupported_grant_type',
        error_description: grant ? `Grant Type ${grant} is not supported` : 'Grant Type is NULL',
      });
      return;
    }
    const accessToken = `A21AA${randomBytes(48).toString('base64url')}`;
    tokens.set(accessToken, { expiry: Date.now() + tokenTtl * 1000, app });
    sendJson(res, 200, {
      scope: 'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/payments/refund',
      access_token: accessToken,
      token_type: 'Bearer',
      app_id: appId,
      expires_in: tokenTtl,
      nonce: `${new Date().toISOString().slice(0, 19)}Z${randomBytes(16).toString('base64url')}`,
    });
  }

  function approvalPage(query: URLSearchParams, res: ServerResponse) {
    const order = orders.get(query.get('token') ?? '');
    if (!order) {
      respond(
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
    respond(res, 302, { Location: location.href });
  }

  /** An assertion for a seller reaches only that seller's orders. */
  function forSeller(order: StandInOrder, seller: StandInSeller | undefined): StandInOrder {
    if (seller && seller.merchantId !== order.payeeMerchantId) throw denied();
    return order;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, entry: StandInRequest) {
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

    if (path === '/' && method === 'GET') return sendJson(res, 200, { name: 'paypal-stand-in', status: 'ok' });
    if (path === '/checkoutnow' && method === 'GET') return approvalPage(parsed.searchParams, res);
    if (path === '/bizsignup/partner/entry') return signupPage(method, parsed.searchParams, raw, res);
    if (path === '/v1/oauth2/token') {
      if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      return token(req, raw, res);
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

    const app = checkBearer(req);
    if (failNext !== undefined) {
      const status = failNext;
      failNext = undefined;
      throw new PayPalError(status, 'INTERNAL_SERVER_ERROR');
    }
    const requestId = req.headers['paypal-request-id'] as string | undefined;
    if (partnerRoute(method, path, parsed, req, raw, res, app)) return;
    const seller = assertedSeller(req, app);

    const refundPath = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
    if (refundPath) {
      if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      const known = requestId ? refundKeys.get(requestId) : undefined;
      if (known) return sendJson(res, 200, refundBody(known));
      const made = refund(decodeURIComponent(refundPath[1]!), parseJsonBody(req, raw, false), app, seller);
      if (requestId) refundKeys.set(requestId, made);
      return sendJson(res, 201, refundBody(made));
    }
    if (!path.startsWith('/v2/checkout/orders')) throw new PayPalError(404, 'RESOURCE_NOT_FOUND');

    if (path === '/v2/checkout/orders') {
      if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      const known = requestId ? orders.get(createKeys.get(requestId) ?? '') : undefined;
      // A repeated PayPal-Request-Id gets the order it created, in its latest state, with 200.
      if (known) return sendJson(res, 200, { id: known.id, status: known.status, links: orderLinks(known) });
      // An order for a seller is created by the platform naming the payee, not on the seller's behalf.
      const order = createOrder(parseJsonBody(req, raw, true), app);
      if (requestId) createKeys.set(requestId, order.id);
      return sendJson(res, 201, { id: order.id, status: order.status, links: orderLinks(order) });
    }

    const m = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    if (!m) throw new PayPalError(404, 'RESOURCE_NOT_FOUND');
    const id = decodeURIComponent(m[1]!);
    if (!m[2]) {
      if (method !== 'GET') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      return sendJson(res, 200, orderBody(forSeller(findOrder(id, app), seller)));
    }
    if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
    // PayPal wants the JSON content type on a capture even though its body is optional.
    if (!/^application\/json\b/i.test(type)) throw new PayPalError(415, 'UNSUPPORTED_MEDIA_TYPE');
    parseJsonBody(req, raw, false);
    const replayKey = requestId ? `${id}\n${requestId}` : undefined;
    const replay = replayKey ? captureAnswers.get(replayKey) : undefined;
    if (replay) return sendJson(res, 200, replay.body);
    const answer = capture(forSeller(findOrder(id, app), seller));
    if (replayKey) captureAnswers.set(replayKey, { body: answer.body });
    const hold = holdNext;
    holdNext = undefined;
    if (hold) {
      hold.captured();
      await hold.released;
    }
    return sendJson(res, answer.status, answer.body);
  }

  const server = createServer((req, res) => {
    const entry: StandInRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: flattenHeaders(req),
      body: undefined,
    };
    requests.push(entry);
    entries.set(res, entry);
    handle(req, res, entry).catch((e: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof PayPalError) return sendError(res, e);
      sendError(res, new PayPalError(500, 'INTERNAL_SERVER_ERROR'));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    partnerId,
    webhookId,
    setWebhookUrl(target) {
      webhookUrl = target;
    },
    addApp(app) {
      if (apps.has(app.clientId)) throw new Error(`The stand-in already has an app ${app.clientId}.`);
      const made: StandInApp = { ...app, merchantId: paypalId(13), platform: false };
      apps.set(app.clientId, made);
      return { merchantId: made.merchantId };
    },
    nextSeller(o) {
      nextSellerOpts = { ...o };
    },
    addSeller(o) {
      return newSeller(o.trackingId, o).merchantId;
    },
    updateSeller(merchantId, patch) {
      Object.assign(knownSeller(merchantId), patch);
    },
    revokeConsent(merchantId) {
      knownSeller(merchantId).consent = false;
      autoWebhook(consentRevokedEvent(merchantId));
    },
    sellers,
    deliverWebhook,
    redeliver(delivery) {
      return post(delivery.targetUrl, delivery.headers, delivery.rawBody, delivery.event);
    },
    webhookDeliveries,
    async settleWebhooks() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    captureEvent,
    refundEvent,
    onboardingCompletedEvent,
    consentRevokedEvent,
    orders,
    requests,
    refunds,
    refuseNextRefund(issue = 'TRANSACTION_REFUSED') {
      refuseNext = issue;
    },
    declineNextCapture(how = 'instrument') {
      declineNext = how;
    },
    revokeTokens() {
      tokens.clear();
    },
    failNextRequest(status = 503) {
      failNext = status;
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
      holdNext = { captured, released };
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
