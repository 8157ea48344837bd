import { PAYPAL_CONFIG_ID } from '@app/contracts';
import { schema } from '@app/db';
import { asc, eq } from 'drizzle-orm';
import { systemContext } from '../lib/context';
import { ownSecretContext, transitionSeller } from '../modules/payments/index';
import type { TestApp } from './harness';
import type { PayPalStandIn, SellerOptions } from './paypal-stand-in';

/** A system context for a store, as a job's: enough for the seller state machine's history. */
async function storeContext(t: TestApp, tenantId: string) {
  const [store] = await t.database.db
    .select({ productStoreId: schema.productStores.productStoreId, host: schema.productStores.canonicalHost })
    .from(schema.productStores)
    .where(eq(schema.productStores.tenantId, tenantId))
    .orderBy(asc(schema.productStores.productStoreId))
    .limit(1);
  if (!store) throw new Error(`no store for ${tenantId}`);
  return systemContext(
    {
      tenantId,
      productStoreId: store.productStoreId,
      hostName: store.host,
      viaDevAlias: false,
      origin: `http://${store.host}`,
    },
    'test:paypal-seller',
  );
}

/**
 * Connects a store's PayPal seller account as onboarding would end (decision 049): the seller signs
 * up at the stand-in with the store as tracking id, and the store moves to `connected` through the
 * state machine; `payments.changed` then makes checkout see it. Returns the seller's merchant id.
 */
export async function connectStoreToPayPal(
  t: TestApp,
  standIn: PayPalStandIn,
  tenantId: string,
  opts: SellerOptions = {},
): Promise<string> {
  const merchantId = standIn.addSeller({ trackingId: tenantId, ...opts });
  const ctx = await storeContext(t, tenantId);
  await t.database.db.transaction(async (tx) => {
    const moved = await transitionSeller(tx, ctx, 'connected', {
      merchantId,
      paymentsReceivable: opts.paymentsReceivable ?? true,
      primaryEmailConfirmed: opts.emailConfirmed ?? true,
      checkedAt: new Date(),
      environment: 'sandbox',
      note: 'connected by a test',
    });
    if (!moved.ok) throw new Error(moved.message);
  });
  t.services.events.emit('payments.changed', { tenantId });
  return merchantId;
}

/** The store back to no PayPal at all: no seller row, no PP_CONFIG (between tests). */
export async function disconnectStoreFromPayPal(t: TestApp, tenantId: string) {
  const db = t.database.db;
  await db.delete(schema.paypalSellerHistory).where(eq(schema.paypalSellerHistory.tenantId, tenantId));
  await db.delete(schema.paypalSellers).where(eq(schema.paypalSellers.tenantId, tenantId));
  await db.delete(schema.paymentConfigs).where(eq(schema.paymentConfigs.tenantId, tenantId));
  t.services.events.emit('payments.changed', { tenantId });
}

/**
 * Gives a store its own PayPal app (PP_CONFIG with a client id and a sealed secret), registered at
 * the stand-in as an app of its own merchant. Returns that merchant's id.
 */
export async function giveStoreOwnPayPalApp(
  t: TestApp,
  standIn: PayPalStandIn,
  tenantId: string,
  credentials: { clientId: string; clientSecret: string },
): Promise<string> {
  const { merchantId } = standIn.addApp(credentials);
  const row = {
    tenantId,
    configId: PAYPAL_CONFIG_ID,
    enabled: true,
    environment: 'sandbox',
    ownClientId: credentials.clientId,
    ownClientSecretSealed: t.services.secrets.seal(credentials.clientSecret, ownSecretContext(tenantId)),
  };
  const { tenantId: _t, configId: _c, ...set } = row;
  await t.database.db
    .insert(schema.paymentConfigs)
    .values(row)
    .onConflictDoUpdate({ target: [schema.paymentConfigs.tenantId, schema.paymentConfigs.configId], set });
  t.services.events.emit('payments.changed', { tenantId });
  return merchantId;
}
