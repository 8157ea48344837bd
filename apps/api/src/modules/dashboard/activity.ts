import type { ActivityEntry } from '@app/contracts';
import { hasPermission, type RequestContext } from '../../lib/context';
import type { AuditService } from '../audit/index';

/**
 * The home's feed: the latest audit entries, to those who may read the log (the settings
 * permission); null to anyone else, so the home says the feed is not theirs to see.
 */
export function recentActivity(audit: AuditService) {
  return async (ctx: RequestContext, limit: number): Promise<ActivityEntry[] | null> => {
    if (!hasPermission(ctx, 'settings')) return null;
    const { entries } = await audit.list(ctx, { limit });
    return entries.map((e) => ({
      id: e.id,
      createdAt: e.at,
      actor: {
        userId: e.actor.kind === 'system' ? null : e.actor.id,
        name: e.actor.name ?? e.actor.email ?? e.actor.id ?? 'Someone',
      },
      entity: e.entity,
      entityId: e.entityId,
      action: e.action,
      changes: e.changes,
    }));
  };
}
