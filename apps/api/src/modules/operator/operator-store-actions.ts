// The actions the console takes on a store (suspend, resume, close, purge, a cancel request's
// decision, the owner's invitation) and the opening of a store for a merchant: each goes through the
// module that owns it (the lifecycle's transition, the cancel request, sign-up's provisioning, the
// owner's account mail) and is recorded in the platform's audit log. Which actions a store's page
// offers is decided here too, so the page and the action agree. Separate from the list and the page,
// which only read.
import {
  canTransitionStore,
  OPERATOR_STORE_ACTIONS,
  type OperatorActionResult,
  type OperatorCreateStore,
  type OperatorCreateStoreResult,
  type OperatorStoreAction,
  PURGE_RETENTION_DAYS,
  type StoreState,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { ok, type Refusal, type Result, refuse } from '../../lib/result';
import type { AuthService } from '../auth/index';
import type { CancelRequestService } from '../cancel-request/index';
import type { Provisioner } from '../signup/index';
import type { StoreArchive } from '../store-archive/index';
import type { StoreLifecycleService } from '../store-lifecycle/index';
import { lifecycleActor, type OperatorRequest } from './operator-principal';
import type { PlatformAudit } from './platform-audit.service';

/** What the actions go through: each to the module that owns it. */
export interface StoreActionsDeps {
  audit: PlatformAudit;
  storeLifecycle: StoreLifecycleService;
  cancelRequests?: CancelRequestService;
  /** Sign-up's provisioning, when that module runs: the operator opens stores for merchants with it. */
  provisionStore?: Provisioner['provisionStore'];
  auth: AuthService;
  /**
   * The store's archive, when that module runs: a purge erases the store's rows, files and caches
   * everywhere (decision 122), not only its state.
   */
  storeArchive?: StoreArchive;
}

export type StoreActionRefusal = Refusal<'INVALID_TRANSITION' | 'NOT_FOUND' | 'CONFLICT' | 'RATE_LIMITED'>;

/** Which actions the store's state (and its cancel request) allow now. */
export function allowedActions(
  state: StoreState,
  since: string | null,
  cancelRequested: boolean,
  hasOwner: boolean,
): OperatorStoreAction[] {
  return OPERATOR_STORE_ACTIONS.filter((a) => {
    switch (a) {
      case 'suspend':
        return canTransitionStore(state, 'suspended');
      case 'resume':
        return state === 'suspended';
      case 'approve-cancel':
      case 'decline-cancel':
        return cancelRequested && (state === 'active' || state === 'suspended');
      case 'close':
        return canTransitionStore(state, 'closed');
      case 'purge':
        return state === 'closed' && purgeAllowedFrom(state, since) !== null && purgeDue(since);
      case 'resend-invitation':
        return hasOwner && (state === 'active' || state === 'provisioning' || state === 'suspended');
    }
    return false;
  });
}

export function purgeAllowedFrom(state: StoreState, since: string | null): string | null {
  if (state !== 'closed' || !since) return null;
  return new Date(new Date(since).getTime() + PURGE_RETENTION_DAYS * 86_400_000).toISOString();
}
export const purgeDue = (since: string | null) =>
  since !== null && new Date(since).getTime() + PURGE_RETENTION_DAYS * 86_400_000 <= Date.now();

/** The reads of a store the actions share with its page (operator-stores.service.ts). */
export interface StoreReads {
  owner(tenantId: string): Promise<typeof schema.users.$inferSelect | null>;
  tenantContext(tenantId: string): Promise<TenantContext | null>;
}

/** The store actions and the opening of a store, as the console's service hands them out. */
export function createStoreActions(db: Db, deps: StoreActionsDeps, { owner, tenantContext }: StoreReads) {
  return {
    /**
     * One action on a store, with the operator's reason: recorded in the store's lifecycle history
     * (state changes) and in the platform's audit log (every action).
     */
    async act(
      req: OperatorRequest,
      tenantId: string,
      action: OperatorStoreAction,
      reason: string,
    ): Promise<Result<OperatorActionResult, StoreActionRefusal>> {
      const actor = lifecycleActor(req.principal);
      const opts = { requestId: req.requestId };
      const current = await deps.storeLifecycle.lifecycle(tenantId);
      const [tenant] = await db
        .select({ id: schema.tenants.tenantId })
        .from(schema.tenants)
        .where(eq(schema.tenants.tenantId, tenantId));
      if (!tenant) return refuse(404, 'NOT_FOUND', `Store ${tenantId.slice(0, 64)} was not found.`);
      let message: string;
      switch (action) {
        case 'suspend':
        case 'resume':
        case 'close':
        case 'purge': {
          const to: StoreState =
            action === 'suspend'
              ? 'suspended'
              : action === 'resume'
                ? 'active'
                : action === 'close'
                  ? 'closed'
                  : 'purged';
          if (action === 'resume' && current.state !== 'suspended') {
            return refuse(409, 'INVALID_TRANSITION', `The store is ${current.state}; only a suspended store resumes.`);
          }
          if (action === 'purge' && current.state === 'closed' && !purgeDue(current.since)) {
            return refuse(
              409,
              'INVALID_TRANSITION',
              `A closed store is kept ${PURGE_RETENTION_DAYS} days before it can be purged (from ${purgeAllowedFrom(current.state, current.since)}).`,
            );
          }
          // A purge that stopped half-way (the state moved, the erasing failed) is finished by asking
          // again: erasing is idempotent, and the state has nowhere further to go.
          const again = action === 'purge' && current.state === 'purged' && Boolean(deps.storeArchive);
          const expect = { ...opts, expect: current.state };
          const done = again
            ? ok({ at: current.since ? new Date(current.since) : new Date() })
            : action === 'close' && deps.cancelRequests
              ? await deps.cancelRequests.closeStoreNow(actor, tenantId, reason, expect)
              : await deps.storeLifecycle.transition(actor, tenantId, to, reason, expect);
          if (!done.ok) return done;
          message = `The store is now ${to}.`;
          if (action === 'purge' && deps.storeArchive) {
            // The state first (the store stops answering at once), then every row, file and cache.
            const purged = await deps.storeArchive.purgeStore(tenantId);
            const rows = Object.values(purged.deleted).reduce((a, b) => a + b, 0);
            await deps.audit.record(db, req, {
              action: 'store.purge',
              tenantId,
              reason,
              details: { from: current.state, rowsDeleted: rows },
            });
            return ok({
              action,
              lifecycle: { tenantId, state: 'purged', since: done.value.at.toISOString(), closesAt: null },
              message: `The store is purged: ${rows} rows, its files and its caches are erased.`,
            });
          }
          break;
        }
        case 'approve-cancel': {
          if (!deps.cancelRequests) return refuse(409, 'CONFLICT', 'Cancel requests are not available here.');
          const done = await deps.cancelRequests.approveCancelRequest(actor, tenantId, reason, opts);
          if (!done.ok) return done;
          message = `The cancel request is approved; the store closes on ${done.value.closesAt.slice(0, 10)}.`;
          break;
        }
        case 'decline-cancel': {
          if (!deps.cancelRequests) return refuse(409, 'CONFLICT', 'Cancel requests are not available here.');
          const done = await deps.cancelRequests.declineCancelRequest(actor, tenantId, reason, opts);
          if (!done.ok) return done;
          message = 'The cancel request is declined; the owner has been told why.';
          break;
        }
        case 'resend-invitation': {
          const ownerRow = await owner(tenantId);
          const ctx = await tenantContext(tenantId);
          if (!ownerRow || !ctx) return refuse(404, 'NOT_FOUND', 'This store has no owner account to invite.');
          if (!['active', 'provisioning', 'suspended'].includes(current.state)) {
            return refuse(409, 'INVALID_TRANSITION', `The store is ${current.state}; its owner cannot be invited.`);
          }
          // Not confirmed yet: a fresh confirmation link. Confirmed: a link to choose a password.
          const sent = ownerRow.emailConfirmedAt
            ? await deps.auth.forgotPassword(ctx, ownerRow.email, { ip: req.ip })
            : await deps.auth.resendConfirmation(ctx, ownerRow.email, { ip: req.ip });
          if (!sent.ok) return sent;
          message = `A new invitation was mailed to ${ownerRow.email}.`;
          break;
        }
      }
      await deps.audit.record(db, req, {
        action: `store.${action}`,
        tenantId,
        reason,
        details: { from: current.state },
      });
      return ok({ action, lifecycle: await deps.storeLifecycle.lifecycle(tenantId), message });
    },

    /**
     * Opens a store for a merchant through sign-up's provisioning (one transaction, no half store),
     * then mails its owner a link to choose a password. The subdomain names the request: a retry
     * of the same one answers the store the first opened.
     */
    async createStore(
      req: OperatorRequest,
      input: OperatorCreateStore,
    ): Promise<Result<OperatorCreateStoreResult, Refusal>> {
      if (!deps.provisionStore) return refuse(409, 'CONFLICT', 'Opening stores is not available on this server.');
      const made = await deps.provisionStore({
        storeName: input.storeName,
        subdomain: input.subdomain,
        owner: {
          email: input.ownerEmail,
          passwordHash: null,
          ...(input.ownerFirstName ? { firstName: input.ownerFirstName } : {}),
        },
        template: input.template,
        starter: input.content,
        actor: lifecycleActor(req.principal),
        reason: input.reason,
        idempotencyKey: `operator:${input.subdomain}`,
      });
      if (!made.ok) return made;
      const store = made.value;
      let invitationSent = false;
      if (store.created) {
        const ctx = await tenantContext(store.tenantId);
        const sent = ctx ? await deps.auth.forgotPassword(ctx, input.ownerEmail, { ip: req.ip }) : null;
        invitationSent = Boolean(sent?.ok);
        await deps.audit.record(db, req, {
          action: 'store.create',
          tenantId: store.tenantId,
          reason: input.reason,
          details: { host: store.host, ownerEmail: input.ownerEmail, template: input.template, content: input.content },
        });
      }
      return ok({ tenantId: store.tenantId, host: store.host, invitationSent });
    },
  };
}
