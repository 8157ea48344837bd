import type { AccessMode, Tenant, TenantLookup } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { asc, eq } from 'drizzle-orm';
import { LruValues, type MemoryBudget } from '../../lib/memory-budget';

export const DEV_TENANT_ALIAS = 'development';

/**
 * Outside registered hosts, a host containing these names is a development host.
 * In production anyone can name a domain so (shop.development.attacker.example): there only
 * localhost and *.localhost, which never leave the machine, are (decision 020).
 */
export function isDevHost(hostName: string, production = false): boolean {
  if (production) return hostName === 'localhost' || hostName.endsWith('.localhost');
  return hostName.includes('localhost') || hostName.includes('development');
}

/** Lower-case, no port, no trailing dot: the form host names are stored in. */
export function normaliseHost(raw: string): string {
  let h = raw.trim().toLowerCase();
  if (h.startsWith('[')) h = h.slice(0, h.indexOf(']') + 1);
  else h = h.replace(/:\d+$/, '');
  return h.replace(/\.$/, '');
}

export interface HostBinding {
  tenantId: string;
  productStoreId: string;
  viaDevAlias: boolean;
}

// Host bindings change rarely (a new domain); a short TTL bounds staleness across processes.
const HOST_TTL_MS = 30_000;
/**
 * Hosts (and stores) kept at most, least recently used first out: a store is found by its host on
 * every request, so at thousands of stores each keeps its binding while used, and hostile Host
 * headers push out only the least used, never every binding at once (decision 124).
 */
const MAX_KEPT = 50_000;

export function createTenantService(
  db: Db,
  opts: {
    devTenantId?: string;
    production?: boolean;
    platformHost?: string;
    memory?: MemoryBudget;
    /**
     * Where the platform's rows of every store are (`tenants`, `store_hosts`): the home database,
     * whichever database holds the store (decision 123). By default `db`.
     */
    platformDb?: Db;
  },
) {
  const home = opts.platformDb ?? db;
  const production = opts.production ?? false;
  // The platform's own host (operator console, sign-up) serves no store, whatever is registered
  // or aliased: a store route there answers 404 TENANT_NOT_FOUND.
  const platformHost = normaliseHost(opts.platformHost ?? 'platform.localhost');
  // In production the alias exists only when configured: no store is served to a host by default.
  const devAlias = (hostName: string) => (!production || Boolean(opts.devTenantId)) && isDevHost(hostName, production);
  const kept = { ttlMs: HOST_TTL_MS, maxEntries: MAX_KEPT, memory: opts.memory };
  const hostCache = new LruValues<HostBinding | null>('host bindings', kept);
  const storesCache = new LruValues<Set<string>>('store ids', kept);
  const visibilityCache = new LruValues<AccessMode>('access modes', kept);

  async function registeredHost(hostName: string): Promise<HostBinding | null> {
    const rows = await home
      .select({ tenantId: schema.storeHosts.tenantId, productStoreId: schema.storeHosts.productStoreId })
      .from(schema.storeHosts)
      .where(eq(schema.storeHosts.hostName, hostName))
      .limit(1);
    const row = rows[0];
    return row ? { ...row, viaDevAlias: false } : null;
  }

  async function devBinding(): Promise<HostBinding | null> {
    const q = db
      .select({ tenantId: schema.productStores.tenantId, productStoreId: schema.productStores.productStoreId })
      .from(schema.productStores)
      .orderBy(asc(schema.productStores.productStoreId))
      .limit(1);
    const rows = opts.devTenantId ? await q.where(eq(schema.productStores.tenantId, opts.devTenantId)) : await q;
    const row = rows[0];
    return row ? { ...row, viaDevAlias: true } : null;
  }

  async function accessMode(tenantId: string): Promise<AccessMode> {
    const cached = visibilityCache.get(tenantId);
    if (cached !== undefined) return cached;
    const [row] = await home
      .select({ accessMode: schema.tenants.accessMode })
      .from(schema.tenants)
      .where(eq(schema.tenants.tenantId, tenantId))
      .limit(1);
    // An unknown tenant has nothing to show; the strictest mode shows nothing by mistake.
    const value = row?.accessMode ?? 'invitation_only';
    visibilityCache.set(tenantId, value);
    return value;
  }

  return {
    /** Registered hosts win; then the development alias; otherwise no tenant. */
    async resolveHost(rawHost: string): Promise<HostBinding | null> {
      const hostName = normaliseHost(rawHost);
      const cached = hostCache.get(hostName);
      if (cached !== undefined) return cached;
      if (hostName === platformHost) return null;
      let value = await registeredHost(hostName);
      if (!value && devAlias(hostName)) value = await devBinding();
      hostCache.set(hostName, value);
      return value;
    },

    /** Whether this (normalised) host may use the development alias here. */
    isDevHost: devAlias,

    /** The product stores a tenant owns, to refuse another tenant's productStoreId. */
    async storeIds(tenantId: string): Promise<Set<string>> {
      const cached = storesCache.get(tenantId);
      if (cached !== undefined) return cached;
      const rows = await db
        .select({ id: schema.productStores.productStoreId })
        .from(schema.productStores)
        .where(eq(schema.productStores.tenantId, tenantId));
      const value = new Set(rows.map((r) => r.id));
      storesCache.set(tenantId, value);
      return value;
    },

    /**
     * Who may see the tenant's stores (decision 105): every request to a store asks, so it is cached
     * like the host bindings and dropped with them on `settings.changed`.
     */
    accessMode,

    /** Whether anyone may see the tenant's stores: the clients' `isWs2Public` (decisions 027, 105). */
    async isPublic(tenantId: string): Promise<boolean> {
      return (await accessMode(tenantId)) === 'public';
    },

    async lookupByHostName(rawHost: string): Promise<TenantLookup> {
      const binding = await this.resolveHost(rawHost);
      if (!binding) return { isWs2Public: true, accessMode: 'public', erpUrl: null };
      const rows = await home
        .select({ accessMode: schema.tenants.accessMode, erpUrl: schema.tenants.erpUrl })
        .from(schema.tenants)
        .where(eq(schema.tenants.tenantId, binding.tenantId))
        .limit(1);
      const t = rows[0];
      if (!t) return { isWs2Public: true, accessMode: 'public', erpUrl: null };
      return {
        tenantId: binding.tenantId,
        isWs2Public: t.accessMode === 'public',
        accessMode: t.accessMode,
        erpUrl: t.erpUrl,
      };
    },

    async getTenant(tenantId: string): Promise<Tenant | null> {
      const [t] = await home.select().from(schema.tenants).where(eq(schema.tenants.tenantId, tenantId)).limit(1);
      if (!t) return null;
      const stores = await db
        .select()
        .from(schema.productStores)
        .where(eq(schema.productStores.tenantId, tenantId))
        .orderBy(asc(schema.productStores.productStoreId));
      const hosts = await home
        .select()
        .from(schema.storeHosts)
        .where(eq(schema.storeHosts.tenantId, tenantId))
        .orderBy(asc(schema.storeHosts.hostName));
      return {
        tenantId: t.tenantId,
        name: t.name,
        isWs2Public: t.accessMode === 'public',
        accessMode: t.accessMode,
        erpUrl: t.erpUrl,
        productStores: stores.map((s) => ({
          tenantId: s.tenantId,
          productStoreId: s.productStoreId,
          storeName: s.storeName,
          hostName: s.canonicalHost,
          hostNames: hosts.filter((h) => h.productStoreId === s.productStoreId).map((h) => h.hostName),
        })),
      };
    },

    /** Drop cached bindings after a change to hosts or stores. */
    invalidate() {
      hostCache.clear();
      storesCache.clear();
      visibilityCache.clear();
    },
  };
}

export type TenantService = ReturnType<typeof createTenantService>;
