import { createHash } from 'node:crypto';
import type { PlatformActor, SignupStarter, SignupTemplate } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { isUniqueViolation } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../lib/result';
import { openOwnerAccount } from '../auth/index';
import { openStoreCatalog } from '../catalog/index';
import { addStartingShippingMethods } from '../orders/index';
import { addStarterProducts } from '../products/index';
import type { StoreLifecycleService } from '../store-lifecycle/index';
import { openStoreSettings } from '../store-settings/index';
import { addStartingTaxes } from '../tax/index';
import { bindStoreHost, type NewStore, openStoreRow, openTenant } from '../tenant/index';
import { DEMO_CATALOG } from './demo-catalog';

/** The steps of provisioning, in order: a test makes one of them fail to see that nothing stays. */
export const PROVISION_STEPS = [
  'tenant',
  'store',
  'host',
  'settings',
  'catalog',
  'shipping',
  'taxes',
  'owner',
  'lifecycle',
  'recorded',
] as const;
export type ProvisionStep = (typeof PROVISION_STEPS)[number];

export interface ProvisionInput {
  storeName: string;
  /** Already checked against the subdomain rules (signup.ts). */
  subdomain: string;
  owner: {
    email: string;
    /** The argon2 hash sign-up took from the form; null for a store the platform opens for a merchant
     *  (the owner then sets a password through a reset link). */
    passwordHash: string | null;
    firstName?: string;
    lastName?: string;
  };
  template: SignupTemplate;
  starter: SignupStarter;
  /** Who opens the store, for the lifecycle's history. */
  actor: PlatformActor;
  reason: string;
  /**
   * The same key opens the same store once: a retry (a second click, a job run again) finds the
   * store the first one made and answers it. The sign-up's id, or the operator's request's.
   */
  idempotencyKey: string;
  /** Writes of the caller's own in the same transaction (sign-up marks its request provisioned). */
  alsoInTx?: (tx: Tx, store: ProvisionedStore) => Promise<void>;
}

export interface ProvisionedStore {
  tenantId: string;
  productStoreId: string;
  host: string;
  ownerUserId: string;
  /** false when the key had already opened this store (a retry). */
  created: boolean;
}

export type ProvisionRefusal = Refusal<'CONFLICT' | 'INVALID_TRANSITION' | 'NOT_FOUND'>;

export interface ProvisionDeps {
  events: EventBus;
  storeLifecycle: StoreLifecycleService;
  /** A new store's host is `{subdomain}.{platformDomain}`. */
  platformDomain: string;
  /** Tests: called after each step inside the transaction; a throw there rolls everything back. */
  afterStep?: (step: ProvisionStep) => void | Promise<void>;
}

/** Ids made from the key: a retry computes the same ones and finds what the first run made. */
export function provisionIds(idempotencyKey: string) {
  const h = createHash('sha256').update(`provision:${idempotencyKey}`).digest('hex').slice(0, 16);
  return { tenantId: `st-${h}`, productStoreId: `PS-${h.toUpperCase()}`, ownerUserId: `U-OWNER-${h.toUpperCase()}` };
}

/**
 * Opens a store (decision 103): the tenant, its product store, its host, settings, an empty or demo
 * catalog, shipping methods, the owner's account and the lifecycle's first states (provisioning,
 * then active), all in ONE transaction: a failure at any step leaves nothing behind, and the host
 * answers only once everything it serves exists. Idempotent by `idempotencyKey`.
 */
export function createProvisioner(db: Db, deps: ProvisionDeps) {
  const step = async (name: ProvisionStep) => {
    await deps.afterStep?.(name);
  };

  async function existing(tenantId: string): Promise<ProvisionedStore | null> {
    const [row] = await db
      .select({ productStoreId: schema.productStores.productStoreId, host: schema.productStores.canonicalHost })
      .from(schema.productStores)
      .where(eq(schema.productStores.tenantId, tenantId))
      .limit(1);
    if (!row) return null;
    const [owner] = await db
      .select({ userId: schema.users.userId })
      .from(schema.users)
      .where(and(eq(schema.users.tenantId, tenantId), eq(schema.users.role, 'admin')))
      .limit(1);
    return {
      tenantId,
      productStoreId: row.productStoreId,
      host: row.host,
      ownerUserId: owner?.userId ?? '',
      created: false,
    };
  }

  async function provisionIn(tx: Tx, input: ProvisionInput): Promise<ProvisionedStore> {
    const ids = provisionIds(input.idempotencyKey);
    const host = `${input.subdomain}.${deps.platformDomain}`;
    const t = ids.tenantId;
    const now = new Date();
    // The host first, under the transaction: a concurrent sign-up for the same subdomain waits here
    // and then finds it taken.
    const [taken] = await tx
      .select({ tenantId: schema.storeHosts.tenantId })
      .from(schema.storeHosts)
      .where(eq(schema.storeHosts.hostName, host))
      .limit(1);
    if (taken) throw new Refused(refuse(409, 'CONFLICT', 'This address is taken. Please choose another.'));

    const store: NewStore = { tenantId: t, productStoreId: ids.productStoreId, name: input.storeName, host };
    await openTenant(tx, store);
    await step('tenant');
    await openStoreRow(tx, store);
    await step('store');
    await bindStoreHost(tx, store);
    await step('host');
    await openStoreSettings(tx, { ...store, template: input.template, contactEmail: input.owner.email }, now);
    await step('settings');
    // The catalog and its products are written by their domains (decision 110).
    const demo = input.starter === 'demo';
    await openStoreCatalog(
      tx,
      { tenantId: t, productStoreId: ids.productStoreId, catalogId: `${ids.productStoreId}-SHOP`, catalogName: 'Shop' },
      demo ? DEMO_CATALOG.categories : [],
    );
    if (demo) {
      const products = DEMO_CATALOG.products.map((p) => ({
        ...p,
        categoryName: DEMO_CATALOG.categories.find((c) => c.id === p.category)?.name ?? '',
      }));
      await addStarterProducts(tx, t, products, { at: now, actorId: 'signup', note: 'Opening stock (demo catalog)' });
    }
    await step('catalog');
    await addStartingShippingMethods(tx, t);
    await step('shipping');
    await addStartingTaxes(tx, t);
    await step('taxes');
    await openOwnerAccount(tx, { tenantId: t, userId: ids.ownerUserId, ...input.owner }, now);
    await tx.insert(schema.storeSetup).values({ tenantId: t, openedAt: now });
    await step('owner');
    await deps.storeLifecycle.begin(tx, input.actor, t, input.reason, 'provisioning');
    const active = await deps.storeLifecycle.transition(input.actor, t, 'active', 'The store is set up.', { tx });
    if (!active.ok) throw new Refused(active);
    await step('lifecycle');
    const opened: ProvisionedStore = {
      tenantId: t,
      productStoreId: ids.productStoreId,
      host,
      ownerUserId: ids.ownerUserId,
      created: true,
    };
    await input.alsoInTx?.(tx, opened);
    await step('recorded');
    // Every process drops its host bindings: the new host (which the development alias may have
    // answered for a moment ago) is the new store's from now on.
    deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: t, what: 'hosts' });
    return opened;
  }

  return {
    /** Opens the store once per key; a retry answers the store the first call opened. */
    async provisionStore(input: ProvisionInput): Promise<Result<ProvisionedStore, ProvisionRefusal>> {
      const { tenantId } = provisionIds(input.idempotencyKey);
      const before = await existing(tenantId);
      if (before) return ok(before);
      const result = await returnRefusals<Result<ProvisionedStore, ProvisionRefusal>, ProvisionRefusal>(async () =>
        ok(await deps.events.transaction((tx) => provisionIn(tx, input))),
      ).catch(async (err: unknown) => {
        // Two runs of one key at once: the second's insert of the same tenant fails; the first's store is the answer.
        const made = await existing(tenantId);
        if (made) return ok(made);
        // Two sign-ups for one subdomain at once: the host's key lets one through; the other is told it is taken.
        if (isUniqueViolation(err)) return refuse(409, 'CONFLICT', 'This address is taken. Please choose another.');
        throw err;
      });
      return result;
    },
  };
}

export type Provisioner = ReturnType<typeof createProvisioner>;
