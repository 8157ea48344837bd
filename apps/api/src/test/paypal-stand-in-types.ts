// The shapes the PayPal stand-in (paypal-stand-in.ts) answers with and records, for the tests that read them.

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
  /** The app (client id) that created it: no other app can see it. */
  clientId: string;
  /** purchase_units[0].payee.merchant_id: a seller, or the creating app's own merchant. */
  payeeMerchantId: string;
  customId?: string;
  invoiceId?: string;
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

/** A seller who signed up through a partner referral (or `addSeller`). */
export interface StandInSeller {
  merchantId: string;
  trackingId: string;
  paymentsReceivable: boolean;
  emailConfirmed: boolean;
  primaryEmail: string;
  legalName: string;
  /** Consent granted to the platform's app (oauth_integrations); false once revoked. */
  consent: boolean;
  /** The seller's own REST app, as PayPal reports it in oauth_third_party. */
  merchantClientId: string;
}

export interface SellerOptions {
  paymentsReceivable?: boolean;
  emailConfirmed?: boolean;
  /** Whether the seller grants the platform's permissions (default true). */
  consent?: boolean;
}

/** What an event builder gives and `deliverWebhook` takes. */
export interface WebhookInput {
  event_type: string;
  resource_type: string;
  resource: unknown;
  summary?: string;
}

export interface WebhookEvent extends WebhookInput {
  id: string;
  event_version: '1.0';
  create_time: string;
  summary: string;
  links: { href: string; rel: string; method: string }[];
}

export interface WebhookDelivery {
  targetUrl: string;
  /** The receiver's answer; 0 when it could not be reached. */
  status: number;
  responseBody: string;
  event: WebhookEvent;
  /** As sent (paypal-transmission-id, -time, -sig, paypal-cert-url, paypal-auth-algo, content-type). */
  headers: Record<string, string>;
  /** The exact bytes sent: JSON.stringify(event). */
  rawBody: string;
}

export interface PayPalStandIn {
  url: string;
  /** The platform's own merchant id (PayPal's partner id for merchant-integrations). */
  partnerId: string;
  /** The id of the platform's webhook: the one verify-webhook-signature accepts. */
  webhookId: string;
  /**
   * Where the stand-in sends its own webhooks (onboarding completed, capture completed or denied,
   * refund, consent revoked); undefined: none. They are the platform's webhooks: captures and refunds
   * of orders a store's own app made are not sent (that app would have its own webhook at PayPal).
   * Sent right after the change, before or while its API answer goes out, as PayPal's come on their own.
   */
  setWebhookUrl(url: string | undefined): void;
  /** A store's own REST app with its own merchant; tokens and orders belong to the app that got them. */
  addApp(app: { clientId: string; clientSecret: string }): { merchantId: string };
  /** Applies to the next sign-up on the sign-up page only. */
  nextSeller(opts: SellerOptions): void;
  /** A seller as if signed up (no page, no webhook); returns the merchant id. */
  addSeller(opts: SellerOptions & { trackingId: string }): string;
  updateSeller(merchantId: string, patch: Partial<Omit<StandInSeller, 'merchantId'>>): void;
  /** The seller revokes the platform's permissions (MERCHANT.PARTNER-CONSENT.REVOKED when a webhook URL is set). */
  revokeConsent(merchantId: string): void;
  sellers: Map<string, StandInSeller>;
  /** Builds PayPal's event envelope, signs it and POSTs it; `forge` sends a wrong signature. */
  deliverWebhook(targetUrl: string, input: WebhookInput, opts?: { forge?: boolean }): Promise<WebhookDelivery>;
  /** The exact same request again (a replay). */
  redeliver(delivery: WebhookDelivery): Promise<WebhookDelivery>;
  /** Every delivery made, oldest first. */
  webhookDeliveries: WebhookDelivery[];
  /** Resolves once every webhook the stand-in sent by itself has been answered. */
  settleWebhooks(): Promise<void>;
  /** PAYMENT.CAPTURE.COMPLETED, or PAYMENT.CAPTURE.DENIED for a declined capture, of an order's capture. */
  captureEvent(orderId: string): WebhookInput;
  /** PAYMENT.CAPTURE.REFUNDED for a refund made. */
  refundEvent(refundId: string): WebhookInput;
  /** MERCHANT.ONBOARDING.COMPLETED for a seller. */
  onboardingCompletedEvent(merchantId: string): WebhookInput;
  /** MERCHANT.PARTNER-CONSENT.REVOKED for a seller. */
  consentRevokedEvent(merchantId: string): WebhookInput;
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
