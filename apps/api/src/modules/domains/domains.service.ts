import { randomBytes } from 'node:crypto';
import { domainToUnicode } from 'node:url';
import type { DomainInput, DomainsOverview, StoreDomain, StoreState } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { ok, type Refusal, Refused, type Result, refuse, refuseField, returnRefusals } from '../../lib/result';
import { StoreValues } from '../../lib/store-generations';
import { hostHolder, normaliseHost, storeHostsOf, unbindDomainHost, writeCanonicalHost } from '../tenant/index';
import { isApex, recordsFor } from './dns-records';
import { createDomainChecks, type DomainChecksDeps, GRACE_MS, VERIFY_JOB } from './domain-checks';
import { type DomainRow, here, hostsChanged, rowOf, sd } from './domain-rows';

/** A store may add this many domains; Shopify's limit is higher, but a handful is what stores use. */
export const MAX_DOMAINS = 20;

export type DomainRefusal = Refusal<'CONFLICT' | 'NOT_FOUND' | 'VALIDATION_FAILED' | 'BAD_REQUEST'>;

/** What the checks need (domain-checks.ts), and what the owner's writes and Caddy's question need besides. */
export interface DomainsDeps extends DomainChecksDeps {
  /** The platform's own host and domain: never a store's domain (its subdomains get the wildcard). */
  platformHost: string;
  platformDomain: string;
  /** The store's lifecycle state (decision 099): only an active store's domain gets a certificate. */
  stateOf: (tenantId: string) => Promise<StoreState>;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A store's own domains (decision 121): added by the owner, checked in DNS by a job (the TXT token
 * proves the owner holds the domain, the CNAME or A record that it points here), bound to the store
 * once both are right, and one of the store's hosts chosen as primary (its canonical host).
 * The check and the jobs that run it are in domain-checks.ts; the records the owner creates in
 * dns-records.ts.
 */
export function createDomainsService(db: Db, deps: DomainsDeps) {
  const platformHost = normaliseHost(deps.platformHost);
  const platformDomain = normaliseHost(deps.platformDomain);

  const view = (r: DomainRow): StoreDomain => ({
    domain: r.domain,
    displayName: domainToUnicode(r.domain) || r.domain,
    state: r.state,
    reason: r.reason,
    isPrimary: r.isPrimary,
    records: recordsFor(r.domain, r.token, deps.targets, r.aliasOf),
    checkedAt: iso(r.checkedAt),
    createdAt: r.createdAt.toISOString(),
    lapsedAt: iso(r.lapsedAt),
    disconnectsAt: r.lapsedAt ? new Date(r.lapsedAt.getTime() + GRACE_MS).toISOString() : null,
    aliasOf: r.aliasOf,
    nextCheckAt: iso(r.nextCheckAt),
  });

  /**
   * Per store: the host every other host answers 301 to, and the hosts that do. Only a store with
   * a domain of its own redirects at all; read on every page request, so kept like the host bindings
   * (30 s, dropped on `settings.changed`).
   */
  const redirects = new StoreValues<Map<string, { primary: string; domains: Set<string> }>>(30_000, 10_000);

  async function readRedirects(tenantId: string) {
    const rows = await db
      .select({ store: sd.productStoreId, domain: sd.domain, isPrimary: sd.isPrimary })
      .from(sd)
      .where(and(eq(sd.tenantId, tenantId), eq(sd.state, 'active')));
    const stores = new Map<string, { primary: string; domains: Set<string> }>();
    if (rows.length === 0) return stores;
    const canon = await db
      .select({ store: schema.productStores.productStoreId, host: schema.productStores.canonicalHost })
      .from(schema.productStores)
      .where(eq(schema.productStores.tenantId, tenantId));
    for (const r of rows) {
      const primary = canon.find((c) => c.store === r.store)?.host;
      if (!primary) continue;
      const entry = stores.get(r.store) ?? { primary, domains: new Set<string>() };
      entry.domains.add(r.domain);
      stores.set(r.store, entry);
    }
    return stores;
  }

  /** A domain the owner may not add: the platform's host or one of its subdomains, or a local name. */
  function reserved(domain: string): string | null {
    if (domain === platformHost || domain === platformDomain || domain.endsWith(`.${platformDomain}`))
      return "this is the platform's own domain: your store has its subdomain already.";
    if (
      domain === 'localhost' ||
      domain.endsWith('.localhost') ||
      /\.(local|internal|test|invalid|example)$/.test(domain)
    )
      return 'this name is not reachable on the internet.';
    return null;
  }

  const changed = (tx: Tx, ctx: TenantContext) => hostsChanged(deps.events, tx, ctx);

  const notFound = (domain: string): DomainRefusal =>
    refuse(404, 'NOT_FOUND', `${domain.slice(0, 253)} is not one of this store's domains.`);

  // Registers the check's jobs (verify at once, the backoff, the daily re-check) as the service is made.
  const { verify } = createDomainChecks(db, deps);

  return {
    /** The store's domains, newest last, with its hosts and its primary host. */
    async overview(ctx: RequestContext): Promise<DomainsOverview> {
      requireAccess(ctx, 'settings');
      const rows = await db.select().from(sd).where(here(ctx)).orderBy(asc(sd.createdAt), asc(sd.domain));
      const { hosts, canonical } = await storeHostsOf(db as unknown as Tx, ctx);
      return { domains: rows.map(view), hosts, primaryHost: canonical ?? ctx.hostName };
    },

    /**
     * Adds a domain (pending) and asks the job to check it at once. An apex (example.com) brings its
     * `www.` host along as Shopify does (decision 125): proven by the apex's TXT record, pointed by a
     * CNAME, redirecting to the primary domain like every other host; left out when the store has it
     * already, it serves a store, another store proved it, or the store is at its limit.
     */
    async add(
      ctx: RequestContext,
      input: DomainInput,
    ): Promise<Result<{ domain: StoreDomain; alias: StoreDomain | null }, DomainRefusal>> {
      requireAccess(ctx, 'settings');
      const { domain } = input;
      const why = reserved(domain);
      if (why) return refuseField(422, 'VALIDATION_FAILED', 'domain', why);
      type Added = Result<{ domain: StoreDomain; alias: StoreDomain | null }, DomainRefusal>;
      return returnRefusals<Added, DomainRefusal>(() =>
        deps.events.transaction(async (tx): Promise<Added> => {
          // One store's adds in a row: the count and the duplicate check see each other.
          await tx
            .select({ id: schema.productStores.productStoreId })
            .from(schema.productStores)
            .where(
              and(
                eq(schema.productStores.tenantId, ctx.tenantId),
                eq(schema.productStores.productStoreId, ctx.productStoreId),
              ),
            )
            .for('update');
          const mine = await tx.select({ domain: sd.domain }).from(sd).where(here(ctx));
          if (mine.some((r) => r.domain === domain))
            throw new Refused(refuseField(409, 'CONFLICT', 'domain', 'this domain is added already.'));
          if (mine.length >= MAX_DOMAINS)
            throw new Refused(
              refuseField(422, 'VALIDATION_FAILED', 'domain', `a store can have ${MAX_DOMAINS} domains.`),
            );
          const taken = async (name: string) => {
            if (await hostHolder(tx, name)) return 'this domain already serves a store.';
            const [proven] = await tx
              .select({ t: sd.tenantId })
              .from(sd)
              .where(and(eq(sd.domain, name), inArray(sd.state, ['verified', 'active'])));
            return proven ? 'another store has verified this domain.' : null;
          };
          const refused = await taken(domain);
          if (refused) throw new Refused(refuseField(409, 'CONFLICT', 'domain', refused));
          const token = randomBytes(16).toString('hex');
          const insert = async (name: string, aliasOf: string | null) => {
            const [row] = await tx
              .insert(sd)
              .values({ tenantId: ctx.tenantId, productStoreId: ctx.productStoreId, domain: name, token, aliasOf })
              .returning();
            if (!row) throw new Error('store_domains insert returned no row');
            await deps.audit.record(tx, ctx, {
              entity: 'domain',
              entityId: name,
              action: 'create',
              after: { state: 'pending', ...(aliasOf ? { aliasOf } : {}) },
            });
            await deps.jobs.enqueue(ctx, { type: VERIFY_JOB, payload: { domain: name }, key: name }, { tx });
            return view(row);
          };
          const added = await insert(domain, null);
          const www = `www.${domain}`;
          const withWww =
            isApex(domain) &&
            www.length <= 253 &&
            mine.length + 2 <= MAX_DOMAINS &&
            !mine.some((r) => r.domain === www) &&
            !reserved(www) &&
            !(await taken(www));
          return ok({ domain: added, alias: withWww ? await insert(www, domain) : null });
        }),
      ).finally(() => deps.jobs.committed());
    },

    /**
     * The re-check button: back to pending and checked again now. An active domain stays active
     * while it is checked (it keeps serving the store): the owner presses it after fixing a record
     * the daily check found gone (decision 125).
     */
    async recheck(ctx: RequestContext, domain: string): Promise<Result<StoreDomain, DomainRefusal>> {
      requireAccess(ctx, 'settings');
      const result = await deps.events.transaction(async (tx): Promise<Result<StoreDomain, DomainRefusal>> => {
        const row = await rowOf(tx, ctx, domain, true);
        if (!row) return notFound(domain);
        if (row.state === 'active') {
          await deps.jobs.enqueue(ctx, { type: VERIFY_JOB, payload: { domain }, key: domain }, { tx });
          return ok(view(row));
        }
        // The owner has just changed something: the backoff starts again from now.
        const [after] = await tx
          .update(sd)
          .set({ state: 'pending', reason: '', checksFrom: new Date(), nextCheckAt: null })
          .where(and(here(ctx), eq(sd.domain, domain)))
          .returning();
        await deps.jobs.enqueue(ctx, { type: VERIFY_JOB, payload: { domain }, key: domain }, { tx });
        return ok(view(after ?? row));
      });
      deps.jobs.committed();
      return result;
    },

    /** Removes a domain; an active one stops serving the store. The primary one cannot go. */
    async remove(ctx: RequestContext, domain: string): Promise<Result<{ domain: string }, DomainRefusal>> {
      requireAccess(ctx, 'settings');
      return deps.events.transaction(async (tx): Promise<Result<{ domain: string }, DomainRefusal>> => {
        const row = await rowOf(tx, ctx, domain, true);
        if (!row) return notFound(domain);
        // An apex goes with the www host added with it (its TXT record was that host's proof too).
        const aliases = await tx
          .select()
          .from(sd)
          .where(and(here(ctx), eq(sd.aliasOf, domain)))
          .for('update');
        const primary = [row, ...aliases].find((r) => r.isPrimary);
        if (primary)
          return refuse(409, 'CONFLICT', `${primary.domain} is the primary domain: make another host primary first.`);
        for (const gone of [row, ...aliases]) {
          await tx.delete(sd).where(and(here(ctx), eq(sd.domain, gone.domain)));
          if (gone.state === 'active') {
            await unbindDomainHost(tx, ctx, gone.domain);
            changed(tx, ctx);
          }
          await deps.audit.record(tx, ctx, {
            entity: 'domain',
            entityId: gone.domain,
            action: 'delete',
            before: { state: gone.state },
          });
        }
        return ok({ domain });
      });
    },

    /**
     * Makes one of the store's hosts (its platform subdomain or an active domain) the primary one:
     * canonical links, sitemaps, feeds, mail and payment return URLs use it, the others answer 301.
     */
    async setPrimary(
      ctx: RequestContext,
      host: string,
    ): Promise<Result<DomainsOverview['primaryHost'], DomainRefusal>> {
      requireAccess(ctx, 'settings');
      const made = await deps.events.transaction(async (tx): Promise<Result<string, DomainRefusal>> => {
        const before = await writeCanonicalHost(tx, ctx, host);
        if (before === null)
          return refuseField(422, 'VALIDATION_FAILED', 'host', 'choose one of the hosts that serve your store.');
        await tx
          .update(sd)
          .set({ isPrimary: false })
          .where(and(here(ctx), eq(sd.isPrimary, true), ne(sd.domain, host)));
        await tx
          .update(sd)
          .set({ isPrimary: true })
          .where(and(here(ctx), eq(sd.domain, host)));
        if (before !== host) {
          changed(tx, ctx);
          await deps.audit.record(tx, ctx, {
            entity: 'store.host',
            entityId: ctx.productStoreId,
            action: 'update',
            before: { primaryHost: before },
            after: { primaryHost: host },
          });
        }
        return ok(host);
      });
      if (made.ok) await deps.copyPrimaryHost?.(ctx, made.value);
      return made;
    },

    /** The check, run now (the job's work); tests and the job call it. */
    verify,

    /**
     * Caddy's on-demand TLS question (decision 121): yes only for an active domain of an active
     * store. Asked before every certificate is issued, so nobody can make the proxy request
     * certificates for names that are not ours.
     */
    async allowsCertificate(raw: string): Promise<boolean> {
      const domain = normaliseHost(raw);
      if (!domain) return false;
      const [row] = await db
        .select({ tenantId: sd.tenantId })
        .from(sd)
        .where(and(eq(sd.domain, domain), eq(sd.state, 'active')))
        .limit(1);
      if (!row) return false;
      return (await deps.stateOf(row.tenantId)) === 'active';
    },

    /** Where a request to `host` of the store must go instead (its primary host), or null. */
    async redirectFor(ctx: TenantContext, host: string): Promise<string | null> {
      const stores = await redirects.get(ctx.tenantId, () => readRedirects(ctx.tenantId));
      const entry = stores.get(ctx.productStoreId);
      if (!entry || entry.primary === host) return null;
      // The primary is a domain of the store's own: every other host goes there; otherwise only
      // the store's other domains go to its primary (the platform's subdomain).
      return entry.domains.has(entry.primary) || entry.domains.has(host) ? entry.primary : null;
    },

    /** The hosts changed (`settings.changed`), or every tenant's (`events.missed`). */
    forget(tenantId?: string) {
      if (tenantId) redirects.drop(tenantId);
      else redirects.clear();
    },
  };
}

export type DomainsService = ReturnType<typeof createDomainsService>;
