import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { paypalId, type StandInApp, type StandInReferral } from './paypal-stand-in-shared';
import type {
  SellerOptions,
  StandInOrder,
  StandInRefund,
  StandInRequest,
  StandInSeller,
  WebhookDelivery,
} from './paypal-stand-in-types';

// What one running PayPal stand-in (paypal-stand-in.ts) holds: its settings, what PayPal would have stored
// (apps, tokens, sellers, referrals, orders, refunds), the idempotency keys, the one-shot switches a test
// sets and the request log. Every helper of the stand-in takes it first, so each can be called alone.

/** What startPayPalStandIn takes. */
export interface StandInOptions {
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
}

export interface StandInState {
  /** Lifetime of the access tokens, in seconds. */
  readonly tokenTtl: number;
  /** The app_id the token call answers with. */
  readonly appId: string;
  readonly partnerId: string;
  readonly webhookId: string;
  /** Where the stand-in sends its own webhooks; undefined: none. */
  webhookUrl: string | undefined;
  /** The key of the webhook signatures (an HMAC: only verify-webhook-signature can check them). */
  readonly signingKey: Buffer;
  /** The path of the certificate named in paypal-cert-url. */
  readonly certUrlPath: string;
  /** By client id; the platform's app is the one given to startPayPalStandIn. */
  readonly apps: Map<string, StandInApp>;
  readonly platformApp: StandInApp;
  /** Access token -> its expiry and app. */
  readonly tokens: Map<string, { expiry: number; app: StandInApp }>;
  /** By merchant id. */
  readonly sellers: Map<string, StandInSeller>;
  /** By referral id. */
  readonly referrals: Map<string, StandInReferral>;
  /** PayPal-Request-Id -> referral id. */
  readonly referralKeys: Map<string, string>;
  /** Applies to the next sign-up on the sign-up page only. */
  nextSellerOpts: SellerOptions | undefined;
  readonly webhookDeliveries: WebhookDelivery[];
  /** The webhooks the stand-in is sending by itself. */
  readonly inFlight: Set<Promise<unknown>>;
  /** By PayPal order id. */
  readonly orders: Map<string, StandInOrder>;
  readonly requests: StandInRequest[];
  /** PayPal-Request-Id -> order id (create). */
  readonly createKeys: Map<string, string>;
  /** Order id and PayPal-Request-Id -> the first successful answer (capture). */
  readonly captureAnswers: Map<string, { body: unknown }>;
  readonly refunds: StandInRefund[];
  /** PayPal-Request-Id -> the refund it made: a repeated request gets the first refund back. */
  readonly refundKeys: Map<string, StandInRefund>;
  /** The next refund is refused with this issue. */
  refuseNext: string | undefined;
  /** How the next capture is declined. */
  declineNext: 'instrument' | 'capture' | undefined;
  /** The next API request gets this 5xx. */
  failNext: number | undefined;
  /** The next capture's answer waits for `released`; `captured` says it was made. */
  holdNext: { captured: () => void; released: Promise<void> } | undefined;
  /** The server's own URL, set once it listens. */
  url: string;
  /** Each answer's entry in the request log, so the log gets the status sent. */
  readonly entries: WeakMap<ServerResponse, StandInRequest>;
}

export function createStandInState(opts: StandInOptions): StandInState {
  const partnerId = opts.partnerId ?? 'PARTNERSTANDIN1';
  const platformApp: StandInApp = {
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    merchantId: partnerId,
    platform: true,
  };
  return {
    tokenTtl: opts.tokenTtlSeconds ?? 32_400,
    appId: `APP-${paypalId(17)}`,
    partnerId,
    webhookId: opts.webhookId ?? `WH-${paypalId(17)}`,
    webhookUrl: opts.webhookUrl,
    signingKey: randomBytes(32),
    certUrlPath: `/v1/notifications/certs/CERT-360caa42-fca2a594-${paypalId(8).toLowerCase()}`,
    apps: new Map([[opts.clientId, platformApp]]),
    platformApp,
    tokens: new Map(),
    sellers: new Map(),
    referrals: new Map(),
    referralKeys: new Map(),
    nextSellerOpts: undefined,
    webhookDeliveries: [],
    inFlight: new Set(),
    orders: new Map(),
    requests: [],
    createKeys: new Map(),
    captureAnswers: new Map(),
    refunds: [],
    refundKeys: new Map(),
    refuseNext: undefined,
    declineNext: undefined,
    failNext: undefined,
    holdNext: undefined,
    url: '',
    entries: new WeakMap(),
  };
}
