import { randomBytes } from 'node:crypto';
import { domainToUnicode } from 'node:url';
import type { DnsRecord, DomainInput, DomainsOverview, StoreDomain, StoreState } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, inArray, lte, ne, or } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { isUniqueViolation } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, Refused, type Result, refuse, refuseField, returnRefusals } from '../../lib/result';
import { StoreValues } from '../../lib/store-generations';
import type { AuditService } from '../audit/index';
import type { JobRunner } from '../jobs/index';
import type { MailQueue } from '../mail/index';
import {
  bindDomainHost,
  hostHolder,
  normaliseHost,
  storeHostsOf,
  unbindDomainHost,
  writeCanonicalHost,
} from '../tenant/index';
import { type DnsChecker, type DnsFinding, type DnsTargets, txtName, txtValue } from './dns-check';
import { type DomainEvent, domainMail, ownerOf } from './domain-mail';

const sd = schema.storeDomains;
type DomainRow = typeof sd.$inferSelect;

export const VERIFY_JOB = 'domains.verify';
/** A domain not connected yet, checked again when its backoff says (`next_check_at`). */
export const DUE_CHECK_JOB = 'domains.check-due';
/** The daily re-check of every store's active and verified domains (decision 125). */
export const RECHECK_JOB = 'domains.recheck';
/**
 * How long an active domain whose records are gone keeps serving the store (decision 125): three
 * days, so a typo at the DNS provider or a record changed by mistake is seen by the owner and fixed
 * before shoppers notice, and a domain that really moved away is let go within days.
 */
export const GRACE_MS = 72 * 60 * 60 * 1000;
/**
 * How a domain not connected yet is checked again by itself while its DNS propagates, as Shopify
 * does: every 10 minutes for the first hour, then hourly, until 72 hours after it was added (or after
 * the owner last pressed Check again). Then a failed one waits for the owner; a verified one (proven,
 * not pointing here yet) keeps its daily check.
 */
export const DUE_CHECKS = { firstHourEveryMs: 10 * 60_000, thenEveryMs: 60 * 60_000, forMs: 72 * 60 * 60_000 };

/** When a domain whose checks started at `from` is checked next after a check at `now`; null: no more. */
export function nextCheckAfter(from: Date, now: Date): Date | null {
  const age = now.getTime() - from.getTime();
  const next = now.getTime() + (age < 60 * 60_000 ? DUE_CHECKS.firstHourEveryMs : DUE_CHECKS.thenEveryMs);
  return next - from.getTime() <= DUE_CHECKS.forMs ? new Date(next) : null;
}

/** A store may add this many domains; Shopify's limit is higher, but a handful is what stores use. */
export const MAX_DOMAINS = 20;

export type DomainRefusal = Refusal<'CONFLICT' | 'NOT_FOUND' | 'VALIDATION_FAILED' | 'BAD_REQUEST'>;

export interface DomainsDeps {
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  jobs: Pick<JobRunner, 'enqueue' | 'register' | 'recurring' | 'committed'>;
  check: DnsChecker;
  targets: DnsTargets;
  /**
   * Where a moved store's accounts live (decision 123): the owner the domain mails go to is read
   * there, not in the home transaction, whose copy of the accounts a move clears. Null: at home.
   */
  accountsOf?: (tenantId: string) => Db | null;
  /** The owner's mails about their domains: connected, records missing, disconnected. */
  mailer: Pick<MailQueue, 'send' | 'committed'>;
  /** scheme://host[:port] of a host, for the link to the Domains page in those mails. */
  linkOrigin: (host: string) => string;
  /** The platform's own host and domain: never a store's domain (its subdomains get the wildcard). */
  platformHost: string;
  platformDomain: string;
  /** The store's lifecycle state (decision 099): only an active store's domain gets a certificate. */
  stateOf: (tenantId: string) => Promise<StoreState>;
  /** When the daily re-check runs ("04:00" UTC by default). */
  recheckAtUtc?: string;
  /**
   * A store moved off the home database keeps a copy of its row where it lives (decision 123): the
   * primary host, once chosen and committed at home, is written there too.
   */
  copyPrimaryHost?: (ctx: TenantContext, host: string) => Promise<void>;
  /**
   * Writes a moved store's copy of its primary host again from the home row, if it differs: run by
   * the daily re-check. A disconnect's copy, written after its commit, may have failed, and that
   * job's retry finds the domain already disconnected and nothing left to copy.
   */
  repairPrimaryHostCopy?: (ctx: TenantContext) => Promise<void>;
}

const here = (ctx: TenantContext) => and(eq(sd.tenantId, ctx.tenantId), eq(sd.productStoreId, ctx.productStoreId));

/** An apex (example.com) cannot have a CNAME next to its other records: it points by A record. */
const isApex = (domain: string) => domain.split('.').length === 2;

/** The record that points the domain here, in the words of a reason: "create …". */
function pointTo(domain: string, targets: DnsTargets) {
  if (!isApex(domain)) return `a CNAME record to ${targets.cname}`;
  return targets.aaaa
    ? `an A record to ${targets.a} and an AAAA record to ${targets.aaaa}, and no other A or AAAA record`
    : `an A record to ${targets.a}, and no AAAA record`;
}

/**
 * The records the owner creates: the TXT token, then the CNAME (a subdomain) or the A record (an
 * apex, with its AAAA record when the platform has an IPv6 address). A `www.` host added with its apex
 * needs only its CNAME: the apex's TXT record proves it (decision 125).
 */
export function recordsFor(
  domain: string,
  token: string,
  targets: DnsTargets,
  aliasOf: string | null = null,
): DnsRecord[] {
  if (aliasOf)
    return [
      {
        type: 'CNAME',
        name: domain,
        value: targets.cname,
        purpose: `Sends visitors who type ${domain} to your store. The TXT record of ${aliasOf} proves it is yours.`,
      },
    ];
  return [
    {
      type: 'TXT',
      name: txtName(domain),
      value: txtValue(token),
      purpose: 'Proves the domain is yours. Keep it: it is checked again.',
    },
    ...(isApex(domain)
      ? [
          { type: 'A' as const, name: domain, value: targets.a, purpose: 'Points the domain at your store.' },
          ...(targets.aaaa
            ? [
                {
                  type: 'AAAA' as const,
                  name: domain,
                  value: targets.aaaa,
                  purpose: 'Points the domain at your store for visitors on IPv6.',
                },
              ]
            : []),
        ]
      : [{ type: 'CNAME' as const, name: domain, value: targets.cname, purpose: 'Points the domain at your store.' }]),
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

  /** The store's host that is none of its own domains (its platform subdomain): it always reaches the store. */
  async function platformHostOf(tx: Tx, ctx: TenantContext, butNot: string) {
    const own = new Set((await tx.select({ d: sd.domain }).from(sd).where(here(ctx))).map((d) => d.d));
    const { hosts } = await storeHostsOf(tx, ctx);
    return hosts.find((h) => !own.has(h)) ?? hosts.find((h) => h !== butNot) ?? null;
  }

  /**
   * Mails the owner about one event, in the transaction that made it (so once, and only if it
   * commits). The link goes through the platform subdomain: the domain the mail is about may not work.
   */
  async function tell(tx: Tx, ctx: TenantContext, event: DomainEvent) {
    const owner = await ownerOf(deps.accountsOf?.(ctx.tenantId) ?? tx, ctx);
    if (!owner) return;
    const host = (await platformHostOf(tx, ctx, event.domain)) ?? ctx.hostName;
    const page = `${deps.linkOrigin(host)}/manage-store/settings/domains`;
    await deps.mailer.send(ctx, domainMail(event, owner, page), { tx });
  }

  /**
   * Enqueues the check a row's `next_check_at` asks for, in the transaction that set it. Keyed by the
   * time it is due, so a check that settles the row twice enqueues it once; a job whose time the row
   * no longer names (the owner pressed Check again, a later check moved it) does nothing when it runs.
   */
  async function scheduleCheck(tx: Tx, ctx: TenantContext, row: DomainRow) {
    if (!row.nextCheckAt) return;
    const due = row.nextCheckAt.toISOString();
    await deps.jobs.enqueue(
      ctx,
      {
        type: DUE_CHECK_JOB,
        payload: { domain: row.domain, due },
        key: `${row.domain} ${due}`,
        runAt: row.nextCheckAt,
      },
      { tx },
    );
  }

  /**
   * The check itself (the job's work; safe to run twice): asks DNS, then settles the row under its
   * lock. The token missing: failed. The token there: verified, and active (bound to the store) once
   * the domain points here too. Another store that proved the domain first wins (the unique index).
   */
  async function verify(ctx: RequestContext, domain: string): Promise<DomainRow | null> {
    const before = await rowOf(db, ctx, domain);
    if (!before) return null;
    const proof = before.aliasOf ?? domain;
    const finding = await deps.check(domain, before.token, deps.targets, proof);
    if (before.state === 'active') return confirmActive(ctx, domain, finding);
    const settle = (state: DomainRow['state'], reason: string) =>
      deps.events.transaction(async (tx) => {
        const now = new Date();
        const rows = await tx
          .update(sd)
          .set({ state, reason, checkedAt: now, nextCheckAt: nextCheckAfter(before.checksFrom, now) })
          .where(and(here(ctx), eq(sd.domain, domain), ne(sd.state, 'active')))
          .returning();
        for (const r of rows) await scheduleCheck(tx, ctx, r);
        return rows;
      });
    if (!finding.ok) {
      const [row] = await settle('failed', `DNS did not answer (${finding.error}). Check again in a few minutes.`);
      return row ?? null;
    }
    if (!finding.tokenFound) {
      const [row] = await settle(
        'failed',
        `The TXT record ${txtName(proof)} with the value ${txtValue(before.token)} was not found. DNS changes can take up to 48 hours to be seen.`,
      );
      return row ?? null;
    }
    try {
      return await deps.events.transaction(async (tx) => {
        const row = await rowOf(tx, ctx, domain, true);
        if (!row || row.state === 'active') return row;
        const holder = finding.pointsHere ? await hostHolder(tx, domain) : null;
        if (holder && holder.tenantId !== ctx.tenantId) {
          const now = new Date();
          const [r] = await tx
            .update(sd)
            .set({
              state: 'failed',
              reason: 'This domain already serves another store.',
              checkedAt: now,
              nextCheckAt: nextCheckAfter(row.checksFrom, now),
            })
            .where(and(here(ctx), eq(sd.domain, domain)))
            .returning();
          if (r) await scheduleCheck(tx, ctx, r);
          return r ?? null;
        }
        if (finding.pointsHere) {
          await bindDomainHost(tx, ctx, domain);
          changed(tx, ctx);
          await tell(tx, ctx, { kind: 'connected', domain });
        }
        const target = pointTo(domain, deps.targets);
        const now = new Date();
        const [r] = await tx
          .update(sd)
          .set({
            state: finding.pointsHere ? 'active' : 'verified',
            reason: finding.pointsHere
              ? ''
              : `The domain is yours, but it does not point at your store yet (DNS shows ${finding.seen}): create ${target}.`,
            checkedAt: now,
            nextCheckAt: finding.pointsHere ? null : nextCheckAfter(row.checksFrom, now),
          })
          .where(and(here(ctx), eq(sd.domain, domain)))
          .returning();
        if (r) await scheduleCheck(tx, ctx, r);
        return r ?? null;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const [row] = await settle('failed', 'Another store has verified this domain.');
      return row ?? null;
    }
  }

  /**
   * A later check of an active domain (decision 125). Records still right: nothing to tell. Records
   * gone: the owner is told what to fix and the domain keeps serving the store for the grace period
   * (and keeps its certificate: Caddy's question is still answered yes, and a certificate authority
   * only issues to whoever the name points at, so that yes never helps anyone else); still gone after
   * it, the domain stops serving the store (verified while its TXT token stays, failed otherwise), and
   * a primary domain hands its place back to the store's platform subdomain. A DNS server that does
   * not answer proves nothing either way: the next check decides.
   */
  async function confirmActive(ctx: RequestContext, domain: string, finding: DnsFinding): Promise<DomainRow | null> {
    let primaryNow: string | null = null;
    const confirmed = await deps.events.transaction(async (tx) => {
      const row = await rowOf(tx, ctx, domain, true);
      if (row?.state !== 'active' || !finding.ok) return row;
      const proof = row.aliasOf ?? domain;
      const problem = !finding.tokenFound
        ? `The TXT record ${txtName(proof)} with the value ${txtValue(row.token)} is gone: create it again.`
        : !finding.pointsHere
          ? `The domain no longer points at your store (DNS shows ${finding.seen}): create ${pointTo(domain, deps.targets)}.`
          : null;
      const now = new Date();
      const where = and(here(ctx), eq(sd.domain, domain));
      if (!problem) {
        const [r] = await tx.update(sd).set({ lapsedAt: null, reason: '', checkedAt: now }).where(where).returning();
        return r ?? null;
      }
      const since = row.lapsedAt ?? now;
      const records = recordsFor(domain, row.token, deps.targets, row.aliasOf);
      if (now.getTime() - since.getTime() < GRACE_MS) {
        const [r] = await tx
          .update(sd)
          .set({ lapsedAt: since, reason: problem, checkedAt: now })
          .where(where)
          .returning();
        // Told once, when the grace period starts; the daily checks after it only keep the page right.
        if (!row.lapsedAt)
          await tell(tx, ctx, {
            kind: 'lapsed',
            domain,
            problem,
            records,
            disconnectsAt: new Date(since.getTime() + GRACE_MS),
          });
        return r ?? null;
      }
      await unbindDomainHost(tx, ctx, domain);
      if (row.isPrimary) {
        // Back to a host that is not one of the store's own domains: its platform subdomain.
        const fallback = await platformHostOf(tx, ctx, domain);
        if (fallback) {
          await writeCanonicalHost(tx, ctx, fallback);
          primaryNow = fallback;
        }
      }
      const state = finding.tokenFound ? 'verified' : 'failed';
      const [r] = await tx
        .update(sd)
        .set({
          state,
          isPrimary: false,
          lapsedAt: null,
          reason: `Disconnected: ${problem} Then press Check again.`,
          checkedAt: now,
        })
        .where(where)
        .returning();
      await deps.audit.record(tx, ctx, {
        entity: 'domain',
        entityId: domain,
        action: 'disconnect',
        before: { state: 'active', isPrimary: row.isPrimary },
        after: { state, isPrimary: false },
      });
      changed(tx, ctx);
      await tell(tx, ctx, { kind: 'disconnected', domain, problem, records, primaryNow });
      return r ?? null;
    });
    if (primaryNow) await deps.copyPrimaryHost?.(ctx, primaryNow);
    return confirmed;
  }

  deps.jobs.register<{ domain: string }>(VERIFY_JOB, async (job) => {
    await verify(job.ctx, job.payload.domain);
    deps.mailer.committed();
  });

  // A domain not connected yet, checked again on its backoff: only while the row still names this time.
  deps.jobs.register<{ domain: string; due: string }>(DUE_CHECK_JOB, async (job) => {
    const row = await rowOf(db, job.ctx, job.payload.domain);
    if (row?.state === 'active' || row?.nextCheckAt?.toISOString() !== job.payload.due) return { skipped: true };
    await verify(job.ctx, job.payload.domain);
    deps.mailer.committed();
    return { checked: true };
  });

  // Daily, per store: every active and verified domain is checked again, one at a time (a store has
  // a handful), so a domain whose DNS moved away is noticed and a verified one that now points here
  // is connected without the owner pressing Check again.
  deps.jobs.register(RECHECK_JOB, async (job, tools) => {
    const rows = await db
      .select({ store: sd.productStoreId, domain: sd.domain })
      .from(sd)
      .where(
        and(
          eq(sd.tenantId, job.ctx.tenantId),
          // A check that is overdue too: its job was lost (a restore, a store moved in between).
          or(inArray(sd.state, ['active', 'verified']), lte(sd.nextCheckAt, new Date())),
        ),
      )
      .orderBy(asc(sd.domain));
    for (const r of rows) {
      if (tools.signal.aborted) return;
      await verify({ ...job.ctx, productStoreId: r.store }, r.domain);
    }
    await deps.repairPrimaryHostCopy?.(job.ctx);
    deps.mailer.committed();
  });
  deps.jobs.recurring(RECHECK_JOB, { dailyAtUtc: deps.recheckAtUtc ?? '04:00', startupDelayMs: null });

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
