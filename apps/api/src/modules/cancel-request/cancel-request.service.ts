import type { CancelRequest, CancelRequestState, CancelRequestStatus } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { refuseSupport, requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../lib/result';
import type { AuditService } from '../audit/index';
import type { JobRunner } from '../jobs/index';
import type { MailQueue } from '../mail/index';
import {
  auditActorName,
  type PlatformActor,
  type StoreLifecycleService,
  type StoreTransition,
  type StoreTransitionRefusal,
  type TransitionOptions,
} from '../store-lifecycle/index';
import { CANCEL_STATUS_LABELS, canTransitionCancelRequest } from './cancel-request-state';
import { type CancelRequestRow, transitionCancelRequest } from './cancel-request-transition';

const cr = schema.cancelRequests;

/** The job that closes a closing store once its 30 days are over (enqueued for `closesAt`). */
export const CLOSE_STORE_JOB = 'store-lifecycle.close-due';

export interface CancelRequestDeps {
  events: EventBus;
  audit: Pick<AuditService, 'record'>;
  mailer: MailQueue;
  storeLifecycle: StoreLifecycleService;
  jobs: JobRunner;
  /**
   * The database holding the store's accounts when it is not the one this service writes to (a store
   * moved off the home database, decision 123); null when it is.
   */
  accountsOf?: (tenantId: string) => Db | null;
}

function view(tenantId: string, row: CancelRequestRow | undefined, closesAt: string | null = null): CancelRequest {
  const status: CancelRequestStatus = row?.status ?? 'none';
  return {
    tenantId,
    status,
    reason: row?.reason ?? null,
    requestedAt: row?.requestedAt?.toISOString() ?? null,
    updatedAt: row ? row.updatedAt.toISOString() : null,
    decidedAt: row?.decidedAt?.toISOString() ?? null,
    decisionReason: row?.decisionReason ?? null,
    closesAt: status === 'approved' ? closesAt : null,
    canInitiate: canTransitionCancelRequest(status, 'requested'),
    canWithdraw: canTransitionCancelRequest(status, 'withdrawn'),
  };
}

/** Only the owner (role admin) may ask to cancel the store or withdraw the request; not staff. */
function requireOwner(ctx: RequestContext) {
  requireAccess(ctx, 'settings');
  if (ctx.actor.role !== 'admin') throw AppError.forbidden('Only the store owner can request to cancel the store.');
  return ctx.actor;
}

/** `{id}` of the paths is the tenant's id (decision 028); another tenant's is not found. */
function assertOwnTenant(ctx: TenantContext, id: string) {
  if (id !== ctx.tenantId && !(id === 'development' && ctx.viaDevAlias)) {
    throw AppError.notFound(`Tenant ${id.slice(0, 64)} was not found.`);
  }
}

const MAIL_TEXT: Partial<
  Record<CancelRequestStatus, (store: string, reason: string | null) => { subject: string; text: string }>
> = {
  requested: (store, reason) => ({
    subject: `We received your request to cancel ${store}`,
    text: [
      `We received your request to cancel your store ${store}.`,
      '',
      `Your reason: ${reason ?? ''}`,
      '',
      'What happens next: the platform team reviews the request. Until it is approved your store stays open,',
      'orders keep coming in, and you can withdraw the request from Manage Store > Store details > Danger zone.',
      'Once approved, the store closes: shoppers can no longer visit it or place orders.',
      '',
      'If you did not ask for this, withdraw the request and change your password.',
    ].join('\n'),
  }),
  withdrawn: (store) => ({
    subject: `Your request to cancel ${store} was withdrawn`,
    text: `Your request to cancel your store ${store} was withdrawn. Your store stays open as before.`,
  }),
};

/**
 * A request to cancel the store, or its withdrawal, that its state does not allow (409
 * INVALID_TRANSITION): already requested, nothing to withdraw, already decided.
 */
export type CancelRequestRefusal = Refusal<'INVALID_TRANSITION'>;

/**
 * A decision the cancel request's state or the store's does not allow (409 INVALID_TRANSITION: no
 * open request, already decided, the store not active or suspended), or no such store (404).
 */
export type CancelDecisionRefusal = Refusal<'INVALID_TRANSITION' | 'NOT_FOUND'>;

/** What an approval did: the request's view, and when the store closes. */
export interface CancelApproval {
  cancelRequest: CancelRequest;
  closesAt: string;
}

function longDate(d: Date): string {
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

export function createCancelRequestService(db: Db, deps: CancelRequestDeps) {
  async function read(tenantId: string) {
    const [row] = await db.select().from(cr).where(eq(cr.tenantId, tenantId));
    return row;
  }

  /** The store's context for the platform's writes: its first store, its host, the platform acting. */
  async function platformContext(tenantId: string, actor: PlatformActor, requestId?: string) {
    const [store] = await db
      .select({
        productStoreId: schema.productStores.productStoreId,
        host: schema.productStores.canonicalHost,
        name: schema.productStores.storeName,
      })
      .from(schema.productStores)
      .where(eq(schema.productStores.tenantId, tenantId))
      .orderBy(asc(schema.productStores.productStoreId))
      .limit(1);
    if (!store) return null;
    const ctx: RequestContext = {
      tenantId,
      productStoreId: store.productStoreId,
      hostName: store.host,
      viaDevAlias: false,
      origin: '',
      actor: { kind: 'system', name: auditActorName(actor) },
      requestId: requestId ?? `platform-${Date.now().toString(36)}`,
      ip: null,
    };
    return { ctx, storeName: store.name };
  }

  /** Who filed the request (the owner's sign-in email), else the store's owner: the decision's mail goes there. */
  // Read in the caller's transaction: on the embedded database a query outside it waits for it forever.
  // A store on another database keeps its accounts there: read from it (PostgreSQL, so no wait).
  async function ownerEmail(tx: Db | Tx, tenantId: string, requestedBy: string | null): Promise<string | null> {
    const q = deps.accountsOf?.(tenantId) ?? tx;
    const u = schema.users;
    if (requestedBy) {
      const [row] = await q
        .select({ email: u.email })
        .from(u)
        .where(and(eq(u.tenantId, tenantId), eq(u.userId, requestedBy)));
      if (row) return row.email;
    }
    const [owner] = await q
      .select({ email: u.email })
      .from(u)
      .where(and(eq(u.tenantId, tenantId), eq(u.role, 'admin')))
      .orderBy(asc(u.userId))
      .limit(1);
    return owner?.email ?? null;
  }

  /**
   * The platform's decision on an open request (`requested`): approval moves the store to `closing`
   * in the same transaction (closesAt 30 days later) and schedules its closing; a decline leaves the
   * store as it is and tells the owner why. Both mail the owner and write the store's audit log.
   */
  async function decide(
    actor: PlatformActor,
    tenantId: string,
    to: 'approved' | 'declined',
    reason: string,
    opts: { requestId?: string } = {},
  ): Promise<Result<{ row: CancelRequestRow; closesAt: Date | null }, CancelDecisionRefusal>> {
    const why = reason.trim().slice(0, 1000);
    const target = await platformContext(tenantId, actor, opts.requestId);
    if (!target) return refuse(404, 'NOT_FOUND', `Store ${tenantId.slice(0, 64)} was not found.`);
    const { ctx, storeName } = target;
    return returnRefusals<
      Result<{ row: CancelRequestRow; closesAt: Date | null }, CancelDecisionRefusal>,
      CancelDecisionRefusal
    >(async () =>
      ok(
        await deps.events.transaction(async (tx) => {
          const moved = await transitionCancelRequest(tx, ctx, to, { from: 'requested', reason: why });
          if (!moved.ok) throw new Refused(refuse(409, 'INVALID_TRANSITION', moved.message));
          let closesAt: Date | null = null;
          if (to === 'approved') {
            const closing = await deps.storeLifecycle.transition(actor, tenantId, 'closing', why, {
              tx,
              requestId: ctx.requestId,
            });
            if (!closing.ok) throw new Refused(closing);
            closesAt = closing.value.closesAt;
            if (closesAt) {
              await deps.jobs.enqueue(
                ctx,
                { type: CLOSE_STORE_JOB, payload: {}, key: 'close', runAt: closesAt },
                { tx },
              );
            }
          }
          const decidedAt = new Date();
          const [row] = await tx
            .update(cr)
            .set({ decidedAt, decisionReason: why })
            .where(eq(cr.tenantId, tenantId))
            .returning();
          await deps.audit.record(tx, ctx, {
            entity: 'cancel_request',
            entityId: tenantId,
            action: to === 'approved' ? 'approve' : 'decline',
            before: { status: moved.from },
            after: { status: to, decisionReason: why },
          });
          deps.events.emitAfterCommit(tx, 'cancel_request.transitioned', { tenantId, from: moved.from, to });
          const email = await ownerEmail(tx, tenantId, moved.row.requestedBy);
          if (email) {
            const mail =
              to === 'approved'
                ? {
                    subject: `Your request to cancel ${storeName} was approved`,
                    text: [
                      `Your request to cancel your store ${storeName} was approved.`,
                      '',
                      'Your storefront is closed now: shoppers can no longer visit it or place orders.',
                      `Until ${closesAt ? longDate(closesAt) : 'the store closes'} you can still sign in to Manage Store and`,
                      'export your orders, customers and products. After that date the store closes for good.',
                      '',
                      `The platform's note: ${why}`,
                    ].join('\n'),
                  }
                : {
                    subject: `Your request to cancel ${storeName} was declined`,
                    text: [
                      `Your request to cancel your store ${storeName} was declined. Your store stays open as before.`,
                      '',
                      `Why: ${why}`,
                      '',
                      'You can file a new request from Manage Store > Store details > Danger zone.',
                    ].join('\n'),
                  };
            await deps.mailer.send(ctx, { to: email, ...mail }, { tx });
          }
          return { row: row as CancelRequestRow, closesAt };
        }),
      ),
    );
  }

  async function change(
    ctx: RequestContext,
    id: string,
    to: 'requested' | 'withdrawn',
    reason?: string,
  ): Promise<Result<CancelRequest, CancelRequestRefusal>> {
    const owner = requireOwner(ctx);
    // Support may help the owner withdraw a request, never file one.
    if (to === 'requested') refuseSupport(ctx, 'ask to cancel the store');
    assertOwnTenant(ctx, id);
    const [store] = await db
      .select({ name: schema.productStores.storeName })
      .from(schema.productStores)
      .where(eq(schema.productStores.productStoreId, ctx.productStoreId));
    // A refused move is thrown as `Refused` to undo the transaction's first write, and returned.
    const written = await returnRefusals<Result<CancelRequestRow, CancelRequestRefusal>, CancelRequestRefusal>(
      async () =>
        ok(
          await deps.events.transaction(async (tx) => {
            const result = await transitionCancelRequest(tx, ctx, to, reason === undefined ? {} : { reason });
            if (!result.ok) throw new Refused(refuse(409, 'INVALID_TRANSITION', result.message));
            await deps.audit.record(tx, ctx, {
              entity: 'cancel_request',
              entityId: ctx.tenantId,
              action: to === 'requested' ? 'initiate' : 'withdraw',
              before: { status: result.from },
              after: to === 'requested' ? { status: to, reason: reason ?? null } : { status: to },
            });
            deps.events.emitAfterCommit(tx, 'cancel_request.transitioned', {
              tenantId: ctx.tenantId,
              from: result.from,
              to,
            });
            const mail = MAIL_TEXT[to]?.(store?.name ?? ctx.hostName, reason ?? null);
            if (mail) await deps.mailer.send(ctx, { to: owner.userLoginId, ...mail }, { tx });
            return result.row;
          }),
        ),
    );
    if (!written.ok) return written;
    return ok(view(ctx.tenantId, written.value));
  }

  return {
    /** The owner's view of the request (the danger zone). */
    async get(ctx: RequestContext, id = ctx.tenantId): Promise<CancelRequest> {
      requireOwner(ctx);
      assertOwnTenant(ctx, id);
      const life = await deps.storeLifecycle.lifecycle(ctx.tenantId);
      return view(ctx.tenantId, await read(ctx.tenantId), life.closesAt);
    },

    /** What anyone may read of it (GET /api/fetch/tenant): the state, not the reason. */
    async state(tenantId: string): Promise<CancelRequestState> {
      const v = view(tenantId, await read(tenantId));
      return { status: v.status, requestedAt: v.requestedAt, updatedAt: v.updatedAt };
    },

    /**
     * The operator approves the tenant's open cancel request (decision 099): the request becomes
     * `approved` and the store `closing` until closesAt (30 days), when the close job closes it.
     */
    async approveCancelRequest(
      actor: PlatformActor,
      tenantId: string,
      reason: string,
      opts: { requestId?: string } = {},
    ): Promise<Result<CancelApproval, CancelDecisionRefusal>> {
      const done = await decide(actor, tenantId, 'approved', reason, opts);
      if (!done.ok) return done;
      const closesAt = done.value.closesAt?.toISOString() ?? null;
      return ok({ cancelRequest: view(tenantId, done.value.row, closesAt), closesAt: closesAt ?? '' });
    },

    /** The operator declines it: the owner reads why on the danger zone (and by mail) and may file again. */
    async declineCancelRequest(
      actor: PlatformActor,
      tenantId: string,
      reason: string,
      opts: { requestId?: string } = {},
    ): Promise<Result<CancelRequest, CancelDecisionRefusal>> {
      const done = await decide(actor, tenantId, 'declined', reason, opts);
      if (!done.ok) return done;
      return ok(view(tenantId, done.value.row));
    },

    /**
     * Closes the store if it is closing and its closesAt has passed (the close job; safe to run twice):
     * the store becomes `closed`, an approved request `closed`, and the owner gets a last mail.
     * Answers whether it closed the store.
     */
    async closeIfDue(tenantId: string, now = new Date()): Promise<boolean> {
      const life = await deps.storeLifecycle.lifecycle(tenantId);
      if (life.state !== 'closing' || !life.closesAt || new Date(life.closesAt) > now) return false;
      const actor: PlatformActor = { kind: 'system', name: 'closing-sweep' };
      const target = await platformContext(tenantId, actor);
      if (!target) return false;
      const { ctx, storeName } = target;
      const closed = await returnRefusals<Result<boolean, CancelDecisionRefusal>, CancelDecisionRefusal>(async () =>
        ok(
          await deps.events.transaction(async (tx) => {
            const moved = await deps.storeLifecycle.transition(
              actor,
              tenantId,
              'closed',
              'The 30 days to export after the cancel request was approved are over.',
              { tx, expect: 'closing', requestId: ctx.requestId },
            );
            if (!moved.ok) throw new Refused(moved);
            // A closing store may have come from a suspension rather than a request: then nothing to close here.
            const request = await transitionCancelRequest(tx, ctx, 'closed', { from: 'approved' });
            if (request.ok) {
              deps.events.emitAfterCommit(tx, 'cancel_request.transitioned', {
                tenantId,
                from: 'approved',
                to: 'closed',
              });
            }
            const email = await ownerEmail(tx, tenantId, request.ok ? request.row.requestedBy : null);
            if (email) {
              await deps.mailer.send(
                ctx,
                {
                  to: email,
                  subject: `${storeName} is now closed`,
                  text: `Your store ${storeName} is now closed. Its storefront and dashboard can no longer be opened.`,
                },
                { tx },
              );
            }
            return true;
          }),
        ),
      );
      // Refused: another process closed it first (or the platform reopened it); nothing to do.
      return closed.ok;
    },

    /**
     * The operator closes the store now, before an approved request's date: the request closes in the
     * same transaction (the close job then finds the store closed and does nothing, so the request
     * stayed `approved` for ever on a closed store). A store without an approved request just closes.
     */
    async closeStoreNow(
      actor: PlatformActor,
      tenantId: string,
      reason: string,
      opts: Omit<TransitionOptions, 'tx'> = {},
    ): Promise<Result<StoreTransition, StoreTransitionRefusal>> {
      const target = await platformContext(tenantId, actor, opts.requestId);
      return returnRefusals<Result<StoreTransition, StoreTransitionRefusal>, StoreTransitionRefusal>(async () =>
        deps.events.transaction(async (tx) => {
          const moved = await deps.storeLifecycle.transition(actor, tenantId, 'closed', reason, { ...opts, tx });
          if (!moved.ok) throw new Refused(moved);
          const request = target && (await transitionCancelRequest(tx, target.ctx, 'closed', { from: 'approved' }));
          if (request?.ok) {
            deps.events.emitAfterCommit(tx, 'cancel_request.transitioned', {
              tenantId,
              from: 'approved',
              to: 'closed',
            });
          }
          return moved;
        }),
      );
    },

    initiate: (ctx: RequestContext, id: string, reason: string) => change(ctx, id, 'requested', reason),
    withdraw: (ctx: RequestContext, id: string) => change(ctx, id, 'withdrawn'),
    labels: CANCEL_STATUS_LABELS,
  };
}

export type CancelRequestService = ReturnType<typeof createCancelRequestService>;
