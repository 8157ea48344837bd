/** The PayPal client's shapes: its configuration, what it is asked and what it answers. */
import type { RefundResult } from '../cards/index';

export interface PayPalConfig {
  /** https://api-m.paypal.com, https://api-m.sandbox.paypal.com or the stand-in's URL. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Per request; a hung connection must not hold a checkout forever. Default 20 s. */
  timeoutMs?: number;
  /** The platform's BN code, sent as PayPal-Partner-Attribution-Id on every call when set. */
  partnerAttributionId?: string;
}

export interface CreatePayPalOrderInput {
  amountMinor: number;
  currency: string;
  /** Our own order reference; PayPal hands it back on the order and the capture. */
  referenceId: string;
  /** Idempotency key: retrying with the same id never creates a second PayPal order. */
  requestId: string;
  returnUrl: string;
  cancelUrl: string;
  brandName?: string;
  /** The seller the money goes to (purchase_units[0].payee.merchant_id): a store's own PayPal account. */
  payeeMerchantId?: string;
  /** Ours, echoed on the capture and its webhooks: the tenant id, so a webhook finds its store. */
  customId?: string;
  /** Ours, shown in the seller's PayPal records; PayPal refuses a second order with the same one. */
  invoiceId?: string;
}

/** The seller's side of a partner integration (GET .../merchant-integrations/{merchant_id}). */
export interface MerchantIntegration {
  merchantId: string;
  trackingId?: string;
  paymentsReceivable: boolean;
  primaryEmailConfirmed: boolean;
  primaryEmail?: string;
  legalName?: string;
  /** Empty once the seller revoked the platform's consent. */
  oauthIntegrations: { integrationType: string; partnerClientId?: string; scopes: string[] }[];
  products: { name: string; vettingStatus?: string }[];
  capabilities: { name: string; status: string }[];
}

export interface PartnerReferralInput {
  /** Ours (the tenant id): PayPal hands it back on the return URL and in merchant lookups. */
  trackingId: string;
  /** Where PayPal sends the seller after sign-up. */
  returnUrl: string;
  /** Pre-fills the seller's sign-up. */
  email?: string;
  requestId?: string;
}

export interface VerifyWebhookSignatureInput {
  authAlgo: string;
  certUrl: string;
  transmissionId: string;
  transmissionSig: string;
  transmissionTime: string;
  webhookId: string;
  /** The event as received, parsed. */
  event: unknown;
}

/** Acting for a seller who consented to the platform (PayPal-Auth-Assertion). */
export interface OnBehalfOf {
  onBehalfOf?: string;
}

export interface PayPalOrder {
  id: string;
  status: string;
  amountMinor: number;
  currency: string;
  referenceId: string;
  /** purchase_units[0].payee.merchant_id as PayPal reports it. */
  payeeMerchantId?: string;
  customId?: string;
  /** The capture, once there is one: the sweep of stuck orders completes an order PayPal has paid. */
  capture?: { id: string; status: string; amountMinor: number; currency: string };
}

export type PayPalCaptureResult =
  | { ok: true; captureId: string; status: 'COMPLETED'; amountMinor: number; currency: string; referenceId: string }
  | {
      ok: false;
      reason: 'not_approved' | 'declined' | 'already_captured' | 'not_found' | 'error';
      message: string;
      /** PayPal's correlation id, for a support ticket. */
      debugId?: string;
      /** PayPal's issue code (INSTRUMENT_DECLINED, ...), for the logs. */
      issue?: string;
    };

export interface PayPalClient {
  /** The app's client id (the platform's, for partner calls). */
  readonly clientId: string;
  createOrder(input: CreatePayPalOrderInput): Promise<{ id: string; status: string; approveUrl: string }>;
  /** Throws AppError 404 for an order PayPal does not know. */
  getOrder(id: string, opts?: OnBehalfOf): Promise<PayPalOrder>;
  /**
   * Captures an approved order. An AppError 502 (network, timeout, PayPal 5xx) leaves the outcome
   * unknown: retry with the same requestId, which PayPal answers with the first capture, never a
   * second one.
   */
  captureOrder(id: string, requestId: string, opts?: OnBehalfOf): Promise<PayPalCaptureResult>;
  /**
   * Refunds part or all of a capture (POST /v2/payments/captures/{id}/refund). PayPal's refusals
   * (more than is left, fully refunded, not found) are typed results; an AppError 502 leaves the
   * outcome unknown: ask again with the same requestId, which PayPal answers with the first refund.
   */
  refundCapture(captureId: string, input: PayPalRefundInput & OnBehalfOf): Promise<RefundResult>;
  /**
   * POST /v2/customer/partner-referrals: a sign-up link for a seller to connect their PayPal account
   * to the platform (third-party API integration with PAYMENT and REFUND). PayPal's refusal is an
   * AppError 502 (our request or our partner account is wrong: an operator's problem).
   */
  createPartnerReferral(input: PartnerReferralInput): Promise<{ referralId: string; actionUrl: string }>;
  /** GET /v1/customer/partners/{partner_id}/merchant-integrations/{merchant_id}; null when PayPal answers 404. */
  getMerchantIntegration(partnerId: string, merchantId: string): Promise<MerchantIntegration | null>;
  /** The seller who signed up with our tracking id, or null (404: not signed up, or not yet). */
  findMerchantByTrackingId(partnerId: string, trackingId: string): Promise<{ merchantId: string } | null>;
  /** POST /v1/notifications/verify-webhook-signature: true only for verification_status SUCCESS. */
  verifyWebhookSignature(input: VerifyWebhookSignatureInput): Promise<boolean>;
}

export interface PayPalRefundInput {
  amountMinor: number;
  currency: string;
  requestId: string;
  /** Shown to the buyer in PayPal (at most 255 characters). */
  noteToPayer?: string;
  /** Our order id, for the merchant's PayPal records. */
  invoiceId?: string;
}
