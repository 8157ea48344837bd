import { currencyDigits, decimalAmount } from '@app/contracts';
import { AppError } from '../../../lib/errors';
import type { MerchantIntegration, PayPalCaptureResult, PayPalClient, PayPalConfig } from './paypal-types';

export type {
  CreatePayPalOrderInput,
  MerchantIntegration,
  OnBehalfOf,
  PartnerReferralInput,
  PayPalCaptureResult,
  PayPalClient,
  PayPalConfig,
  PayPalOrder,
  PayPalRefundInput,
  VerifyWebhookSignatureInput,
} from './paypal-types';

/**
 * A PayPal Orders v2 client (create, look up, capture), on plain fetch. Amounts are integer minor
 * units in our code and decimal strings at PayPal. PayPal failures a shopper can act on come back
 * as typed results; an unreachable or broken PayPal is an AppError 502 that says nothing of PayPal's
 * internals. Neither the client secret nor the access token ever goes into an error or a log.
 */

/** PayPal's refusal issues of a refund, and what they mean for the store. */
const REFUND_EXCEEDS_ISSUES = new Set([
  'REFUND_AMOUNT_EXCEEDED',
  'CAPTURE_FULLY_REFUNDED',
  'CAPTURED_AMOUNT_FULLY_REFUNDED',
  'MAX_REFUND_LIMIT_EXCEEDED',
]);

const UNAVAILABLE_MESSAGE =
  'PayPal is not available right now. Please try again in a moment or choose another way to pay.';

const CAPTURE_MESSAGES: Record<Exclude<PayPalCaptureResult, { ok: true }>['reason'], string> = {
  not_approved: 'The payment has not been approved in PayPal yet. Please approve it in PayPal and try again.',
  declined: 'PayPal declined the payment. Please choose another way to pay in PayPal, or another payment method.',
  already_captured: 'This PayPal payment has already been taken.',
  not_found: 'This PayPal payment could not be found. Please start the payment again.',
  error: 'PayPal could not take the payment. Please try again or choose another way to pay.',
};

const DECLINE_ISSUES = new Set(['INSTRUMENT_DECLINED', 'TRANSACTION_REFUSED', 'REDIRECT_PAYER_FOR_ALTERNATE_FUNDING']);
const NOT_APPROVED_ISSUES = new Set(['ORDER_NOT_APPROVED', 'PAYER_ACTION_REQUIRED']);

/**
 * PayPal takes no decimals for these although ISO 4217 (and so currencyDigits) gives TWD two:
 * "100.00" TWD is refused with DECIMALS_NOT_SUPPORTED.
 */
const PAYPAL_WHOLE_UNIT_CURRENCIES = new Set(['HUF', 'JPY', 'TWD']);

/** Minor units to PayPal's decimal string ("12.34", "1500" for JPY). */
export function paypalAmountValue(amountMinor: number, currency: string): string {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) {
    throw new RangeError(`A PayPal amount must be a positive whole number of minor units, got ${amountMinor}.`);
  }
  const value = decimalAmount(amountMinor, currency);
  if (!PAYPAL_WHOLE_UNIT_CURRENCIES.has(currency)) return value;
  const [whole, fraction = ''] = value.split('.');
  if (/[1-9]/.test(fraction)) {
    throw new RangeError(`PayPal takes whole ${currency} amounts only, got ${value}.`);
  }
  return whole!;
}

/** PayPal's decimal string back to minor units, exactly (no float arithmetic); undefined if malformed. */
export function paypalAmountMinor(value: string, currency: string): number | undefined {
  const digits = currencyDigits(currency);
  const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(value);
  if (!m) return undefined;
  const fraction = m[2] ?? '';
  if (fraction.length > digits) return undefined;
  const minor = Number(m[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return Number.isSafeInteger(minor) ? minor : undefined;
}

interface PayPalErrorBody {
  name?: string;
  message?: string;
  debug_id?: string;
  details?: { issue?: string; description?: string }[];
}

interface PayPalLink {
  href?: string;
  rel?: string;
}

interface PayPalAmount {
  currency_code?: string;
  value?: string;
}

interface PayPalOrderBody {
  id?: string;
  status?: string;
  links?: PayPalLink[];
  purchase_units?: {
    reference_id?: string;
    custom_id?: string;
    payee?: { merchant_id?: string };
    amount?: PayPalAmount;
    payments?: { captures?: { id?: string; status?: string; amount?: PayPalAmount }[] };
  }[];
}

/**
 * The 502 a caller sees, with what an operator needs (status, PayPal's error name and debug id) as
 * its cause, so the error log has it and the response does not.
 */
function unavailable(detail: string): AppError {
  const err = new AppError(502, 'UNAVAILABLE', UNAVAILABLE_MESSAGE);
  err.cause = new Error(detail);
  return err;
}

function describeFailure(status: number, body: unknown): string {
  const e = (body ?? {}) as PayPalErrorBody & { error?: string };
  const parts = [`HTTP ${status}`, e.name ?? e.error, e.details?.[0]?.issue, e.debug_id && `debug_id ${e.debug_id}`];
  return parts.filter(Boolean).join(', ');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

const base64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * PayPal's documented PayPal-Auth-Assertion: an unsigned JWT (alg none) naming our app (iss) and the
 * seller we act for (payer_id). PayPal checks the seller consented to our app; nothing here is secret.
 */
export function paypalAuthAssertion(clientId: string, merchantId: string): string {
  return `${base64url({ alg: 'none' })}.${base64url({ iss: clientId, payer_id: merchantId })}.`;
}

const asStrings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
const asObjects = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObject) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function readMerchantIntegration(body: Record<string, unknown>, merchantId: string): MerchantIntegration {
  const oauth = asObjects(body.oauth_integrations).flatMap((i) => {
    const type = str(i.integration_type) ?? 'OAUTH_THIRD_PARTY';
    const parties = asObjects(i.oauth_third_party);
    if (parties.length === 0) return [{ integrationType: type, scopes: [] as string[] }];
    return parties.map((p) => ({
      integrationType: type,
      ...(str(p.partner_client_id) ? { partnerClientId: str(p.partner_client_id) } : {}),
      scopes: asStrings(p.scopes),
    }));
  });
  return {
    merchantId: str(body.merchant_id) ?? merchantId,
    ...(str(body.tracking_id) ? { trackingId: str(body.tracking_id) } : {}),
    paymentsReceivable: body.payments_receivable === true,
    primaryEmailConfirmed: body.primary_email_confirmed === true,
    ...(str(body.primary_email) ? { primaryEmail: str(body.primary_email) } : {}),
    ...(str(body.legal_name) ? { legalName: str(body.legal_name) } : {}),
    oauthIntegrations: oauth,
    products: asObjects(body.products)
      .filter((p) => typeof p.name === 'string')
      .map((p) => ({
        name: p.name as string,
        ...(str(p.vetting_status) ? { vettingStatus: str(p.vetting_status) } : {}),
      })),
    capabilities: asObjects(body.capabilities)
      .filter((c) => typeof c.name === 'string')
      .map((c) => ({ name: c.name as string, status: str(c.status) ?? 'UNKNOWN' })),
  };
}

export function createPayPalClient(config: PayPalConfig, fetchImpl: typeof fetch = fetch): PayPalClient {
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? 20_000;
  const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');

  const attribution: Record<string, string> = config.partnerAttributionId
    ? { 'PayPal-Partner-Attribution-Id': config.partnerAttributionId }
    : {};

  let cached: { token: string; refreshAt: number } | undefined;
  // Concurrent checkouts share one token request instead of each fetching their own.
  let pending: Promise<string> | undefined;

  async function send(url: string, init: RequestInit, what: string): Promise<{ status: number; body: unknown }> {
    let res: Response;
    try {
      res = await fetchImpl(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (e) {
      const name = e instanceof Error ? e.name : 'Error';
      throw unavailable(`PayPal ${what}: request failed (${name === 'TimeoutError' ? 'timed out' : name})`);
    }
    const text = await res.text().catch(() => '');
    let body: unknown;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    // 5xx, and 408/429 which are the same "try again later", are PayPal's trouble, not the shopper's.
    if (res.status >= 500 || res.status === 408 || res.status === 429) {
      throw unavailable(`PayPal ${what}: ${describeFailure(res.status, body)}`);
    }
    return { status: res.status, body };
  }

  async function fetchToken(): Promise<string> {
    const { status, body } = await send(
      `${baseUrl}/v1/oauth2/token`,
      {
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
          ...attribution,
        },
        body: 'grant_type=client_credentials',
      },
      'token',
    );
    if (status !== 200 || !isObject(body) || typeof body.access_token !== 'string') {
      // invalid_client here means our credentials are wrong: an operator's problem, logged as such.
      throw unavailable(`PayPal token: ${describeFailure(status, body)}`);
    }
    const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 60;
    // Refresh a little early (a tenth of the lifetime, at most five minutes) so a token never
    // expires between being read here and reaching PayPal.
    const margin = Math.min(300, expiresIn / 10);
    cached = { token: body.access_token, refreshAt: Date.now() + (expiresIn - margin) * 1000 };
    return body.access_token;
  }

  async function token(): Promise<string> {
    if (cached && Date.now() < cached.refreshAt) return cached.token;
    pending ??= fetchToken().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  async function api(
    method: 'GET' | 'POST',
    path: string,
    opts: { body?: unknown; requestId?: string; what: string; onBehalfOf?: string },
  ): Promise<{ status: number; body: unknown }> {
    for (let attempt = 0; ; attempt++) {
      const bearer = await token();
      const headers: Record<string, string> = {
        Authorization: `Bearer ${bearer}`,
        Accept: 'application/json',
        ...attribution,
      };
      if (method === 'POST') headers['Content-Type'] = 'application/json';
      if (opts.requestId) headers['PayPal-Request-Id'] = opts.requestId;
      if (opts.onBehalfOf) headers['PayPal-Auth-Assertion'] = paypalAuthAssertion(config.clientId, opts.onBehalfOf);
      const res = await send(
        `${baseUrl}${path}`,
        { method, headers, ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }) },
        opts.what,
      );
      if (res.status !== 401) return res;
      // A token PayPal revoked or expired early: forget it and try once more with a fresh one.
      // The PayPal-Request-Id makes the repeat safe for POSTs.
      if (cached?.token === bearer) cached = undefined;
      if (attempt >= 1) throw unavailable(`PayPal ${opts.what}: ${describeFailure(res.status, res.body)}`);
    }
  }

  function readAmount(amount: PayPalAmount | undefined, what: string): { amountMinor: number; currency: string } {
    const currency = amount?.currency_code;
    const minor = currency && amount.value !== undefined ? paypalAmountMinor(amount.value, currency) : undefined;
    if (!currency || minor === undefined) throw unavailable(`PayPal ${what}: unreadable amount`);
    return { amountMinor: minor, currency };
  }

  return {
    clientId: config.clientId,

    async createOrder(input) {
      const value = paypalAmountValue(input.amountMinor, input.currency);
      const { status, body } = await api('POST', '/v2/checkout/orders', {
        what: 'create order',
        requestId: input.requestId,
        body: {
          intent: 'CAPTURE',
          purchase_units: [
            {
              reference_id: input.referenceId,
              amount: { currency_code: input.currency, value },
              ...(input.payeeMerchantId ? { payee: { merchant_id: input.payeeMerchantId } } : {}),
              // PayPal caps both at 127 characters.
              ...(input.customId ? { custom_id: input.customId.slice(0, 127) } : {}),
              ...(input.invoiceId ? { invoice_id: input.invoiceId.slice(0, 127) } : {}),
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                return_url: input.returnUrl,
                cancel_url: input.cancelUrl,
                // PayPal caps the brand name at 127 characters and refuses the order beyond.
                brand_name: input.brandName?.slice(0, 127),
                user_action: 'PAY_NOW',
                shipping_preference: 'NO_SHIPPING',
              },
            },
          },
        },
      });
      const order = body as PayPalOrderBody | undefined;
      // 201 the first time, 200 when PayPal replays the order for a repeated PayPal-Request-Id.
      if ((status !== 201 && status !== 200) || !order?.id || !order.status) {
        throw unavailable(`PayPal create order: ${describeFailure(status, body)}`);
      }
      const link = order.links?.find((l) => l.rel === 'payer-action') ?? order.links?.find((l) => l.rel === 'approve');
      if (!link?.href) throw unavailable('PayPal create order: no payer-action link');
      return { id: order.id, status: order.status, approveUrl: link.href };
    },

    async getOrder(id, opts) {
      const { status, body } = await api('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`, {
        what: 'get order',
        ...(opts?.onBehalfOf ? { onBehalfOf: opts.onBehalfOf } : {}),
      });
      if (status === 404) throw AppError.notFound('This PayPal payment could not be found.');
      const order = body as PayPalOrderBody | undefined;
      const unit = order?.purchase_units?.[0];
      if (status !== 200 || !order?.id || !order.status || !unit) {
        throw unavailable(`PayPal get order: ${describeFailure(status, body)}`);
      }
      const captured = unit.payments?.captures?.[0];
      return {
        id: order.id,
        status: order.status,
        ...readAmount(unit.amount, 'get order'),
        referenceId: unit.reference_id ?? 'default',
        ...(unit.payee?.merchant_id ? { payeeMerchantId: unit.payee.merchant_id } : {}),
        ...(unit.custom_id ? { customId: unit.custom_id } : {}),
        ...(captured?.id && captured.status
          ? { capture: { id: captured.id, status: captured.status, ...readAmount(captured.amount, 'get order') } }
          : {}),
      };
    },

    async captureOrder(id, requestId, opts) {
      const { status, body } = await api('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {
        what: 'capture',
        requestId,
        ...(opts?.onBehalfOf ? { onBehalfOf: opts.onBehalfOf } : {}),
      });
      if (status === 201 || status === 200) {
        const order = body as PayPalOrderBody | undefined;
        const unit = order?.purchase_units?.[0];
        const capture = unit?.payments?.captures?.[0];
        if (!capture?.id || !capture.status) throw unavailable('PayPal capture: no capture in the answer');
        // An order can be COMPLETED with its capture DECLINED: only the capture's status says money moved.
        if (capture.status === 'DECLINED') {
          return { ok: false, reason: 'declined', message: CAPTURE_MESSAGES.declined, issue: 'CAPTURE_DECLINED' };
        }
        if (capture.status !== 'COMPLETED') {
          // PENDING (held for review, an eCheck) is not money we may ship against yet.
          return { ok: false, reason: 'error', message: CAPTURE_MESSAGES.error, issue: `CAPTURE_${capture.status}` };
        }
        return {
          ok: true,
          captureId: capture.id,
          status: 'COMPLETED',
          ...readAmount(capture.amount, 'capture'),
          referenceId: unit?.reference_id ?? 'default',
        };
      }
      const e = (isObject(body) ? body : {}) as PayPalErrorBody;
      const issues = (e.details ?? []).map((d) => d.issue).filter((i): i is string => typeof i === 'string');
      let reason: Exclude<PayPalCaptureResult, { ok: true }>['reason'] = 'error';
      if (status === 404 || e.name === 'RESOURCE_NOT_FOUND') reason = 'not_found';
      else if (issues.includes('ORDER_ALREADY_CAPTURED')) reason = 'already_captured';
      else if (issues.some((i) => NOT_APPROVED_ISSUES.has(i))) reason = 'not_approved';
      else if (issues.some((i) => DECLINE_ISSUES.has(i))) reason = 'declined';
      return {
        ok: false,
        reason,
        message: CAPTURE_MESSAGES[reason],
        ...(e.debug_id ? { debugId: e.debug_id } : {}),
        ...(issues[0] ? { issue: issues[0] } : e.name ? { issue: e.name } : {}),
      };
    },

    async refundCapture(captureId, input) {
      const { status, body } = await api('POST', `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, {
        what: 'refund',
        requestId: input.requestId,
        ...(input.onBehalfOf ? { onBehalfOf: input.onBehalfOf } : {}),
        body: {
          amount: { currency_code: input.currency, value: paypalAmountValue(input.amountMinor, input.currency) },
          ...(input.invoiceId ? { invoice_id: input.invoiceId.slice(0, 127) } : {}),
          ...(input.noteToPayer ? { note_to_payer: input.noteToPayer.slice(0, 255) } : {}),
        },
      });
      if (status === 201 || status === 200) {
        const refund = (isObject(body) ? body : {}) as { id?: unknown; status?: unknown };
        if (typeof refund.id !== 'string' || typeof refund.status !== 'string') {
          throw unavailable('PayPal refund: no refund in the answer');
        }
        // PENDING (an eCheck not cleared yet) still completes without us; CANCELLED and FAILED did not refund.
        if (refund.status === 'CANCELLED' || refund.status === 'FAILED') {
          return { ok: false, reason: 'declined', message: `PayPal did not refund the payment (${refund.status}).` };
        }
        return { ok: true, refundId: refund.id };
      }
      const e = (isObject(body) ? body : {}) as PayPalErrorBody;
      const issues = (e.details ?? []).map((d) => d.issue).filter((i): i is string => typeof i === 'string');
      if (status === 404 || e.name === 'RESOURCE_NOT_FOUND') {
        return { ok: false, reason: 'not_found', message: 'PayPal does not know this payment.' };
      }
      if (issues.some((i) => REFUND_EXCEEDS_ISSUES.has(i))) {
        return {
          ok: false,
          reason: 'exceeds_charge',
          message: 'PayPal says the refund is more than what is left of the payment.',
        };
      }
      return {
        ok: false,
        reason: 'declined',
        message: `PayPal refused the refund${issues[0] ? ` (${issues[0]})` : ''}.`,
      };
    },
    async createPartnerReferral(input) {
      const { status, body } = await api('POST', '/v2/customer/partner-referrals', {
        what: 'partner referral',
        ...(input.requestId ? { requestId: input.requestId } : {}),
        body: {
          ...(input.email ? { email: input.email } : {}),
          tracking_id: input.trackingId,
          operations: [
            {
              operation: 'API_INTEGRATION',
              api_integration_preference: {
                rest_api_integration: {
                  integration_method: 'PAYPAL',
                  integration_type: 'THIRD_PARTY',
                  third_party_details: { features: ['PAYMENT', 'REFUND'] },
                },
              },
            },
          ],
          products: ['EXPRESS_CHECKOUT'],
          legal_consents: [{ type: 'SHARE_DATA_CONSENT', granted: true }],
          partner_config_override: { return_url: input.returnUrl },
        },
      });
      const links = isObject(body) ? asObjects(body.links) : [];
      const action = str(links.find((l) => l.rel === 'action_url')?.href);
      const self = str(links.find((l) => l.rel === 'self')?.href);
      if ((status !== 201 && status !== 200) || !action || !self) {
        throw unavailable(`PayPal partner referral: ${describeFailure(status, body)}`);
      }
      const referralId = decodeURIComponent(self.replace(/\/+$/, '').split('/').pop() ?? '');
      return { referralId, actionUrl: action };
    },

    async getMerchantIntegration(partnerId, merchantId) {
      const { status, body } = await api(
        'GET',
        `/v1/customer/partners/${encodeURIComponent(partnerId)}/merchant-integrations/${encodeURIComponent(merchantId)}`,
        { what: 'merchant integration' },
      );
      if (status === 404) return null;
      if (status !== 200 || !isObject(body)) {
        throw unavailable(`PayPal merchant integration: ${describeFailure(status, body)}`);
      }
      return readMerchantIntegration(body, merchantId);
    },

    async findMerchantByTrackingId(partnerId, trackingId) {
      const { status, body } = await api(
        'GET',
        `/v1/customer/partners/${encodeURIComponent(partnerId)}/merchant-integrations?tracking_id=${encodeURIComponent(trackingId)}`,
        { what: 'merchant lookup' },
      );
      if (status === 404) return null;
      if (status !== 200 || !isObject(body) || typeof body.merchant_id !== 'string' || !body.merchant_id) {
        throw unavailable(`PayPal merchant lookup: ${describeFailure(status, body)}`);
      }
      return { merchantId: body.merchant_id };
    },

    async verifyWebhookSignature(input) {
      const { status, body } = await api('POST', '/v1/notifications/verify-webhook-signature', {
        what: 'verify webhook',
        body: {
          auth_algo: input.authAlgo,
          cert_url: input.certUrl,
          transmission_id: input.transmissionId,
          transmission_sig: input.transmissionSig,
          transmission_time: input.transmissionTime,
          webhook_id: input.webhookId,
          webhook_event: input.event,
        },
      });
      // A 400 is a notification with headers missing or malformed: not PayPal's, so not verified.
      if (status === 400 || status === 422) return false;
      if (status !== 200 || !isObject(body)) {
        throw unavailable(`PayPal verify webhook: ${describeFailure(status, body)}`);
      }
      return body.verification_status === 'SUCCESS';
    },
  };
}
