import { availableParallelism } from 'node:os';
import { type Db, schema } from '@app/db';
import { eq } from 'drizzle-orm';
import type { TenantContext } from '../../../lib/context';
import { WorkerPool } from '../../../lib/worker-pool';
import type { InvoiceData } from './invoice-pdf';

export interface InvoiceRenderer {
  render(data: InvoiceData): Promise<Buffer>;
  /** Starts the workers ahead of the first invoice. */
  warm(): Promise<void>;
  stats(): { workers: number; busy: number; queued: number };
  close(): Promise<void>;
  /** The store's tax registration number for its invoices (decision 116); '' for none. */
  taxNumber(ctx: TenantContext): Promise<string>;
}

/** One worker per core the event loop does not need. */
export const defaultInvoiceWorkers = () => Math.max(1, availableParallelism() - 1);

/**
 * Invoices render in worker threads: pdfkit's layout is tens of milliseconds of CPU per invoice,
 * which on the event loop is time every other store's requests would wait.
 */
export function createInvoiceRenderer(opts: { workers?: number; queue?: number; db?: Db } = {}): InvoiceRenderer {
  const pool = new WorkerPool<InvoiceData, Uint8Array>({
    entry: new URL('./invoice-pdf.worker.ts', import.meta.url),
    size: opts.workers ?? defaultInvoiceWorkers(),
    maxQueue: opts.queue ?? 100,
    timeoutMs: 30_000,
    // An invoice needs a few MB; the cap keeps a pathological order from growing a worker unbounded.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  return {
    async render(data) {
      const bytes = await pool.run(data);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    warm: () => pool.warm(),
    stats: () => pool.stats(),
    close: () => pool.close(),
    async taxNumber(ctx) {
      if (!opts.db) return '';
      const ts = schema.storeTaxSettings;
      const [row] = await opts.db.select({ n: ts.taxNumber }).from(ts).where(eq(ts.tenantId, ctx.tenantId));
      return row?.n ?? '';
    },
  };
}
