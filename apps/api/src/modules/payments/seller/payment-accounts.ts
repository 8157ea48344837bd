import { PAYPAL_CONFIG_ID } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import type { SecretBox } from '../../../lib/secret-box';
import { createPayPalClient, type PayPalClient } from '../paypal/index';

/**
 * Whose PayPal account a store's checkout pays into (decision 049), in one place so checkout,
 * refunds, the sweep and webhooks agree:
 * - the store's own PayPal app, when PP_CONFIG has one (`app:<client id>`);
 * - else its seller account connected through the platform's partner app (`merchant:<id>`): orders
 *   name the seller as payee, refunds carry PayPal-Auth-Assertion for the seller;
 * - else none: checkout does not offer PayPal. PP_CONFIG's `enabled: false` switches it off too.
 * The account is written on the order (orders.payment_account) and a refund goes back through that
 * account, whatever the store's settings are by then.
 */
export interface PayPalAccount {
  client: PayPalClient;
  /** What orders.payment_account records; null for the platform's own account (orders before 049). */
  account: string | null;
  /** The connected seller's merchant id: the payee of new orders, `onBehalfOf` for refunds. */
  merchantId?: string;
}

export interface PaymentAccounts {
  /** How checkout takes PayPal in this store now, or null when the store does not offer PayPal. */
  forStore(tenantId: string): Promise<PayPalAccount | null>;
  /** The account an order was paid into, or null when the store can no longer reach it. */
  forOrder(tenantId: string, paymentAccount: string | null): Promise<PayPalAccount | null>;
  /** Drop what is cached of a store (on `payments.changed`). */
  forget(tenantId: string): void;
  /** The platform's partner app: onboarding and webhook verification. */
  readonly platform: PayPalClient | undefined;
  /** The platform's PayPal merchant id (PAYPAL_PARTNER_ID); onboarding needs it. */
  readonly partnerId: string | undefined;
  /** The environment of the platform's app, which connected sellers share. */
  readonly environment: 'sandbox' | 'live';
}

const PAYPAL_LIVE = 'https://api-m.paypal.com';
const PAYPAL_SANDBOX = 'https://api-m.sandbox.paypal.com';

/**
 * Where a store's own app is spoken to: PayPal's documented host for its environment, or the
 * platform's base URL when that is neither (a stand-in in tests and local tries).
 */
export function paypalBaseUrlFor(environment: 'sandbox' | 'live', platformBaseUrl: string | undefined): string {
  if (platformBaseUrl) {
    const host = new URL(platformBaseUrl).host;
    if (host !== new URL(PAYPAL_LIVE).host && host !== new URL(PAYPAL_SANDBOX).host) return platformBaseUrl;
  }
  return environment === 'live' ? PAYPAL_LIVE : PAYPAL_SANDBOX;
}

export function environmentOf(baseUrl: string | undefined): 'sandbox' | 'live' {
  return baseUrl && new URL(baseUrl).host === new URL(PAYPAL_LIVE).host ? 'live' : 'sandbox';
}

/** Where a sealed own-app secret belongs: bound into the seal so it opens for this store only. */
export const ownSecretContext = (tenantId: string) => `payment_configs:${tenantId}:${PAYPAL_CONFIG_ID}`;

export function createPaymentAccounts(
  db: Db,
  deps: {
    platform: PayPalClient | undefined;
    platformBaseUrl: string | undefined;
    partnerId: string | undefined;
    partnerAttributionId: string | undefined;
    secrets: SecretBox;
    /** Tests pass the stand-in's fetch; defaults to fetch. */
    createClient?: typeof createPayPalClient;
  },
): PaymentAccounts {
  const makeClient = deps.createClient ?? createPayPalClient;
  // Per store: what checkout uses now (null: no PayPal). Dropped on `payments.changed`.
  const current = new Map<string, { value: PayPalAccount | null; at: number }>();
  // A store's own app client, kept while its credentials stay the same, so its token is reused.
  const ownClients = new Map<string, { key: string; client: PayPalClient }>();
  const TTL_MS = 5 * 60_000;

  async function ownApp(tenantId: string): Promise<{ enabled: boolean; app: PayPalAccount | null } | null> {
    const [config] = await db
      .select()
      .from(schema.paymentConfigs)
      .where(and(eq(schema.paymentConfigs.tenantId, tenantId), eq(schema.paymentConfigs.configId, PAYPAL_CONFIG_ID)));
    if (!config) return null;
    if (!config.ownClientId || !config.ownClientSecretSealed) return { enabled: config.enabled, app: null };
    const key = `${config.environment}\n${config.ownClientId}\n${config.ownClientSecretSealed}`;
    let cached = ownClients.get(tenantId);
    if (cached?.key !== key) {
      const secret = deps.secrets.open(config.ownClientSecretSealed, ownSecretContext(tenantId));
      // Sealed under another SECRETS_KEY (a rotation gone wrong): the store has no usable app.
      if (secret === null) return { enabled: config.enabled, app: null };
      cached = {
        key,
        client: makeClient({
          baseUrl: paypalBaseUrlFor(config.environment as 'sandbox' | 'live', deps.platformBaseUrl),
          clientId: config.ownClientId,
          clientSecret: secret,
        }),
      };
      ownClients.set(tenantId, cached);
    }
    return { enabled: config.enabled, app: { client: cached.client, account: `app:${config.ownClientId}` } };
  }

  async function connectedSeller(tenantId: string): Promise<string | null> {
    const [seller] = await db
      .select({ status: schema.paypalSellers.status, merchantId: schema.paypalSellers.merchantId })
      .from(schema.paypalSellers)
      .where(eq(schema.paypalSellers.tenantId, tenantId));
    return seller?.status === 'connected' && seller.merchantId ? seller.merchantId : null;
  }

  async function resolve(tenantId: string): Promise<PayPalAccount | null> {
    const own = await ownApp(tenantId);
    if (own && !own.enabled) return null;
    if (own?.app) return own.app;
    if (!deps.platform) return null;
    const merchantId = await connectedSeller(tenantId);
    return merchantId ? { client: deps.platform, account: `merchant:${merchantId}`, merchantId } : null;
  }

  return {
    platform: deps.platform,
    partnerId: deps.partnerId,
    environment: environmentOf(deps.platformBaseUrl),
    async forStore(tenantId) {
      const hit = current.get(tenantId);
      if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
      const value = await resolve(tenantId);
      current.set(tenantId, { value, at: Date.now() });
      return value;
    },
    async forOrder(tenantId, paymentAccount) {
      if (paymentAccount === null) {
        // Paid into the platform's own account (before stores had their own): refunded from there.
        return deps.platform ? { client: deps.platform, account: null } : null;
      }
      if (paymentAccount.startsWith('merchant:')) {
        const merchantId = paymentAccount.slice('merchant:'.length);
        // The platform may still act for a seller who disconnected here, as long as PayPal's consent
        // stands; PayPal refuses (403) otherwise, which the refund reports.
        return deps.platform ? { client: deps.platform, account: paymentAccount, merchantId } : null;
      }
      if (paymentAccount.startsWith('app:')) {
        const own = await ownApp(tenantId);
        return own?.app?.account === paymentAccount ? own.app : null;
      }
      return null;
    },
    forget(tenantId) {
      current.delete(tenantId);
    },
  };
}
