import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Db } from '@app/db';
import { sql } from 'drizzle-orm';
import { ok, type Refusal, type Result, refuse } from '../../../lib/result';
import type { MediaStorage } from '../../media/index';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  DERIVED_LAST,
  PRODUCT_STORE_COLUMN,
  REDACTED,
  swapTenantKeys,
  TENANT_PLACEHOLDER,
  UPSERTED,
} from '../archive-plan';
import { type ArchiveManifest, assertSafeTenantId, exportedTables } from '../export/export';
import { deleteOrder, deleteTenantRows } from '../purge/purge';
import { extractTar, TarError } from '../tar';
import { ident, rowsOf, type TenantTable } from '../tenant-tables';

/** Rows written per statement. */
const IMPORT_BATCH = 500;

export type ImportRefusal = Refusal<'UNPROCESSABLE' | 'CONFLICT' | 'NOT_FOUND'>;

export interface ImportDeps {
  db: Db;
  dataDir: string;
  storage: MediaStorage;
  tables(): Promise<TenantTable[]>;
  /** The largest archive (unpacked) an import takes. */
  maxBytes: number;
}

export interface ImportResult {
  storeId: string;
  fromStoreId: string;
  rows: number;
  mediaFiles: number;
  tables: number;
}

const bad = (message: string) => refuse(422, 'UNPROCESSABLE', `archive: ${message}`);

/** Whether the store is empty enough to take an archive: no orders and no customer accounts yet. */
async function emptyStore(db: Db, tenantId: string): Promise<Result<true, ImportRefusal>> {
  const [t] = await rowsOf<{ orders: number; customers: number; found: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM tenants WHERE tenant_id = ${tenantId}) AS found,
          (SELECT count(*)::int FROM orders WHERE tenant_id = ${tenantId}) AS orders,
          (SELECT count(*)::int FROM users WHERE tenant_id = ${tenantId} AND role = 'shopper') AS customers`,
  );
  if (!t?.found) return refuse(404, 'NOT_FOUND', `Store ${tenantId.slice(0, 64)} was not found.`);
  if (t.orders > 0 || t.customers > 0) {
    return refuse(
      409,
      'CONFLICT',
      `The store already has ${t.orders} orders and ${t.customers} customers: an archive imports only into an empty store.`,
    );
  }
  return ok(true);
}

async function sha256Of(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const c of createReadStream(path)) h.update(c as Buffer);
  return h.digest('hex');
}

/** Reads and checks manifest.json and every file it names (size and checksum) before anything is written. */
async function readManifest(
  work: string,
  files: { name: string; size: number }[],
  tables: Map<string, TenantTable>,
): Promise<Result<ArchiveManifest, ImportRefusal>> {
  if (files[0]?.name !== 'manifest.json') return bad('manifest.json must be its first file.');
  let m: ArchiveManifest;
  try {
    m = JSON.parse(await readFile(join(work, 'manifest.json'), 'utf8')) as ArchiveManifest;
  } catch {
    return bad('manifest.json is not JSON.');
  }
  if (m?.format !== ARCHIVE_FORMAT) return bad(`it is not a store archive (format ${String(m?.format)}).`);
  if (m.version !== ARCHIVE_VERSION)
    return bad(`version ${String(m.version)} is not one this server reads (${ARCHIVE_VERSION}).`);
  if (!Array.isArray(m.tables) || !Array.isArray(m.media)) return bad('the manifest lists no tables or media.');
  const sizes = new Map(files.map((f) => [f.name, f.size]));
  for (const e of [...m.tables, ...m.media]) {
    if (typeof e?.file !== 'string' || sizes.get(e.file) !== e.bytes)
      return bad(`${String(e?.file)} is missing or of the wrong size.`);
    if ((await sha256Of(join(work, e.file))) !== e.sha256) return bad(`${e.file} does not match its checksum.`);
  }
  for (const e of m.tables) {
    const t = tables.get(e.table);
    if (!t || e.file !== `data/${e.table}.jsonl`)
      return bad(`table ${String(e.table)} is not one this server knows (a newer version made it?).`);
    const known = new Set(t.columns.filter((c) => !c.generated).map((c) => c.name));
    const unknown = (e.columns ?? []).filter((c) => !known.has(c) || c === 'tenant_id');
    if (!Array.isArray(e.columns) || unknown.length)
      return bad(`${e.table} has columns this server does not know: ${unknown.join(', ')}.`);
  }
  for (const e of m.media) {
    if (!e.file.startsWith('media/')) return bad(`${e.file} is not a media file.`);
  }
  return ok(m);
}

/** One batch of rows into a table: the archive's columns, the target's id, upserted on the primary key. */
async function insertBatch(
  tx: Parameters<Parameters<Db['transaction']>[0]>[0],
  t: TenantTable,
  columns: string[],
  rows: Record<string, unknown>[],
) {
  const cols = ['tenant_id', ...columns];
  const list = sql.raw(cols.map((c) => `"${c}"`).join(', '));
  const overriding = t.columns.some((c) => c.identityAlways && cols.includes(c.name))
    ? sql.raw('OVERRIDING SYSTEM VALUE')
    : sql``;
  const updates = cols.filter((c) => !t.primaryKey.includes(c));
  const conflict =
    t.primaryKey.length === 0 || !UPSERTED.includes(t.name)
      ? sql``
      : updates.length === 0
        ? sql.raw(`ON CONFLICT (${t.primaryKey.map((c) => `"${c}"`).join(', ')}) DO NOTHING`)
        : sql.raw(
            `ON CONFLICT (${t.primaryKey.map((c) => `"${c}"`).join(', ')}) DO UPDATE SET ${updates
              .map((c) => `"${c}" = EXCLUDED."${c}"`)
              .join(', ')}`,
          );
  await tx.execute(
    sql`INSERT INTO ${ident(t.name)} (${list}) ${overriding}
        SELECT ${list} FROM jsonb_populate_recordset(NULL::${ident(t.name)}, ${JSON.stringify(rows)}::jsonb)
        ${conflict}`,
  );
}

/**
 * Imports a store's archive into an empty store (decision 122): unpacks it to disk, checks the
 * manifest and every checksum, then in one transaction clears the store's rows of every archived
 * table (what provisioning wrote) and inserts the archive's, ids kept (order numbers stay), the
 * store's id written wherever the archive's stood. Its media files are stored first (an import that
 * fails after leaves files no row names, harmless). The store's hosts, state and connections stay.
 */
export async function importStore(
  deps: ImportDeps,
  tenantId: string,
  input: NodeJS.ReadableStream,
): Promise<Result<ImportResult, ImportRefusal>> {
  assertSafeTenantId(tenantId);
  const empty = await emptyStore(deps.db, tenantId);
  if (!empty.ok) {
    // The body is not read: the client's stream is left for the server to discard.
    return empty;
  }
  const all = await deps.tables();
  const archived = exportedTables(all);
  const byName = new Map(archived.map((t) => [t.name, t]));
  const work = join(deps.dataDir, 'archives', '.imports', randomBytes(8).toString('hex'));
  await mkdir(work, { recursive: true });
  try {
    let files: { name: string; size: number }[];
    try {
      const gunzip = createGunzip();
      input.on('error', (err: Error) => gunzip.destroy(err));
      files = await extractTar(input.pipe(gunzip), work, deps.maxBytes);
    } catch (err) {
      if (err instanceof TarError) return bad(`${err.message}.`);
      if (
        (err as NodeJS.ErrnoException).code === 'Z_DATA_ERROR' ||
        (err as NodeJS.ErrnoException).code === 'Z_BUF_ERROR'
      ) {
        return bad('it is not a .tar.gz file.');
      }
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return bad('it names one file twice.');
      throw err;
    }
    const read = await readManifest(work, files, byName);
    if (!read.ok) return read;
    const m = read.value;

    // Only the store's own uploads are written (`t/<store>/...`): a file under any other key (the
    // demo's pictures, which the server makes itself) could be another store's, and is left alone.
    const ownMedia = `media/t/${TENANT_PLACEHOLDER}/`;
    for (const e of m.media) {
      if (!e.file.startsWith(ownMedia)) continue;
      const key = `t/${tenantId}/${e.file.slice(ownMedia.length)}`;
      await deps.storage.put(key, {
        body: await readFile(join(work, e.file)),
        contentType: 'application/octet-stream',
      });
    }

    const entries = new Map(m.tables.map((e) => [e.table, e]));
    // Parents first, the rows triggers derive last (they overwrite what the triggers wrote).
    const order = [
      ...archived.filter((t) => !DERIVED_LAST.includes(t.name)),
      ...archived.filter((t) => DERIVED_LAST.includes(t.name)),
    ];
    // The archive's product stores become the target's: its first the one the target's hosts name.
    const [own] = await rowsOf<{ id: string }>(
      deps.db,
      sql`SELECT product_store_id AS id FROM store_hosts WHERE tenant_id = ${tenantId}
          UNION ALL SELECT product_store_id FROM product_stores WHERE tenant_id = ${tenantId}
          LIMIT 1`,
    );
    const storeIdOf = (placeholder: string): string => {
      const n = /^\{store-(\d{1,4})\}$/.exec(placeholder)?.[1];
      if (!n) return placeholder;
      return n === '1' && own ? own.id : `${tenantId}-${n}`;
    };
    let rows = 0;
    await deps.db.transaction(async (tx) => {
      // Everything of the archived tables goes, but the store's own row and its product store,
      // which its hosts point at: both are overwritten by the archive's below.
      const keep = new Set([...all.filter((t) => !byName.has(t.name)).map((t) => t.name), 'tenants', 'product_stores']);
      await deleteTenantRows(tx, tenantId, deleteOrder(all, keep));
      for (const t of order) {
        const e = entries.get(t.name);
        if (!e || e.rows === 0) continue;
        const fill = REDACTED[t.name] ?? {};
        const fillCols = Object.keys(fill).filter((c) => t.columns.some((x) => x.name === c) && !e.columns.includes(c));
        const columns = [...e.columns, ...fillCols];
        let batch: Record<string, unknown>[] = [];
        const lines = createInterface({ input: createReadStream(join(work, e.file), 'utf8'), crlfDelay: Infinity });
        for await (const line of lines) {
          if (!line) continue;
          const row = JSON.parse(swapTenantKeys(line, TENANT_PLACEHOLDER, tenantId)) as Record<string, unknown>;
          for (const c of fillCols) row[c] = fill[c];
          const ps = row[PRODUCT_STORE_COLUMN];
          if (typeof ps === 'string') row[PRODUCT_STORE_COLUMN] = storeIdOf(ps);
          row.tenant_id = tenantId;
          batch.push(row);
          if (batch.length >= IMPORT_BATCH) {
            await insertBatch(tx, t, columns, batch);
            rows += batch.length;
            batch = [];
          }
        }
        if (batch.length) {
          await insertBatch(tx, t, columns, batch);
          rows += batch.length;
        }
      }
      // Ids the archive brought are taken: sequences move past them (audit entries, PayPal history).
      for (const t of order) {
        for (const c of t.columns) {
          if (!c.sequence) continue;
          await tx.execute(
            sql`SELECT setval(${c.sequence}::regclass, GREATEST(
                  (SELECT last_value FROM ${sql.raw(c.sequence)}),
                  (SELECT coalesce(max(${ident(c.name)}), 1) FROM ${ident(t.name)})))`,
          );
        }
      }
    });
    return ok({ storeId: tenantId, fromStoreId: m.storeId, rows, mediaFiles: m.media.length, tables: m.tables.length });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
