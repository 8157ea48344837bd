/**
 * Checking a store's domains in DNS (decisions 121, 125): the check itself (`verify`, and
 * `confirmActive` for a domain already connected, with its grace period), the owner's mails about
 * what a check found, and the jobs that run it: at once after an add, on a backoff while a new
 * domain's DNS propagates, and daily for every active and verified domain. Separate from the
 * service, whose owner-facing writes only enqueue these checks.
 */
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, inArray, lte, ne, or, sql } from 'drizzle-orm';
import type { RequestContext, TenantContext } from '../../lib/context';
import { isUniqueViolation } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import type { AuditService } from '../audit/index';
import type { JobRunner } from '../jobs/index';
import type { MailQueue } from '../mail/index';
import { bindDomainHost, hostHolder, storeHostsOf, unbindDomainHost, writeCanonicalHost } from '../tenant/index';
import { type DnsChecker, type DnsFinding, type DnsTargets, txtName, txtValue } from './dns-check';
import { pointTo, recordsFor } from './dns-records';
import { type DomainEvent, domainMail, ownerOf } from './domain-mail';
import { type DomainRow, here, hostsChanged, rowOf, sd } from './domain-rows';

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

/** What the checks need: DNS, the jobs that run them, the owner's mails, and the moved store's copy. */
export interface DomainChecksDeps {
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
  /** The stores living off the home database: the re-check runs in them, for that copy, domain or not. */
  movedStores?: () => string[];
}

/** The store's host that is none of its own domains (its platform subdomain): it always reaches the store. */
async function platformHostOf(tx: Tx, ctx: TenantContext, butNot: string) {
  const own = new Set((await tx.select({ d: sd.domain }).from(sd).where(here(ctx))).map((d) => d.d));
  const { hosts } = await storeHostsOf(tx, ctx);
  return hosts.find((h) => !own.has(h)) ?? hosts.find((h) => h !== butNot) ?? null;
}

/**
 * Registers the check's three jobs and answers `verify`, the check itself, which the service also
 * offers (tests and the job call it).
 */
export function createDomainChecks(db: Db, deps: DomainChecksDeps) {
  const changed = (tx: Tx, ctx: TenantContext) => hostsChanged(deps.events, tx, ctx);

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
  deps.jobs.recurring(RECHECK_JOB, {
    dailyAtUtc: deps.recheckAtUtc ?? '04:00',
    startupDelayMs: null,
    // A store with no domain of its own (most of them) has nothing to re-check: no job for it. A
    // moved store gets one anyway, for its primary host's copy.
    stores: () => {
      const hasDomain = sql`EXISTS (SELECT 1 FROM ${sd} WHERE ${sd.tenantId} = ${schema.productStores.tenantId})`;
      const moved = deps.movedStores?.() ?? [];
      return moved.length ? sql`(${hasDomain} OR ${inArray(schema.productStores.tenantId, moved)})` : hasDomain;
    },
  });

  return { verify };
}
