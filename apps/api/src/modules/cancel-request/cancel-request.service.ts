import type { CancelRequest, CancelRequestState, CancelRequestStatus } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../lib/result';
import type { AuditService } from '../audit/index';
import type { MailQueue } from '../mail/index';
import { CANCEL_STATUS_LABELS, canTransitionCancelRequest } from './cancel-request-state';
import { type CancelRequestRow, transitionCancelRequest } from './cancel-request-transition';

const cr = schema.cancelRequests;

export interface CancelRequestDeps {
  events: EventBus;
  audit: AuditService;
  mailer: MailQueue;
}

function view(tenantId: string, row: CancelRequestRow | undefined): CancelRequest {
  const status: CancelRequestStatus = row?.status ?? 'none';
  return {
    tenantId,
    status,
    reason: row?.reason ?? null,
    requestedAt: row?.requestedAt?.toISOString() ?? null,
    updatedAt: row ? row.updatedAt.toISOString() : null,
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

export function createCancelRequestService(db: Db, deps: CancelRequestDeps) {
  async function read(tenantId: string) {
    const [row] = await db.select().from(cr).where(eq(cr.tenantId, tenantId));
    return row;
  }

  async function change(
    ctx: RequestContext,
    id: string,
    to: 'requested' | 'withdrawn',
    reason?: string,
  ): Promise<Result<CancelRequest, CancelRequestRefusal>> {
    const owner = requireOwner(ctx);
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
      return view(ctx.tenantId, await read(ctx.tenantId));
    },

    /** What anyone may read of it (GET /api/fetch/tenant): the state, not the reason. */
    async state(tenantId: string): Promise<CancelRequestState> {
      const v = view(tenantId, await read(tenantId));
      return { status: v.status, requestedAt: v.requestedAt, updatedAt: v.updatedAt };
    },

    initiate: (ctx: RequestContext, id: string, reason: string) => change(ctx, id, 'requested', reason),
    withdraw: (ctx: RequestContext, id: string) => change(ctx, id, 'withdrawn'),
    labels: CANCEL_STATUS_LABELS,
  };
}

export type CancelRequestService = ReturnType<typeof createCancelRequestService>;
