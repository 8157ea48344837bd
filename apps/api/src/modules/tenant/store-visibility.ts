import type { StoreVisibility } from '@app/contracts';
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

/**
 * Store visibility: the clients' tenant constraints. Adding them makes every store of the tenant
 * private, removing them public again.
 */
export function createStoreVisibilityService(db: Db, deps: StoreVisibilityDeps) {
  async function read(tenantId: string): Promise<StoreVisibility> {
    const [row] = await db
      .select({ isWs2Public: schema.tenants.isWs2Public })
      .from(schema.tenants)
      .where(eq(schema.tenants.tenantId, tenantId))
      .limit(1);
    if (!row) throw AppError.notFound(`Tenant ${tenantId} not found.`);
    return { tenantId, isWs2Public: row.isWs2Public };
  }

  return {
    async visibility(ctx: RequestContext): Promise<StoreVisibility> {
      requireAccess(ctx, 'settings');
      return read(ctx.tenantId);
    },

    /**
     * Makes the tenant public or private. `tenantId` must be the host's own (or `development` on a
     * development host): another tenant's id is a 404, as if it did not exist. Setting the state it
     * already has changes nothing and records nothing, but still answers the state.
     */
    async setPublic(ctx: RequestContext, tenantId: string, isPublic: boolean): Promise<StoreVisibility> {
      requireOwner(ctx, 'change who can see the store');
      const own = tenantId === ctx.tenantId || (tenantId === DEV_TENANT_ALIAS && ctx.viaDevAlias);
      if (!own) throw AppError.notFound(`Tenant ${tenantId.slice(0, 64)} not found.`);
      return deps.events.transaction(async (tx) => {
        const [before] = await tx
          .select({ isWs2Public: schema.tenants.isWs2Public })
          .from(schema.tenants)
          .where(eq(schema.tenants.tenantId, ctx.tenantId))
          .for('update');
        if (!before) throw AppError.notFound(`Tenant ${ctx.tenantId} not found.`);
        if (before.isWs2Public !== isPublic) {
          await tx
            .update(schema.tenants)
            .set({ isWs2Public: isPublic })
            .where(eq(schema.tenants.tenantId, ctx.tenantId));
          await deps.audit.record(tx, ctx, {
            entity: 'tenant',
            entityId: ctx.tenantId,
            action: isPublic ? 'remove-constraints' : 'add-constraints',
            before: { isWs2Public: before.isWs2Public },
            after: { isWs2Public: isPublic },
          });
          // Every process drops its host lookups and read cache for the tenant (app.ts subscribes).
          deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'access' });
        }
        return { tenantId: ctx.tenantId, isWs2Public: isPublic };
      });
    },
  };
}

export type StoreVisibilityService = ReturnType<typeof createStoreVisibilityService>;
