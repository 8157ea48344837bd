/**
 * The store_domains table as this module reads it: a store's rows, one row (locked or not), and the
 * event that tells every process a store's hosts changed. Shared by the service and the checks.
 */
import { type Db, schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import type { EventBus } from '../../lib/events/index';

export const sd = schema.storeDomains;
export type DomainRow = typeof sd.$inferSelect;

export const here = (ctx: TenantContext) =>
  and(eq(sd.tenantId, ctx.tenantId), eq(sd.productStoreId, ctx.productStoreId));

export async function rowOf(tx: Tx | Db, ctx: TenantContext, domain: string, lock = false) {
  const q = tx
    .select()
    .from(sd)
    .where(and(here(ctx), eq(sd.domain, domain)));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

/** Tells every process, once committed, that the store's hosts changed (what it keeps of them is dropped). */
export const hostsChanged = (events: Pick<EventBus, 'emitAfterCommit'>, tx: Tx, ctx: TenantContext) =>
  events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'hosts' });
