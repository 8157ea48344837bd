import type { Db } from '@app/db';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { AuditService } from '../audit/index';
import type { StoreArchive } from './store-archive.service';

/**
 * The whole store leaves only with its owner: staff hold the settings permission to change
 * settings, not to take every customer's address home (decision 122).
 */
export function requireOwner(ctx: RequestContext) {
  if (ctx.actor.kind !== 'staff' || ctx.actor.role !== 'admin') {
    throw AppError.forbidden("Only the store's owner can export the whole store.");
  }
}

/** The owner's export, from the API or the dashboard: the job and its audit entry exist together. */
export async function startOwnerExport(
  ctx: RequestContext,
  { archive, audit, db }: { archive: StoreArchive; audit: AuditService; db: Db },
) {
  // The export counts the audit entry among the rows it writes.
  const started = await db.transaction(async (tx) => {
    const job = await archive.startExport(ctx, undefined, { tx });
    await audit.record(tx, ctx, {
      entity: 'store',
      entityId: ctx.tenantId,
      action: 'store.export',
      after: { jobId: job.jobId },
    });
    return job;
  });
  archive.committed();
  return started;
}
