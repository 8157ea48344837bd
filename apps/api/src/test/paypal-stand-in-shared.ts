import { randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type {} from './paypal-stand-in-types';

// PayPal's fixed tables and the small helpers of the stand-in (paypal-stand-in.ts): currencies, error
// messages, PayPal's error answers, ids, request reading, the referral vocabularies. No state: the server's state
// lives in a StandInState (paypal-stand-in-state.ts).

/** PayPal's currencies and their decimals (https://developer.paypal.com/reference/currency-codes/). */
export const PAYPAL_CURRENCY_DIGITS: Record<string, number> = {
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

export const MESSAGES = {
  INVALID_REQUEST: 'Request is not well-formed, syntactically incorrect, or violates schema.',
  UNPROCESSABLE_ENTITY:
    'The requested action could not be performed, semantically incorrect, or failed business validation.',
  RESOURCE_NOT_FOUND: 'The specified resource does not exist.',
  AUTHENTICATION_FAILURE:
    'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
  INTERNAL_SERVER_ERROR: 'An internal server error has occurred.',
  UNSUPPORTED_MEDIA_TYPE: 'The server does not support the request payload media type.',
  METHOD_NOT_SUPPORTED: 'The server does not implement the requested HTTP method.',
  PERMISSION_DENIED: 'You do not have permission to access or perform operations on this resource.',
} as const;
type ErrorName = keyof typeof MESSAGES;

export interface Detail {
  issue: string;
  description: string;
  field?: string;
  value?: string;
  location?: 'body' | 'path' | 'query' | 'header';
}

export class PayPalError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: ErrorName,
    readonly details: Detail[] = [],
  ) {
    super(errorName);
  }
}

/** 400 INVALID_REQUEST for one body field. */
export const invalid = (field: string, issue: string, description: string, value?: unknown) =>
  new PayPalError(400, 'INVALID_REQUEST', [
    { field, ...(value === undefined ? {} : { value: String(value) }), location: 'body', issue, description },
  ]);

/** 422 UNPROCESSABLE_ENTITY: well-formed, refused by a business rule. */
export const unprocessable = (issue: string, description: string, field?: string, value?: unknown) =>
  new PayPalError(422, 'UNPROCESSABLE_ENTITY', [
    {
      ...(field ? { field, location: 'body' as const } : {}),
      ...(value === undefined ? {} : { value: String(value) }),
      issue,
      description,
    },
  ]);

export const missing = (field: string) =>
  invalid(field, 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.');

export const notFound = (location: Detail['location'] = 'path') =>
  new PayPalError(404, 'RESOURCE_NOT_FOUND', [
    {
      issue: 'INVALID_RESOURCE_ID',
      description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
      location,
    },
  ]);

export const denied = () => new PayPalError(403, 'PERMISSION_DENIED');

const ALPHANUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** PayPal ids look like "5O190127TN364715T": upper-case letters and digits. */
export function paypalId(length: number): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ALPHANUM[randomInt(ALPHANUM.length)];
  return id;
}

export const debugId = () => randomBytes(7).toString('hex').slice(0, 13);

export function flattenHeaders(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export async function readBody(req: IncomingMessage): Promise<string> {
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

export function parseJsonBody(req: IncomingMessage, raw: string, required: boolean): unknown {
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

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE, as zlib) of the UTF-8 bytes, unsigned: the number in PayPal's signed webhook message. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export const escapeHtml = (v: string) =>
  v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The scopes a seller grants a platform for PAYMENT and REFUND. */
export const THIRD_PARTY_SCOPES = [
  'https://uri.paypal.com/services/payments/realtimepayment',
  'https://uri.paypal.com/services/payments/payment/authcapture',
  'https://uri.paypal.com/services/payments/refund',
];
export const REFERRAL_FEATURES = new Set([
  'PAYMENT',
  'REFUND',
  'FUTURE_PAYMENT',
  'DIRECT_PAYMENT',
  'PARTNER_FEE',
  'DELAY_FUNDS_DISBURSEMENT',
  'READ_SELLER_DISPUTE',
  'UPDATE_SELLER_DISPUTE',
  'ADVANCED_TRANSACTIONS_SEARCH',
  'SWEEP_FUNDS_EXTERNAL_SINK',
  'ACCESS_MERCHANT_INFORMATION',
  'TRACKING_SHIPMENT_READWRITE',
  'INVOICE_READ_WRITE',
  'DISPUTE_READ_BUY',
  'UPDATE_CUSTOMER_DISPUTES',
  'VAULT',
  'BILLING_AGREEMENT',
]);
export const REFERRAL_PRODUCTS = new Set(['EXPRESS_CHECKOUT', 'PPCP', 'PAYMENT_METHODS', 'ADVANCED_VAULTING']);
export const REFERRAL_OPERATIONS = new Set([
  'API_INTEGRATION',
  'BANK_ADDITION',
  'BILLING_AGREEMENT',
  'CONTEXTUAL_MARKETING_CONSENT',
]);

export interface StandInApp {
  clientId: string;
  clientSecret: string;
  merchantId: string;
  /** The platform (partner) app: the one given to startPayPalStandIn. */
  platform: boolean;
}

export interface StandInReferral {
  id: string;
  token: string;
  trackingId: string;
  returnUrl?: string;
  email?: string;
  /** The request body, for GET /v2/customer/partner-referrals/{id}. */
  data: Record<string, unknown>;
}

export function isHttpUrl(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
