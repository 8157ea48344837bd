import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SEEDED_HOSTS, signIn, type TestApp } from '../../test/harness';
import { LEFT_OUT } from './archive-plan';
import type { ArchiveManifest } from './export/export';
import { PURGE_KEEPS } from './purge/purge';
import { platformContext } from './store-archive.service';
import { extractTar } from './tar';
import { rowsOf } from './tenant-tables';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const garden = SEEDED_HOSTS.garden.host;

/** Rows of `tenantId` in every table that has a tenant_id column, by table, from the catalog. */
async function rowsByTable(tenantId: string): Promise<Record<string, number>> {
  const tables = await rowsOf<{ name: string }>(
    t.database.db,
    sql`SELECT c.relname AS name FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND a.attname = 'tenant_id'
        ORDER BY 1`,
  );
  const out: Record<string, number> = {};
  for (const { name } of tables) {
    const [r] = await rowsOf<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM ${sql.raw(`"${name}"`)} WHERE tenant_id = ${tenantId}`,
    );
    out[name] = r?.n ?? 0;
  }
  return out;
}

/** Unpacks an archive (bytes of a .tar.gz) and answers its manifest and the folder it is in. */
async function unpack(bytes: Buffer): Promise<{ manifest: ArchiveManifest; dir: string; files: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'archive-test-'));
  const files = await extractTar(Readable.from([gunzipSync(bytes)]), dir, 1e9);
  return {
    manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')),
    dir,
    files: files.map((f) => f.name),
  };
}

/** Runs the store's export to its end through the job runner and answers the archive's bytes. */
async function exportOf(tenantId: string): Promise<Buffer> {
  const a = t.services.storeArchive;
  const job = await a.startExport(platformContext(tenantId));
  await t.services.jobs.drain({ dueWithinMs: 0 });
  const file = await a.archiveFile(platformContext(tenantId), job.jobId);
  if (!file) {
    const [row] = await rowsOf<{ e: string }>(
      t.database.db,
      sql`SELECT last_error AS e FROM jobs WHERE job_id = ${job.jobId}`,
    );
    throw new Error(`the export of ${tenantId} did not finish: ${row?.e}`);
  }
  return readFileSync(file.path);
}

describe('the archive plan', () => {
  it('archives every table that has a tenant_id unless it is left out with a reason, each with a primary key', async () => {
    const tables = await t.services.storeArchive.tables();
    const names = tables.map((x) => x.name);
    // Whatever is named as left out exists (a renamed table would otherwise slip into the archive unnoticed).
    for (const name of [...Object.keys(LEFT_OUT), ...Object.keys(PURGE_KEEPS)]) expect(names).toContain(name);
    const archived = tables.filter((x) => !(x.name in LEFT_OUT) && !(x.name in PURGE_KEEPS));
    expect(archived.map((x) => x.name)).toEqual(
      expect.arrayContaining([
        'products',
        'product_variants',
        'product_options',
        'media',
        'categories',
        'cms_pages',
        'banners',
        'store_settings',
        'users',
        'postal_addresses',
        'orders',
        'order_lines',
        'order_refunds',
        'return_requests',
        'product_reviews',
        'promo_codes',
        'newsletter_subscribers',
        'audit_log',
        'tenants',
      ]),
    );
    for (const x of archived) expect(x.primaryKey, x.name).not.toEqual([]);
    // Parents come before children: every table is after the tables it refers to.
    const at = new Map(names.map((n, i) => [n, i]));
    for (const x of tables)
      for (const p of x.refersTo) expect(at.get(p), `${x.name} -> ${p}`).toBeLessThan(at.get(x.name) ?? -1);
  });
});

describe("the owner's export", () => {
  it('runs as a job with progress, and its archive holds the store in documented files, without passwords', async () => {
    const owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', garden);
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/v1/store/archive/exports',
      headers: { host: garden, ...owner },
    });
    expect(start.statusCode).toBe(200);
    expect(start.json().data.status).toBe('pending');
    await t.services.jobs.drain({ dueWithinMs: 0 });

    const latest = await t.app.inject({
      url: '/api/v1/store/archive/exports/latest',
      headers: { host: garden, ...owner },
    });
    const done = latest.json().data;
    expect(done).toMatchObject({ status: 'succeeded', error: null });
    expect(done.done).toBe(done.total);
    expect(done.total).toBeGreaterThan(1000);
    expect(done.downloadUrl).toBe(`/api/v1/store/archive/exports/${done.jobId}/download`);

    const download = await t.app.inject({ url: done.downloadUrl, headers: { host: garden, ...owner } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toContain('attachment; filename="store-garden-');
    const { manifest, dir, files } = await unpack(download.rawPayload);
    try {
      expect(manifest).toMatchObject({
        format: 'store-archive',
        version: 1,
        storeId: 'garden',
        storeName: 'Fernwood Garden Supply',
      });
      expect(files[0]).toBe('manifest.json');
      const counts = await rowsByTable('garden');
      for (const e of manifest.tables) {
        expect(e.rows, e.table).toBe(counts[e.table]);
        const lines = readFileSync(join(dir, e.file), 'utf8').split('\n').filter(Boolean);
        expect(lines.length, e.table).toBe(e.rows);
      }
      const byTable = Object.fromEntries(manifest.tables.map((e) => [e.table, e]));
      expect(byTable.orders?.rows).toBe(8);
      const order = JSON.parse(readFileSync(join(dir, 'data/orders.jsonl'), 'utf8').split('\n')[0] ?? '{}');
      expect(order.order_id).toEqual(expect.any(String));
      expect(order).not.toHaveProperty('tenant_id');
      // No password or password hash leaves the store, nor its sessions.
      const users = readFileSync(join(dir, 'data/users.jsonl'), 'utf8');
      expect(users).toContain('owner@garden.test');
      expect(users).not.toContain('password');
      expect(users).not.toContain('$argon2');
      expect(files).not.toContain('data/sessions.jsonl');
      expect(manifest.redacted.users).toEqual(['password_hash']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // Another store's owner, and the garden's shopper, cannot have it.
    const lighting = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', SEEDED_HOSTS.lighting.host);
    const other = await t.app.inject({
      url: done.downloadUrl,
      headers: { host: SEEDED_HOSTS.lighting.host, ...lighting },
    });
    expect(other.statusCode).toBe(404);
    const shopper = await signIn(t.app, 'shopper@garden.test', 'shopper-demo-1', garden);
    const refused = await t.app.inject({ url: done.downloadUrl, headers: { host: garden, ...shopper } });
    expect(refused.statusCode).toBe(403);
  });

  it("carries the media library: each picture's file, an upload's key written without the store's id", async () => {
    // An upload as the media library keeps it (`t/<store>/m/<id>.webp`), beside the demo's pictures.
    const body = Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBP an uploaded picture');
    await t.services.storage.put('t/lighting/m/up-1.webp', { body, contentType: 'image/webp' });
    await t.database.db.execute(
      sql`INSERT INTO media (tenant_id, media_id, storage_key, content_type, width, height, bytes, source_format)
          VALUES ('lighting', 'up-1', 't/lighting/m/up-1.webp', 'image/webp', 10, 10, ${body.length}, 'png')`,
    );
    const { manifest, dir } = await unpack(await exportOf('lighting'));
    try {
      expect(manifest.media.length).toBe(4);
      const upload = manifest.media.find((m) => m.file.includes('up-1'));
      expect(upload?.file).toBe('media/t/{tenant}/m/up-1.webp');
      expect(readFileSync(join(dir, upload?.file ?? ''))).toEqual(body);
      for (const m of manifest.media) expect(existsSync(join(dir, m.file))).toBe(true);
      const media = readFileSync(join(dir, 'data/media.jsonl'), 'utf8');
      expect(media).toContain('"storage_key":"t/{tenant}/m/up-1.webp"');
      expect(media).not.toContain('t/lighting/');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('import', () => {
  /** A new, empty store as the operator opens one for a merchant. */
  async function emptyStore(subdomain: string) {
    const opened = await t.services.provisionStore({
      storeName: 'Moving In',
      subdomain,
      owner: { email: `${subdomain}@example.com`, passwordHash: null },
      template: 'DEFAULT',
      starter: 'demo',
      actor: { kind: 'system', name: 'test' },
      reason: 'test',
      idempotencyKey: `archive:${subdomain}`,
    });
    if (!opened.ok) throw new Error(opened.message);
    return opened.value;
  }

  /** What must be the same in two archives of the same store: everything but who and when. */
  const content = (m: ArchiveManifest) => ({
    tables: m.tables,
    media: m.media,
    leftOut: m.leftOut,
    redacted: m.redacted,
    storeName: m.storeName,
  });

  it.each(['lighting', 'garden', 'power'] as const)(
    'gives the same archive after export, import into an empty store and export again (%s)',
    async (tenantId) => {
      const first = await unpack(await exportOf(tenantId));
      const target = await emptyStore(`moved-${tenantId}`);
      const imported = await t.services.storeArchive.importArchive(
        target.tenantId,
        Readable.from([await readArchive(tenantId)]),
      );
      if (!imported.ok) throw new Error(imported.message);
      expect(imported.value).toMatchObject({ storeId: target.tenantId, fromStoreId: tenantId });
      const second = await unpack(await exportOf(target.tenantId));
      try {
        expect(content(second.manifest)).toEqual(content(first.manifest));
        expect(second.manifest.storeId).toBe(target.tenantId);
        // The moved store answers on its own host with the archive's catalog and orders.
        const [orders] = await rowsOf<{ n: number }>(
          t.database.db,
          sql`SELECT count(*)::int AS n FROM orders WHERE tenant_id = ${target.tenantId}`,
        );
        expect(orders?.n).toBe(first.manifest.tables.find((e) => e.table === 'orders')?.rows);
        const home = await t.app.inject({ url: '/api/v1/store/detail/fetch', headers: { host: target.host } });
        expect(home.statusCode).toBe(200);
      } finally {
        rmSync(first.dir, { recursive: true, force: true });
        rmSync(second.dir, { recursive: true, force: true });
      }
    },
  );

  it('refuses a store that already has orders, and an archive that is damaged, writing nothing', async () => {
    const bytes = await readArchive('garden');
    const busy = await t.services.storeArchive.importArchive('lighting', Readable.from([bytes]));
    expect(busy).toMatchObject({ ok: false, status: 409, code: 'CONFLICT' });

    const target = await emptyStore('moved-broken');
    const before = await rowsByTable(target.tenantId);
    const damaged = Buffer.from(bytes);
    const at = Math.floor(damaged.length / 2);
    damaged[at] = (damaged[at] ?? 0) ^ 0xff;
    const refused = await t.services.storeArchive.importArchive(target.tenantId, Readable.from([damaged]));
    expect(refused).toMatchObject({ ok: false, status: 422 });
    const notGzip = await t.services.storeArchive.importArchive(target.tenantId, Readable.from([Buffer.from('hello')]));
    expect(notGzip).toMatchObject({ ok: false, status: 422 });
    expect(await rowsByTable(target.tenantId)).toEqual(before);
  });
});

describe('purge', () => {
  it('erases every row of the store in every table with a tenant_id, its files and host, and nothing of the others', async () => {
    // Give the store what a lived-in store has: a session, audit entries, an export on disk, a media file.
    const owner = await signIn(t.app, 'owner@power.test', 'owner-demo-1', SEEDED_HOSTS.power.host);
    const exported = await t.app.inject({
      method: 'POST',
      url: '/api/v1/store/archive/exports',
      headers: { host: SEEDED_HOSTS.power.host, ...owner },
    });
    expect(exported.statusCode).toBe(200);
    await t.services.jobs.drain({ dueWithinMs: 0 });
    const mediaDir = join(t.dataDir, 'media', 't', 'power');
    mkdirSync(mediaDir, { recursive: true });
    writeFileSync(join(mediaDir, 'x.webp'), 'x');
    expect(readdirSync(join(t.dataDir, 'archives', 'power')).length).toBe(1);

    const before = await rowsByTable('power');
    expect(before.audit_log).toBeGreaterThan(0);
    expect(before.sessions).toBeGreaterThan(0);
    expect(before.orders).toBeGreaterThan(0);
    const othersBefore = { lighting: await rowsByTable('lighting'), garden: await rowsByTable('garden') };

    const purged = await t.services.storeArchive.purgeStore('power');
    expect(purged.deleted.orders).toBe(before.orders);

    const after = await rowsByTable('power');
    const left = Object.entries(after).filter(([table, n]) => n > 0 && !(table in PURGE_KEEPS));
    expect(left).toEqual([]);
    expect(await rowsByTable('lighting')).toEqual(othersBefore.lighting);
    expect(await rowsByTable('garden')).toEqual(othersBefore.garden);
    expect(existsSync(mediaDir)).toBe(false);
    expect(existsSync(join(t.dataDir, 'archives', 'power'))).toBe(false);

    // Its host names no store any more (a development server's alias may still answer another).
    expect((await t.services.tenants.resolveHost(SEEDED_HOSTS.power.host))?.tenantId).not.toBe('power');
    // The audit log gave way to the purge only: outside it, it stays append-only.
    const refused = await t.database.db.execute(sql`DELETE FROM audit_log WHERE tenant_id = 'garden'`).then(
      () => null,
      (err: Error & { cause?: Error }) => err.cause?.message ?? err.message,
    );
    expect(refused).toMatch(/append-only/);
    // Run again, a purge finds nothing to do.
    expect((await t.services.storeArchive.purgeStore('power')).deleted).toEqual({});
  });
});

/** The newest archive of the store on disk (the export of the test before). */
async function readArchive(tenantId: string): Promise<Buffer> {
  const dir = join(t.dataDir, 'archives', tenantId);
  const file = readdirSync(dir).find((f) => f.endsWith('.tar.gz'));
  if (!file) return exportOf(tenantId);
  return readFileSync(join(dir, file));
}
