import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for PayPal's REST API (OAuth token, Orders v2 create / get / capture) and for the
 * buyer's approval page, answering with PayPal's documented shapes, status codes and error bodies,
 * so the client and checkout can be tested offline. It is strict where PayPal is strict (Basic
 * credentials, bearer tokens, amount digits per currency, idempotency by PayPal-Request-Id) so a
 * client bug shows up here rather than in production. One purchase unit per order, intent CAPTURE
 * or AUTHORIZE (only CAPTURE can be captured); nothing else of PayPal is modelled.
 */

export interface StandInAmount {
  currency_code: string;
  value: string;
}

export interface StandInCapture {
  id: string;
  status: 'COMPLETED' | 'DECLINED';
  amount: StandInAmount;
  final_capture: boolean;
  create_time: string;
}

/** A refund of a capture (POST /v2/payments/captures/{id}/refund). */
export interface StandInRefund {
  id: string;
  captureId: string;
  status: 'COMPLETED';
  amount: StandInAmount;
  noteToPayer?: string;
  invoiceId?: string;
  createTime: string;
}

export interface StandInOrder {
  id: string;
  intent: 'CAPTURE' | 'AUTHORIZE';
  status: 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED';
  referenceId: string;
  amount: StandInAmount;
  returnUrl?: string;
  cancelUrl?: string;
  brandName?: string;
  /** Which link the create answer carried: 'payer-action' with payment_source.paypal, else 'approve'. */
  approvalRel: 'payer-action' | 'approve';
  payerId?: string;
  capture?: StandInCapture;
  createTime: string;
  updateTime: string;
}

export interface StandInRequest {
  method: string;
  /** Path with its query string, as sent. */
  path: string;
  /** Lower-case names, as node gives them. */
  headers: Record<string, string | undefined>;
  /** Parsed JSON, a form as an object, other text as a string; undefined when empty. */
  body: unknown;
  /** The status the stand-in answered with. */
  status?: number;
}

export interface PayPalStandIn {
  url: string;
  close(): Promise<void>;
  orders: Map<string, StandInOrder>;
  /**
   * The next capture of an approved order fails: by default as PayPal refuses a funding source
   * (422 INSTRUMENT_DECLINED); with 'capture' as a 201 whose capture status is DECLINED, which
   * PayPal also does.
   */
  declineNextCapture(how?: 'instrument' | 'capture'): void;
  /** Forget every access token issued, as when PayPal revokes or expires them early. */
  revokeTokens(): void;
  /** The next API request (not the token call) gets this 5xx, as in a PayPal outage. */
  failNextRequest(status?: number): void;
  /**
   * The next capture is made (the order is COMPLETED at PayPal, the money taken) but its answer is held
   * back until `release()`: the shop's process stalls or dies right after PayPal took the money.
   */
  holdNextCapture(): { captured: Promise<void>; release(): void };
  requests: StandInRequest[];
  /** Every refund made, oldest first. */
  refunds: StandInRefund[];
  /** The next refund is refused as PayPal refuses one it will not make (422 with this issue). */
  refuseNextRefund(issue?: string): void;
}

/** PayPal's currencies and their decimals (https://developer.paypal.com/reference/currency-codes/). */
const PAYPAL_CURRENCY_DIGITS: Record<string, number> = {
  AUD: 2,
  BRL: 2,
  CAD: 2,
  CNY: 2,
  CZK: 2,
  DKK: 2,
  EUR: 2,
  HKD: 2,
  HUF: 0,
  ILS: 2,
  JPY: 0,
  MYR: 2,
  MXN: 2,
  TWD: 0,
  NZD: 2,
  NOK: 2,
  PHP: 2,
  PLN: 2,
  GBP: 2,
  SGD: 2,
  SEK: 2,
  CHF: 2,
  THB: 2,
  USD: 2,
};

const MESSAGES = {
  INVALID_REQUEST: 'Request is not well-formed, syntactically incorrect, or violates schema.',
  UNPROCESSABLE_ENTITY:
    'The requested action could not be performed, semantically incorrect, or failed business validation.',
  RESOURCE_NOT_FOUND: 'The specified resource does not exist.',
  AUTHENTICATION_FAILURE:
    'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
  INTERNAL_SERVER_ERROR: 'An internal server error has occurred.',
  UNSUPPORTED_MEDIA_TYPE: 'The server does not support the request payload media type.',
  METHOD_NOT_SUPPORTED: 'The server does not implement the requested HTTP method.',
} as const;
type ErrorName = keyof typeof MESSAGES;

interface Detail {
  issue: string;
  description: string;
  field?: string;
  value?: string;
  location?: 'body' | 'path' | 'query' | 'header';
}

class PayPalError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: ErrorName,
    readonly details: Detail[] = [],
  ) {
    super(errorName);
  }
}

const ALPHANUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** PayPal ids look like "5O190127TN364715T": upper-case letters and digits. */
function paypalId(length: number): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ALPHANUM[randomInt(ALPHANUM.length)];
  return id;
}

const debugId = () => randomBytes(7).toString('hex').slice(0, 13);

function flattenHeaders(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000)
      throw new PayPalError(400, 'INVALID_REQUEST', [
        { issue: 'MALFORMED_REQUEST', description: 'The request body is too large.' },
      ]);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isHttpUrl(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export async function startPayPalStandIn(opts: {
  clientId: string;
  clientSecret: string;
  port?: number;
  /** Lifetime of the access tokens issued; PayPal's are 32400 s (nine hours). */
  tokenTtlSeconds?: number;
}): Promise<PayPalStandIn> {
  const tokenTtl = opts.tokenTtlSeconds ?? 32_400;
  const appId = `APP-${paypalId(17)}`;
  const tokens = new Map<string, number>(); // token -> expiry (ms)
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

  function captureBody(capture: StandInCapture, order: StandInOrder) {
    return {
      ...capture,
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
          payee: { email_address: 'merchant@paypal-stand-in.test', merchant_id: 'STANDINMERCHANT' },
          ...(order.capture ? { payments: { captures: [captureBody(order.capture, order)] } } : {}),
        },
      ],
      create_time: order.createTime,
      update_time: order.updateTime,
      links: orderLinks(order),
    };
  }

  function checkBearer(req: IncomingMessage) {
    const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const expiry = m ? tokens.get(m[1]!) : undefined;
    if (expiry === undefined || expiry <= Date.now()) throw new PayPalError(401, 'AUTHENTICATION_FAILURE');
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

  function createOrder(body: unknown): StandInOrder {
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

  function findOrder(id: string): StandInOrder {
    const order = orders.get(id);
    if (!order) {
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
  function refund(captureId: string, body: unknown): StandInRefund {
    const order = [...orders.values()].find((o) => o.capture?.id === captureId);
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
    return made;
  }

  function token(req: IncomingMessage, raw: string, res: ServerResponse) {
    const m = /^Basic (\S+)$/.exec(req.headers.authorization ?? '');
    const decoded = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const ok = colon > 0 && decoded.slice(0, colon) === opts.clientId && decoded.slice(colon + 1) === opts.clientSecret;
    if (!ok) {
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
    tokens.set(accessToken, Date.now() + tokenTtl * 1000);
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
    if (path === '/v1/oauth2/token') {
      if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      return token(req, raw, res);
    }
    if (!path.startsWith('/v2/checkout/orders') && !path.startsWith('/v2/payments/captures/')) {
      throw new PayPalError(404, 'RESOURCE_NOT_FOUND');
    }

    checkBearer(req);
    if (failNext !== undefined) {
      const status = failNext;
      failNext = undefined;
      throw new PayPalError(status, 'INTERNAL_SERVER_ERROR');
    }
    const requestId = req.headers['paypal-request-id'] as string | undefined;

    const refundPath = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
    if (refundPath) {
      if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      const known = requestId ? refundKeys.get(requestId) : undefined;
      if (known) return sendJson(res, 200, refundBody(known));
      const made = refund(decodeURIComponent(refundPath[1]!), parseJsonBody(req, raw, false));
      if (requestId) refundKeys.set(requestId, made);
      return sendJson(res, 201, refundBody(made));
    }
    if (!path.startsWith('/v2/checkout/orders')) throw new PayPalError(404, 'RESOURCE_NOT_FOUND');

    if (path === '/v2/checkout/orders') {
      if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      const known = requestId ? orders.get(createKeys.get(requestId) ?? '') : undefined;
      // A repeated PayPal-Request-Id gets the order it created, in its latest state, with 200.
      if (known) return sendJson(res, 200, { id: known.id, status: known.status, links: orderLinks(known) });
      const order = createOrder(parseJsonBody(req, raw, true));
      if (requestId) createKeys.set(requestId, order.id);
      return sendJson(res, 201, { id: order.id, status: order.status, links: orderLinks(order) });
    }

    const m = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    if (!m) throw new PayPalError(404, 'RESOURCE_NOT_FOUND');
    const id = decodeURIComponent(m[1]!);
    if (!m[2]) {
      if (method !== 'GET') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
      return sendJson(res, 200, orderBody(findOrder(id)));
    }
    if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
    // PayPal wants the JSON content type on a capture even though its body is optional.
    if (!/^application\/json\b/i.test(type)) throw new PayPalError(415, 'UNSUPPORTED_MEDIA_TYPE');
    parseJsonBody(req, raw, false);
    const replayKey = requestId ? `${id}\n${requestId}` : undefined;
    const replay = replayKey ? captureAnswers.get(replayKey) : undefined;
    if (replay) return sendJson(res, 200, replay.body);
    const answer = capture(findOrder(id));
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
