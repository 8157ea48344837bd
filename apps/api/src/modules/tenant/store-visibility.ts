import type { AccessMode, StoreVisibility } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import type { AuditService } from '../audit/index';
import { DEV_TENANT_ALIAS } from './tenant.service';

export interface StoreVisibilityDeps {
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  audit: Pick<AuditService, 'record'>;
}

/** Only the owner opens or closes the store (decision 027); staff with `settings` may look. */
export function requireOwner(ctx: RequestContext, what: string) {
  requireAccess(ctx, 'settings');
  if (ctx.actor.role !== 'admin') throw AppError.forbidden(`Only the store owner can ${what}.`);
  return ctx;
}

const stateOf = (tenantId: string, accessMode: AccessMode): StoreVisibility => ({
  tenantId,
  isWs2Public: accessMode === 'public',
  accessMode,
});

/**
 * Who may see the tenant's stores (decision 105): the access mode, one of public, login required,
 * approved accounts only, invitation only. It applies to every store of the tenant. The clients'
 * tenant constraints map onto it: adding them closes a public store (login required), removing
 * them opens it.
 */
export function createStoreVisibilityService(db: Db, deps: StoreVisibilityDeps) {
  async function read(tenantId: string): Promise<StoreVisibility> {
    const [row] = await db
      .select({ accessMode: schema.tenants.accessMode })
      .from(schema.tenants)
      .where(eq(schema.tenants.tenantId, tenantId))
      .limit(1);
    if (!row) throw AppError.notFound(`Tenant ${tenantId} not found.`);
    return stateOf(tenantId, row.accessMode);
  }

  /**
   * Sets the mode `decide` picks from the current one, in one transaction with its audit entry.
   * Setting the mode the store already has changes nothing and records nothing.
   */
  function change(ctx: RequestContext, decide: (before: AccessMode) => AccessMode): Promise<StoreVisibility> {
    return deps.events.transaction(async (tx) => {
      const [before] = await tx
        .select({ accessMode: schema.tenants.accessMode })
        .from(schema.tenants)
        .where(eq(schema.tenants.tenantId, ctx.tenantId))
        .for('update');
      if (!before) throw AppError.notFound(`Tenant ${ctx.tenantId} not found.`);
      const after = decide(before.accessMode);
      if (before.accessMode !== after) {
        await tx.update(schema.tenants).set({ accessMode: after }).where(eq(schema.tenants.tenantId, ctx.tenantId));
        await deps.audit.record(tx, ctx, {
          entity: 'tenant',
          entityId: ctx.tenantId,
          action: 'access-mode',
          before: { accessMode: before.accessMode, isWs2Public: before.accessMode === 'public' },
          after: { accessMode: after, isWs2Public: after === 'public' },
        });
        // Every process drops its host lookups, access modes and read cache for the tenant (app.ts subscribes).
        deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'access' });
      }
      return stateOf(ctx.tenantId, after);
    });
  }

  return {
    async visibility(ctx: RequestContext): Promise<StoreVisibility> {
      requireAccess(ctx, 'settings');
      return read(ctx.tenantId);
    },

    /** The owner picks the access mode. */
    async setMode(ctx: RequestContext, accessMode: AccessMode): Promise<StoreVisibility> {
      requireOwner(ctx, 'change who can see the store');
      return change(ctx, () => accessMode);
    },

    /**
     * The clients' constraints: public, or closed. `tenantId` must be the host's own (or
     * `development` on a development host): another tenant's id is a 404, as if it did not exist.
     * Closing a store that is already closed in any mode keeps that mode.
     */
    async setPublic(ctx: RequestContext, tenantId: string, isPublic: boolean): Promise<StoreVisibility> {
      requireOwner(ctx, 'change who can see the store');
      const own = tenantId === ctx.tenantId || (tenantId === DEV_TENANT_ALIAS && ctx.viaDevAlias);
      if (!own) throw AppError.notFound(`Tenant ${tenantId.slice(0, 64)} not found.`);
      return change(ctx, (before) => (isPublic ? 'public' : before === 'public' ? 'login_required' : before));
    },
  };
}

export type StoreVisibilityService = ReturnType<typeof createStoreVisibilityService>;
