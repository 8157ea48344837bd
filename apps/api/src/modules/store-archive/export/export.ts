import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createGzip } from 'node:zlib';
import type { Db } from '@app/db';
import { sql } from 'drizzle-orm';
import type { MediaObject, MediaStorage } from '../../media/index';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  LEFT_OUT,
  PRODUCT_STORE_COLUMN,
  productStorePlaceholder,
  REDACTED,
  swapTenantKeys,
  TENANT_PLACEHOLDER,
} from '../archive-plan';
import { PURGE_KEEPS } from '../purge/purge';
import { TarWriter } from '../tar';
import { ident, rowsOf, type TenantTable } from '../tenant-tables';

/** Rows read per query: memory stays flat whatever the store's size (keyset pages, never OFFSET). */
export const EXPORT_PAGE = 500;

/** Columns an archive never carries, whatever the table: the store's id (the importer's store names it). */
const ALWAYS_OMITTED = ['tenant_id'];

/**
 * Columns left out because they are the deployment's own, not the store's: the target keeps its
 * own when it imports. (The store's name, access mode and ERP link travel; when it was created here
 * does not.)
 */
export const DEPLOYMENT_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  tenants: ['created_at'],
};

export interface ArchiveFileEntry {
  /** The file's path inside the archive. */
  file: string;
  bytes: number;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
}

export interface ArchiveTableEntry extends ArchiveFileEntry {
  table: string;
  /** The columns each row may hold (the table's, less the omitted and generated ones), in table order. */
  columns: string[];
  rows: number;
}

export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  /** The store the archive was made from (an import writes its own id wherever this one stood). */
  storeId: string;
  storeName: string;
  exportedAt: string;
  /** One JSON object a line, columns by name: `data/<table>.jsonl`. */
  tables: ArchiveTableEntry[];
  /** The media library's files, `media/<key>` with the store's id as `{tenant}`. */
  media: ArchiveFileEntry[];
  /** What the archive does not hold, and why (tables and columns). */
  leftOut: Record<string, string>;
  redacted: Record<string, string[]>;
}

export interface ExportDeps {
  db: Db;
  dataDir: string;
  storage: MediaStorage;
  /** Makes a media file that is not stored but can be made (the demo seed's pictures). */
  generate?: ((key: string) => Promise<MediaObject | null>) | undefined;
  tables(): Promise<TenantTable[]>;
}

export interface ExportResult {
  /** The archive's file name under the store's archive folder (what the download route serves). */
  archive: string;
  bytes: number;
  sha256: string;
  rows: number;
  mediaFiles: number;
}

/** The tables an archive holds: every store table but those left out on purpose. */
export function exportedTables(tables: readonly TenantTable[]): TenantTable[] {
  return tables.filter((t) => !(t.name in LEFT_OUT) && !(t.name in PURGE_KEEPS));
}

/** The columns of a table an archive holds. */
export function archivedColumns(t: TenantTable): string[] {
  const omitted = new Set([
    ...ALWAYS_OMITTED,
    ...Object.keys(REDACTED[t.name] ?? {}),
    ...(DEPLOYMENT_COLUMNS[t.name] ?? []),
  ]);
  return t.columns.filter((c) => !c.generated && !omitted.has(c.name)).map((c) => c.name);
}

/** The folder a store's archives are kept in; one per store so a purge removes them with it. */
export const archiveDir = (dataDir: string, tenantId: string) => join(dataDir, 'archives', tenantId);

/** A tenant id as a folder name: only the characters store ids are made of. */
export function assertSafeTenantId(tenantId: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/.test(tenantId)) throw new Error(`unsafe tenant id ${tenantId.slice(0, 64)}`);
}

/** A file written line by line with its size and SHA-256 counted on the way. */
class CountedFile {
  private readonly out;
  private readonly hash = createHash('sha256');
  bytes = 0;
  constructor(path: string) {
    this.out = createWriteStream(path);
  }
  async write(text: string) {
    const buf = Buffer.from(text, 'utf8');
    this.hash.update(buf);
    this.bytes += buf.length;
    if (!this.out.write(buf)) await new Promise<void>((r) => this.out.once('drain', () => r()));
  }
  async close(): Promise<string> {
    await new Promise<void>((res, rej) => {
      this.out.once('error', rej);
      this.out.end(() => res());
    });
    return this.hash.digest('hex');
  }
}

/**
 * One keyset page of a table's rows as JSON text, columns by name (jsonb's order: the same store
 * gives the same text), after `after` (the last row of the page before, as JSON). Read with the
 * session's time zone at UTC, so times are written the same way by every deployment.
 */
async function readPage(db: Db, t: TenantTable, tenantId: string, after: string | null) {
  const omit = t.columns.map((c) => c.name).filter((c) => !archivedColumns(t).includes(c));
  const omitSql = sql.raw(`ARRAY[${omit.map((c) => `'${c.replace(/'/g, "''")}'`).join(', ')}]::text[]`);
  const keyCols = t.primaryKey.filter((c) => c !== 'tenant_id');
  const key = sql.raw(keyCols.map((c) => `r."${c}"`).join(', '));
  const afterKey = sql.raw(keyCols.map((c) => `a."${c}"`).join(', '));
  const where =
    after === null || keyCols.length === 0
      ? sql``
      : sql`AND (${key}) > (SELECT ${afterKey} FROM jsonb_populate_record(NULL::${ident(t.name)}, ${after}::jsonb) a)`;
  // A table without a primary key is read whole in one ordered query (none exists today; the
  // plan's test says so).
  const order = keyCols.length ? key : sql.raw('1');
  const limit = keyCols.length ? sql`LIMIT ${EXPORT_PAGE}` : sql``;
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL TimeZone TO 'UTC'`);
    return rowsOf<{ j: string }>(
      tx,
      sql`SELECT (to_jsonb(r) - ${omitSql})::text AS j FROM ${ident(t.name)} r
          WHERE r.tenant_id = ${tenantId} ${where} ORDER BY ${order} ${limit}`,
    );
  });
}

/**
 * Builds the store's archive (decision 122): each table a JSON Lines file read by keyset pages and
 * written to disk as it is read, the media library's files, then manifest.json, packed as one
 * .tar.gz under DATA_DIR/archives/<store>/. Nothing of the store is held in memory but one page.
 * `progress` is told rows and files done of the total.
 */
export async function exportStore(
  deps: ExportDeps,
  tenantId: string,
  name: string,
  progress: (done: number, total: number) => Promise<void>,
): Promise<ExportResult> {
  assertSafeTenantId(tenantId);
  const tables = exportedTables(await deps.tables());
  const dir = archiveDir(deps.dataDir, tenantId);
  const work = join(dir, `.work-${randomBytes(6).toString('hex')}`);
  await mkdir(join(work, 'data'), { recursive: true });
  try {
    const counts = new Map<string, number>();
    for (const t of tables) {
      const [r] = await rowsOf<{ n: number }>(
        deps.db,
        sql`SELECT count(*)::int AS n FROM ${ident(t.name)} WHERE tenant_id = ${tenantId}`,
      );
      counts.set(t.name, r?.n ?? 0);
    }
    const [mediaCount] = await rowsOf<{ n: number }>(
      deps.db,
      sql`SELECT count(*)::int AS n FROM media WHERE tenant_id = ${tenantId}`,
    );
    const total = [...counts.values()].reduce((a, b) => a + b, 0) + (mediaCount?.n ?? 0);
    let done = 0;
    let lastTold = 0;
    // Rows written while the export runs may make it longer than counted: never past 100%.
    const tell = async () => {
      if (done - lastTold >= EXPORT_PAGE) {
        lastTold = done;
        await progress(Math.min(done, total), total);
      }
    };
    await progress(0, total);

    const storeIds = await rowsOf<{ id: string }>(
      deps.db,
      sql`SELECT product_store_id AS id FROM product_stores WHERE tenant_id = ${tenantId} ORDER BY product_store_id`,
    );
    const storePlaceholders = new Map(storeIds.map((s, i) => [s.id, productStorePlaceholder(i + 1)]));

    const tableEntries: ArchiveTableEntry[] = [];
    for (const t of tables) {
      const file = `data/${t.name}.jsonl`;
      const out = new CountedFile(join(work, file));
      let rows = 0;
      let after: string | null = null;
      for (;;) {
        const page = await readPage(deps.db, t, tenantId, after);
        for (const r of page) {
          const row = JSON.parse(swapTenantKeys(r.j, tenantId, TENANT_PLACEHOLDER)) as Record<string, unknown>;
          const ps = row[PRODUCT_STORE_COLUMN];
          if (typeof ps === 'string') row[PRODUCT_STORE_COLUMN] = storePlaceholders.get(ps) ?? ps;
          await out.write(`${JSON.stringify(row)}\n`);
        }
        rows += page.length;
        done += page.length;
        await tell();
        if (page.length < EXPORT_PAGE || t.primaryKey.length <= 1) break;
        after = (page[page.length - 1] as { j: string }).j;
      }
      const sha256 = await out.close();
      tableEntries.push({ table: t.name, file, columns: archivedColumns(t), rows, bytes: out.bytes, sha256 });
    }

    const mediaEntries: ArchiveFileEntry[] = [];
    let afterId = '';
    for (;;) {
      const page = await rowsOf<{ media_id: string; storage_key: string }>(
        deps.db,
        sql`SELECT media_id, storage_key FROM media WHERE tenant_id = ${tenantId} AND media_id > ${afterId}
            ORDER BY media_id LIMIT ${EXPORT_PAGE}`,
      );
      for (const m of page) {
        const obj = (await deps.storage.get(m.storage_key)) ?? (await deps.generate?.(m.storage_key)) ?? null;
        if (!obj) throw new Error(`media ${m.media_id} has no file at ${m.storage_key}`);
        const file = `media/${swapTenantKeys(`/${m.storage_key}`, tenantId, TENANT_PLACEHOLDER).slice(1)}`;
        await mkdir(dirname(join(work, file)), { recursive: true });
        await writeFile(join(work, file), obj.body);
        mediaEntries.push({
          file,
          bytes: obj.body.length,
          sha256: createHash('sha256').update(obj.body).digest('hex'),
        });
        done += 1;
      }
      await tell();
      if (page.length < EXPORT_PAGE) break;
      afterId = (page[page.length - 1] as { media_id: string }).media_id;
    }

    const [store] = await rowsOf<{ name: string }>(
      deps.db,
      sql`SELECT name FROM tenants WHERE tenant_id = ${tenantId}`,
    );
    const manifest: ArchiveManifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      storeId: tenantId,
      storeName: store?.name ?? tenantId,
      exportedAt: new Date().toISOString(),
      tables: tableEntries,
      media: mediaEntries,
      leftOut: { ...LEFT_OUT, ...PURGE_KEEPS },
      redacted: Object.fromEntries(
        Object.entries({ ...REDACTED, ...DEPLOYMENT_COLUMNS }).map(([t, cols]) => [
          t,
          Array.isArray(cols) ? [...cols] : Object.keys(cols),
        ]),
      ),
    };

    // Pack: the manifest first (a reader learns what follows before reading it), then the files.
    const part = join(dir, `${name}.part`);
    const gzip = createGzip();
    const sink = createWriteStream(part);
    const hash = createHash('sha256');
    let bytes = 0;
    gzip.on('data', (c: Buffer) => {
      hash.update(c);
      bytes += c.length;
    });
    gzip.pipe(sink);
    const closed = new Promise<void>((res, rej) => {
      sink.once('close', res);
      sink.once('error', rej);
    });
    const tar = new TarWriter(gzip);
    await tar.addBuffer('manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    for (const e of [...tableEntries, ...mediaEntries]) {
      await tar.addFile(e.file, join(work, e.file), (await stat(join(work, e.file))).size);
    }
    await tar.finish();
    await closed;
    const archive = `${name}.tar.gz`;
    await rename(part, join(dir, archive));
    // Only the newest archive is kept: an older one would be the store's data twice on disk.
    for (const f of await readdir(dir)) {
      if (f !== archive && f.endsWith('.tar.gz')) await rm(join(dir, f), { force: true });
    }
    await progress(done, Math.max(done, total));
    return {
      archive,
      bytes,
      sha256: hash.digest('hex'),
      rows: done - mediaEntries.length,
      mediaFiles: mediaEntries.length,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
