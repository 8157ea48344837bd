import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  SUPPORT_ACCESS_MAX_HOURS,
  SUPPORT_ACCESS_MIN_HOURS,
  type SupportGrant,
  type SupportSessionInfo,
  type SupportSessionTicket,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, desc, eq, gt, isNull } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, type Result, refuse } from '../../lib/result';
import type { StoreDatabases } from '../../lib/store-databases';
import type { AuditService } from '../audit/index';
import type { OperatorRequest } from './operator-principal';
import type { PlatformAudit } from './platform-audit.service';

const sg = schema.supportGrants;
const ss = schema.supportSessions;

/** A support session's store-host token starts so: the actor resolver looks it up here, not among sessions. */
export const SUPPORT_TOKEN_PREFIX = 'sup_';
/** The ticket the operator's browser carries to the store's host works this long, once. */
export const SUPPORT_TICKET_TTL_MS = 60_000;
/** Where the ticket is exchanged for the session cookie (on the store's host). */
export const SUPPORT_ENTER_PATH = '/api/tenant/support-access/enter';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** The owner's account a support session acts as, and the operator behind it. */
export interface SupportSessionAccount {
  userId: string;
  firstName: string;
  userLoginId: string;
  support: { operatorId: string; email: string };
  expiresAt: Date;
}

export interface SupportAccessDeps {
  db: Db;
  events: EventBus;
  audit: AuditService;
  platformAudit: PlatformAudit;
  /** scheme://host[:port] of a store's canonical host, as links in mail are made. */
  linkOrigin: (host: string) => string;
  /**
   * Runs reads and writes of a store's rows on the database it lives on (decision 123). The grants
   * and sessions are the store's rows, next to the accounts they act as, and move with it; the
   * operator's requests come from the platform's host, outside any store.
   */
  stores: Pick<StoreDatabases, 'within'>;
}

function toGrant(r: typeof sg.$inferSelect, now = Date.now()): SupportGrant {
  return {
    grantId: r.grantId,
    tenantId: r.tenantId,
    grantedAt: r.grantedAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    grantedBy: r.grantedByEmail,
    revokedAt: r.revokedAt?.toISOString() ?? null,
    active: r.revokedAt === null && r.expiresAt.getTime() > now,
  };
}

/**
 * The owner's consent to the platform's support, and the operator's sessions under it (decision 101).
 * Only the owner grants (1 to 72 hours) and revokes; while a grant is live an operator may open the
 * store's dashboard as the owner's role, marked as support, and every audit entry of that session
 * names the operator. A session works only while its grant does: revoking ends it at the next request.
 */
export function createSupportAccess(deps: SupportAccessDeps) {
  const { db } = deps;

  /** Only the owner, in their own session (support cannot extend its own access). */
  function requireOwner(ctx: RequestContext) {
    requireAccess(ctx, 'settings');
    if (ctx.actor.role !== 'admin' || ctx.actor.support) {
      throw AppError.forbidden('Only the store owner can grant or revoke the platform’s support access.');
    }
    return ctx.actor;
  }

  async function liveGrant(tenantId: string, now = new Date()) {
    const [row] = await deps.stores.within(tenantId, () =>
      db
        .select()
        .from(sg)
        .where(and(eq(sg.tenantId, tenantId), isNull(sg.revokedAt), gt(sg.expiresAt, now)))
        .orderBy(desc(sg.expiresAt))
        .limit(1),
    );
    return row ?? null;
  }

  return {
    /** The store's live grant, or null (the console's store page). */
    async liveGrant(tenantId: string): Promise<SupportGrant | null> {
      const row = await liveGrant(tenantId);
      return row ? toGrant(row) : null;
    },

    /** The owner's view: the live grant, if any. */
    async state(ctx: RequestContext): Promise<SupportGrant | null> {
      requireOwner(ctx);
      const row = await liveGrant(ctx.tenantId);
      return row ? toGrant(row) : null;
    },

    /** Grants support access for `hours` from now; a live grant is replaced (shortened or extended). */
    async grant(ctx: RequestContext, hours: number): Promise<SupportGrant> {
      const owner = requireOwner(ctx);
      if (!Number.isInteger(hours) || hours < SUPPORT_ACCESS_MIN_HOURS || hours > SUPPORT_ACCESS_MAX_HOURS) {
        throw AppError.field(
          422,
          'VALIDATION_FAILED',
          'hours',
          `choose between ${SUPPORT_ACCESS_MIN_HOURS} and ${SUPPORT_ACCESS_MAX_HOURS} hours`,
        );
      }
      const now = new Date();
      const row = await deps.events.transaction(async (tx) => {
        // One live grant per store: the owner's newest choice replaces the one before.
        await tx
          .update(sg)
          .set({ revokedAt: now })
          .where(and(eq(sg.tenantId, ctx.tenantId), isNull(sg.revokedAt), gt(sg.expiresAt, now)));
        const [inserted] = await tx
          .insert(sg)
          .values({
            grantId: `SG-${randomUUID()}`,
            tenantId: ctx.tenantId,
            grantedByUserId: owner.userId,
            grantedByEmail: owner.userLoginId,
            grantedAt: now,
            expiresAt: new Date(now.getTime() + hours * 3_600_000),
          })
          .returning();
        if (!inserted) throw new Error('support grant not written');
        await deps.audit.record(tx, ctx, {
          entity: 'support_access',
          entityId: inserted.grantId,
          action: 'grant',
          after: { hours, expiresAt: inserted.expiresAt.toISOString() },
        });
        return inserted;
      });
      return toGrant(row);
    },

    /** Revokes the live grant at once: support sessions under it stop at their next request. */
    async revoke(ctx: RequestContext): Promise<SupportGrant | null> {
      requireOwner(ctx);
      const now = new Date();
      return deps.events.transaction(async (tx) => {
        const rows = await tx
          .update(sg)
          .set({ revokedAt: now })
          .where(and(eq(sg.tenantId, ctx.tenantId), isNull(sg.revokedAt), gt(sg.expiresAt, now)))
          .returning();
        for (const r of rows) {
          await tx
            .update(ss)
            .set({ endedAt: now })
            .where(and(eq(ss.grantId, r.grantId), isNull(ss.endedAt)));
          await deps.audit.record(tx, ctx, {
            entity: 'support_access',
            entityId: r.grantId,
            action: 'revoke',
            before: { expiresAt: r.expiresAt.toISOString() },
            after: { revokedAt: now.toISOString() },
          });
        }
        const last = rows[0];
        return last ? toGrant(last, now.getTime()) : null;
      });
    },

    /**
     * The operator asks to open the store's dashboard: allowed while a grant is live. The answer is a
     * one-time link to the store's host, which signs the operator's browser in there as support.
     */
    async open(
      req: OperatorRequest,
      tenantId: string,
      reason: string,
    ): Promise<Result<SupportSessionTicket, Refusal<'NOT_FOUND' | 'FORBIDDEN'>>> {
      const found = await deps.stores.within(tenantId, async () => {
        const [store] = await db
          .select({ host: schema.productStores.canonicalHost })
          .from(schema.productStores)
          .where(eq(schema.productStores.tenantId, tenantId))
          .orderBy(asc(schema.productStores.productStoreId))
          .limit(1);
        if (!store) return refuse(404, 'NOT_FOUND', `Store ${tenantId.slice(0, 64)} was not found.`);
        const grant = await liveGrant(tenantId);
        if (!grant) {
          return refuse(403, 'FORBIDDEN', 'The owner has not granted support access, or the grant has ended.');
        }
        const [owner] = await db
          .select({ userId: schema.users.userId })
          .from(schema.users)
          .where(and(eq(schema.users.tenantId, tenantId), eq(schema.users.role, 'admin')))
          .orderBy(asc(schema.users.createdAt), asc(schema.users.userId))
          .limit(1);
        if (!owner) return refuse(404, 'NOT_FOUND', 'This store has no owner account to act as.');
        return ok({ host: store.host, grant, ownerUserId: owner.userId });
      });
      if (!found.ok) return found;
      const { host, grant, ownerUserId } = found.value;
      const ticket = randomBytes(32).toString('base64url');
      // The session is written where the store lives, the operator's audit entry at home: two
      // transactions when the store has moved. The session first: should the audit entry then fail,
      // the ticket is never handed out, so no session opens without its entry.
      await deps.stores.within(tenantId, () =>
        db.insert(ss).values({
          ticketHash: sha256(ticket),
          tenantId,
          grantId: grant.grantId,
          operatorId: req.principal.operatorId,
          operatorEmail: req.principal.email,
          ownerUserId,
          ticketExpiresAt: new Date(Date.now() + SUPPORT_TICKET_TTL_MS),
          reason,
        }),
      );
      await db.transaction((tx) =>
        deps.platformAudit.record(tx, req, {
          action: 'support.open',
          tenantId,
          targetId: grant.grantId,
          reason,
          details: { grantExpiresAt: grant.expiresAt.toISOString() },
        }),
      );
      const enterUrl = `${deps.linkOrigin(host)}${SUPPORT_ENTER_PATH}?${new URLSearchParams({ ticket })}`;
      return ok({ enterUrl, expiresAt: grant.expiresAt.toISOString() });
    },

    /**
     * On the store's host: turns a ticket (this store's, unused, under 60 s old, its grant live) into
     * a session token for the store's `sid` cookie, valid until the grant ends.
     */
    async enter(tenant: TenantContext, ticket: string): Promise<Result<{ token: string; expiresAt: Date }, Refusal>> {
      if (!ticket || ticket.length > 100) return refuse(400, 'BAD_REQUEST', 'This support link is not valid.');
      const token = `${SUPPORT_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const now = new Date();
      const [row] = await db
        .update(ss)
        .set({ used: true, tokenHash: sha256(token), enteredAt: now })
        .where(
          and(
            eq(ss.ticketHash, sha256(ticket)),
            eq(ss.tenantId, tenant.tenantId),
            eq(ss.used, false),
            gt(ss.ticketExpiresAt, now),
          ),
        )
        .returning();
      if (!row) return refuse(400, 'BAD_REQUEST', 'This support link has expired or was already used.');
      const [grant] = await db
        .select()
        .from(sg)
        .where(and(eq(sg.grantId, row.grantId), isNull(sg.revokedAt), gt(sg.expiresAt, now)));
      if (!grant) return refuse(403, 'FORBIDDEN', 'The owner’s support access has ended.');
      return ok({ token, expiresAt: grant.expiresAt });
    },

    /**
     * The account a support token acts as on this store, while its grant is live; null otherwise
     * (unknown, another store's, revoked, expired, ended).
     */
    async resolve(tenant: TenantContext, token: string, now = new Date()): Promise<SupportSessionAccount | null> {
      if (!token.startsWith(SUPPORT_TOKEN_PREFIX) || token.length > 100) return null;
      const [row] = await db
        .select({ session: ss, grant: sg, owner: schema.users })
        .from(ss)
        .innerJoin(sg, eq(sg.grantId, ss.grantId))
        .innerJoin(schema.users, and(eq(schema.users.tenantId, ss.tenantId), eq(schema.users.userId, ss.ownerUserId)))
        .where(and(eq(ss.tokenHash, sha256(token)), eq(ss.tenantId, tenant.tenantId)));
      if (!row) return null;
      const { session, grant, owner } = row;
      if (session.endedAt || grant.revokedAt || grant.expiresAt.getTime() <= now.getTime()) return null;
      return {
        userId: owner.userId,
        firstName: owner.firstName,
        userLoginId: owner.email,
        support: { operatorId: session.operatorId, email: session.operatorEmail },
        expiresAt: grant.expiresAt,
      };
    },

    /** Ends a support session (its sign-out). */
    async end(tenant: TenantContext, token: string) {
      if (!token.startsWith(SUPPORT_TOKEN_PREFIX)) return;
      await db
        .update(ss)
        .set({ endedAt: new Date() })
        .where(and(eq(ss.tokenHash, sha256(token)), eq(ss.tenantId, tenant.tenantId), isNull(ss.endedAt)));
    },

    /** What the dashboard's banner shows in a support session; null in any other. */
    async sessionInfo(ctx: RequestContext): Promise<SupportSessionInfo | null> {
      const a = ctx.actor;
      if (a.kind !== 'staff' || !a.support) return null;
      const account = await this.resolve(ctx, a.session.token);
      if (!account) return null;
      return { operatorEmail: account.support.email, expiresAt: account.expiresAt.toISOString() };
    },
  };
}

export type SupportAccess = ReturnType<typeof createSupportAccess>;
