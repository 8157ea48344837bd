import { randomBytes } from 'node:crypto';
import type { DnsRecord, DomainInput, DomainsOverview, StoreDomain, StoreState } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { isUniqueViolation } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, Refused, type Result, refuse, refuseField, returnRefusals } from '../../lib/result';
import { StoreValues } from '../../lib/store-generations';
import type { AuditService } from '../audit/index';
import type { JobRunner } from '../jobs/index';
import {
  bindDomainHost,
  hostHolder,
  normaliseHost,
  storeHostsOf,
  unbindDomainHost,
  writeCanonicalHost,
} from '../tenant/index';
import { type DnsChecker, type DnsTargets, txtName, txtValue } from './dns-check';

const sd = schema.storeDomains;
type DomainRow = typeof sd.$inferSelect;

export const VERIFY_JOB = 'domains.verify';
/** A store may add this many domains; Shopify's limit is higher, but a handful is what stores use. */
export const MAX_DOMAINS = 20;

export type DomainRefusal = Refusal<'CONFLICT' | 'NOT_FOUND' | 'VALIDATION_FAILED' | 'BAD_REQUEST'>;

export interface DomainsDeps {
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  jobs: Pick<JobRunner, 'enqueue' | 'register' | 'committed'>;
  check: DnsChecker;
  targets: DnsTargets;
  /** The platform's own host and domain: never a store's domain (its subdomains get the wildcard). */
  platformHost: string;
  platformDomain: string;
  /** The store's lifecycle state (decision 099): only an active store's domain gets a certificate. */
  stateOf: (tenantId: string) => Promise<StoreState>;
}

const here = (ctx: TenantContext) => and(eq(sd.tenantId, ctx.tenantId), eq(sd.productStoreId, ctx.productStoreId));

/** An apex (example.com) cannot have a CNAME next to its other records: it points by A record. */
const isApex = (domain: string) => domain.split('.').length === 2;

/** The records the owner creates: the TXT token, then the CNAME (a subdomain) or the A record (an apex). */
export function recordsFor(domain: string, token: string, targets: DnsTargets): DnsRecord[] {
  return [
    {
      type: 'TXT',
      name: txtName(domain),
      value: txtValue(token),
      purpose: 'Proves the domain is yours. Keep it: it is checked again.',
    },
    isApex(domain)
      ? { type: 'A', name: domain, value: targets.a, purpose: 'Points the domain at your store.' }
      : { type: 'CNAME', name: domain, value: targets.cname, purpose: 'Points the domain at your store.' },
  ];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A store's own domains (decision 121): added by the owner, checked in DNS by a job (the TXT token
 * proves the owner holds the domain, the CNAME or A record that it points here), bound to the store
 * once both are right, and one of the store's hosts chosen as primary (its canonical host).
 */
export function createDomainsService(db: Db, deps: DomainsDeps) {
  const platformHost = normaliseHost(deps.platformHost);
  const platformDomain = normaliseHost(deps.platformDomain);

  const view = (r: DomainRow): StoreDomain => ({
    domain: r.domain,
    state: r.state,
    reason: r.reason,
    isPrimary: r.isPrimary,
    records: recordsFor(r.domain, r.token, deps.targets),
    checkedAt: iso(r.checkedAt),
    createdAt: r.createdAt.toISOString(),
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

  async function rowOf(tx: Tx | Db, ctx: TenantContext, domain: string, lock = false) {
    const q = tx
      .select()
      .from(sd)
      .where(and(here(ctx), eq(sd.domain, domain)));
    const [row] = lock ? await q.for('update') : await q;
    return row ?? null;
  }

  const changed = (tx: Tx, ctx: TenantContext) =>
    deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'hosts' });

  const notFound = (domain: string): DomainRefusal =>
    refuse(404, 'NOT_FOUND', `${domain.slice(0, 253)} is not one of this store's domains.`);

  /**
   * The check itself (the job's work; safe to run twice): asks DNS, then settles the row under its
   * lock. The token missing: failed. The token there: verified, and active (bound to the store) once
   * the domain points here too. Another store that proved the domain first wins (the unique index).
   */
  async function verify(ctx: TenantContext, domain: string): Promise<DomainRow | null> {
    const before = await rowOf(db, ctx, domain);
    if (!before || before.state === 'active') return before;
    const finding = await deps.check(domain, before.token, deps.targets);
    const settle = (state: DomainRow['state'], reason: string) =>
      db
        .update(sd)
        .set({ state, reason, checkedAt: new Date() })
        .where(and(here(ctx), eq(sd.domain, domain), ne(sd.state, 'active')))
        .returning();
    if (!finding.ok) {
      const [row] = await settle('failed', `DNS did not answer (${finding.error}). Check again in a few minutes.`);
      return row ?? null;
    }
    if (!finding.tokenFound) {
      const [row] = await settle(
        'failed',
        `The TXT record ${txtName(domain)} with the value ${txtValue(before.token)} was not found. DNS changes can take up to 48 hours to be seen.`,
      );
      return row ?? null;
    }
    try {
      return await deps.events.transaction(async (tx) => {
        const row = await rowOf(tx, ctx, domain, true);
        if (!row || row.state === 'active') return row;
        const holder = finding.pointsHere ? await hostHolder(tx, domain) : null;
        if (holder && holder.tenantId !== ctx.tenantId) {
          const [r] = await tx
            .update(sd)
            .set({ state: 'failed', reason: 'This domain already serves another store.', checkedAt: new Date() })
            .where(and(here(ctx), eq(sd.domain, domain)))
            .returning();
          return r ?? null;
        }
        if (finding.pointsHere) {
          await bindDomainHost(tx, ctx, domain);
          changed(tx, ctx);
        }
        const target = isApex(domain) ? `an A record to ${deps.targets.a}` : `a CNAME record to ${deps.targets.cname}`;
        const [r] = await tx
          .update(sd)
          .set({
            state: finding.pointsHere ? 'active' : 'verified',
            reason: finding.pointsHere
              ? ''
              : `The domain is yours, but it does not point at your store yet (DNS shows ${finding.seen}): create ${target}.`,
            checkedAt: new Date(),
          })
          .where(and(here(ctx), eq(sd.domain, domain)))
          .returning();
        return r ?? null;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const [row] = await settle('failed', 'Another store has verified this domain.');
      return row ?? null;
    }
  }

  deps.jobs.register<{ domain: string }>(VERIFY_JOB, async (job) => {
    await verify(job.ctx, job.payload.domain);
  });

  return {
    /** The store's domains, newest last, with its hosts and its primary host. */
    async overview(ctx: RequestContext): Promise<DomainsOverview> {
      requireAccess(ctx, 'settings');
      const rows = await db.select().from(sd).where(here(ctx)).orderBy(asc(sd.createdAt), asc(sd.domain));
      const { hosts, canonical } = await storeHostsOf(db as unknown as Tx, ctx);
      return { domains: rows.map(view), hosts, primaryHost: canonical ?? ctx.hostName };
    },

    /** Adds a domain (pending) and asks the job to check it at once. */
    async add(ctx: RequestContext, input: DomainInput): Promise<Result<StoreDomain, DomainRefusal>> {
      requireAccess(ctx, 'settings');
      const { domain } = input;
      const why = reserved(domain);
      if (why) return refuseField(422, 'VALIDATION_FAILED', 'domain', why);
      return returnRefusals<Result<StoreDomain, DomainRefusal>, DomainRefusal>(() =>
        deps.events.transaction(async (tx): Promise<Result<StoreDomain, DomainRefusal>> => {
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
          const holder = await hostHolder(tx, domain);
          if (holder) throw new Refused(refuseField(409, 'CONFLICT', 'domain', 'this domain already serves a store.'));
          const [proven] = await tx
            .select({ t: sd.tenantId })
            .from(sd)
            .where(and(eq(sd.domain, domain), inArray(sd.state, ['verified', 'active'])));
          if (proven)
            throw new Refused(refuseField(409, 'CONFLICT', 'domain', 'another store has verified this domain.'));
          const [row] = await tx
            .insert(sd)
            .values({
              tenantId: ctx.tenantId,
              productStoreId: ctx.productStoreId,
              domain,
              token: randomBytes(16).toString('hex'),
            })
            .returning();
          if (!row) throw new Error('store_domains insert returned no row');
          await deps.audit.record(tx, ctx, {
            entity: 'domain',
            entityId: domain,
            action: 'create',
            after: { state: 'pending' },
          });
          await deps.jobs.enqueue(ctx, { type: VERIFY_JOB, payload: { domain }, key: domain }, { tx });
          return ok(view(row));
        }),
      ).finally(() => deps.jobs.committed());
    },

    /** The re-check button: back to pending and checked again now. An active domain needs none. */
    async recheck(ctx: RequestContext, domain: string): Promise<Result<StoreDomain, DomainRefusal>> {
      requireAccess(ctx, 'settings');
      const result = await deps.events.transaction(async (tx): Promise<Result<StoreDomain, DomainRefusal>> => {
        const row = await rowOf(tx, ctx, domain, true);
        if (!row) return notFound(domain);
        if (row.state === 'active') return refuse(409, 'CONFLICT', `${domain} is active: it needs no check.`);
        const [after] = await tx
          .update(sd)
          .set({ state: 'pending', reason: '' })
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
        if (row.isPrimary)
          return refuse(409, 'CONFLICT', `${domain} is the primary domain: make another host primary first.`);
        await tx.delete(sd).where(and(here(ctx), eq(sd.domain, domain)));
        if (row.state === 'active') {
          await unbindDomainHost(tx, ctx, domain);
          changed(tx, ctx);
        }
        await deps.audit.record(tx, ctx, {
          entity: 'domain',
          entityId: domain,
          action: 'delete',
          before: { state: row.state },
        });
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
      return deps.events.transaction(async (tx): Promise<Result<string, DomainRefusal>> => {
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
