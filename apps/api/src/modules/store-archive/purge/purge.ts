import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '@app/db';
import { sql } from 'drizzle-orm';
import { DERIVED_LAST } from '../archive-plan';
import { ident, rowsOf, type TenantTable } from '../tenant-tables';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Tables whose rows of a purged store stay, with the reason. Only the platform's own audit log:
 * it is the platform's record of what its operators did (the purge itself among it), holds the
 * store's id and the operator's reason, and nothing of the store's data.
 */
export const PURGE_KEEPS: Readonly<Record<string, string>> = {
  platform_audit_log: "the platform's record of its operators' actions, the purge among them",
};

/** The order a purge (or an import's clearing) deletes in: children first, derived rows, the tenant last. */
export function deleteOrder(tables: readonly TenantTable[], keep: ReadonlySet<string>): TenantTable[] {
  const kept = (t: TenantTable) => keep.has(t.name) || t.name in PURGE_KEEPS;
  const rest = [...tables].reverse().filter((t) => !kept(t) && !DERIVED_LAST.includes(t.name) && t.name !== 'tenants');
  const derived = tables.filter((t) => !kept(t) && DERIVED_LAST.includes(t.name));
  const tenant = tables.filter((t) => !kept(t) && t.name === 'tenants');
  return [...rest, ...derived, ...tenant];
}

/**
 * Deletes the store's rows from the tables in `order`, in the caller's transaction, and answers how
 * many left each table. The store's audit log gives way only here (migration 0052): the
 * transaction names the store it erases.
 */
export async function deleteTenantRows(
  tx: Tx,
  tenantId: string,
  order: readonly TenantTable[],
): Promise<Record<string, number>> {
  await tx.execute(sql`SELECT set_config('app.purging_tenant', ${tenantId}, true)`);
  const deleted: Record<string, number> = {};
  for (const t of order) {
    const [r] = await rowsOf<{ n: number }>(
      tx,
      sql`WITH d AS (DELETE FROM ${ident(t.name)} WHERE tenant_id = ${tenantId} RETURNING 1) SELECT count(*)::int AS n FROM d`,
    );
    if (r && r.n > 0) deleted[t.name] = r.n;
  }
  await tx.execute(sql`SELECT set_config('app.purging_tenant', '', true)`);
  return deleted;
}

/** Where a store's files live under DATA_DIR: its media (keys `t/<tenantId>/...`) and its archives. */
export function tenantFileDirs(dataDir: string, tenantId: string): string[] {
  return [join(dataDir, 'media', 't', tenantId), join(dataDir, 'archives', tenantId)];
}

/** Removes the store's files; a directory already gone is fine (a purge run twice). */
export async function removeTenantFiles(dataDir: string, tenantId: string): Promise<void> {
  for (const dir of tenantFileDirs(dataDir, tenantId)) await rm(dir, { recursive: true, force: true });
}
