/**
 * One batch of the run committed: its products' writes (import-writes.ts) and the import's
 * counters and refused rows in the same transaction, so a restart resumes after the rows that
 * committed; a batch that fails after writing is rolled back and written again one product at a time.
 * Separate from the service, which reads the file and starts, resumes and ends the run.
 */
import { type Db, schema } from '@app/db';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext } from '../../../lib/context';
import type { EventBus } from '../../../lib/events/index';
import type { DataRow } from './csv-file';
import { applyGroups, RetryRowsAlone, type WriteDeps } from './import-writes';

const pi = schema.productImports;
const pie = schema.productImportErrors;

/** What a batch needs of the service. */
export interface BatchDeps extends WriteDeps {
  db: Db;
  events: EventBus;
  log: FastifyBaseLogger;
}

/** Writes rows in one transaction with the import's counters, so progress and rows commit together. */
async function commitRows(
  deps: BatchDeps,
  ctx: RequestContext,
  importId: string,
  groups: DataRow[][],
  currency: string,
) {
  const rows = groups.flat();
  return deps.events.transaction(async (tx) => {
    const counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
    const changed: string[] = [];
    const stocked: string[] = [];
    const errors: (typeof pie.$inferInsert)[] = [];
    const outcomes = await applyGroups(deps, tx, ctx, groups, currency);
    for (const r of rows) {
      const out = outcomes.get(r.row) ?? { kind: 'unchanged' };
      if (out.kind === 'refused') {
        counts.refused++;
        out.problems.forEach((x, seq) => {
          errors.push({
            tenantId: ctx.tenantId,
            importId,
            rowNumber: r.row,
            seq,
            sku: out.sku,
            columnName: x.column,
            message: x.message,
          });
        });
        continue;
      }
      if (out.kind === 'unchanged') {
        counts.unchanged++;
        continue;
      }
      if (out.kind === 'variant') {
        counts[out.count]++;
        if (out.count !== 'unchanged') changed.push(out.productId);
        if (out.stockMoved) stocked.push(out.productId);
        continue;
      }
      if (out.created) counts.created++;
      else if (out.changed || out.stockMoved) counts.updated++;
      else counts.unchanged++;
      if (out.created || out.changed) changed.push(out.productId);
      if (out.stockMoved) stocked.push(out.productId);
    }
    if (errors.length) await tx.insert(pie).values(errors).onConflictDoNothing();
    const last = rows[rows.length - 1]?.row ?? 0;
    await tx
      .update(pi)
      .set({
        rowsDone: last,
        created: sql`${pi.created} + ${counts.created}`,
        updated: sql`${pi.updated} + ${counts.updated}`,
        unchanged: sql`${pi.unchanged} + ${counts.unchanged}`,
        refused: sql`${pi.refused} + ${counts.refused}`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.importId, importId)));
    // One event per batch: the caches and the search index follow the batch, not each row.
    if (changed.length)
      deps.events.emitAfterCommit(tx, 'catalog.changed', {
        tenantId: ctx.tenantId,
        productIds: [...new Set(changed)],
      });
    if (stocked.length)
      deps.events.emitAfterCommit(tx, 'stock.changed', { tenantId: ctx.tenantId, productIds: [...new Set(stocked)] });
  });
}

/** A row that could not be written for a reason of the database (not of its cells) is reported as such. */
async function refuseRows(deps: BatchDeps, ctx: RequestContext, importId: string, rows: DataRow[], err: unknown) {
  deps.log.warn({ err, importId, row: rows[0]?.row }, 'product import: a product could not be written');
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(pie)
      .values(
        rows.map((r) => ({
          tenantId: ctx.tenantId,
          importId,
          rowNumber: r.row,
          seq: 0,
          sku: r.cells.sku?.trim() || null,
          columnName: err instanceof RetryRowsAlone ? 'stock' : 'row',
          message:
            err instanceof RetryRowsAlone
              ? 'The stock could not be set on this product.'
              : 'This row could not be written; nothing of it was applied. Try it again.',
        })),
      )
      .onConflictDoNothing();
    await tx
      .update(pi)
      .set({
        rowsDone: rows[rows.length - 1]?.row ?? 0,
        refused: sql`${pi.refused} + ${rows.length}`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(pi.tenantId, ctx.tenantId), eq(pi.importId, importId)));
  });
}

export async function writeBatch(
  deps: BatchDeps,
  ctx: RequestContext,
  importId: string,
  groups: DataRow[][],
  currency: string,
) {
  try {
    await commitRows(deps, ctx, importId, groups, currency);
  } catch {
    // Something in the batch failed after writing: the batch rolled back; each product now goes
    // alone, so the good ones are applied and the failing one changes nothing.
    for (const g of groups) {
      try {
        await commitRows(deps, ctx, importId, [g], currency);
      } catch (err) {
        await refuseRows(deps, ctx, importId, g, err);
      }
    }
  }
}
