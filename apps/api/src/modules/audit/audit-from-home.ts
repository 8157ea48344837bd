import type { Tx } from '@app/db';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext } from '../../lib/context';
import { afterHomeCommit, type StoreDatabases } from '../../lib/store-databases';
import type { AuditRecordInput, AuditService } from './audit.service';

/**
 * The audit log for the modules that write a store's platform rows on the home database (its
 * domains, lifecycle and cancel request; decision 123). A store's entries belong in the `audit_log`
 * of the database it lives on: its dashboard reads them there, and a move copies them along. For a
 * store on the home database that is the writer's own transaction, as for every other entry. For a
 * moved store the entry is written on its database once the home transaction has committed: an
 * entry in the home copy would be missing from its activity feed, and would make the home database
 * refuse the store's move back ("already holds rows of this store").
 *
 * The price is the gap between the two commits: an entry whose write fails (its database down, or
 * the store switching databases at that moment) is logged as an error and lost, while the change
 * itself stands. A transaction not opened through `homeTransactions` keeps the entry in itself.
 */
export function auditFromHome(
  audit: Pick<AuditService, 'record'>,
  stores: Pick<StoreDatabases, 'placementOf' | 'movedTo'>,
  log: FastifyBaseLogger,
): Pick<AuditService, 'record'> {
  return {
    async record(tx: Tx, ctx: RequestContext, input: AuditRecordInput) {
      const own = stores.movedTo(ctx.tenantId);
      const later =
        own &&
        afterHomeCommit(tx, async () => {
          try {
            await own.db.transaction((storeTx) => audit.record(storeTx, ctx, input));
          } catch (err) {
            log.error(
              {
                err,
                tenantId: ctx.tenantId,
                database: stores.placementOf(ctx.tenantId),
                entity: input.entity,
                action: input.action,
              },
              "audit entry of a moved store's home-database change not written",
            );
          }
        });
      return later ? null : audit.record(tx, ctx, input);
    },
  };
}
