import { type AuditEntry, auditPageSchema, errorEnvelopeSchema } from '@app/contracts';
import { schema } from '@app/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission, RequestContext } from '../../lib/context';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createAuditService, REDACTED, secret } from './index';

let t: TestApp;
let audit: ReturnType<typeof createAuditService>;
let owner: { userId: string; firstName: string; email: string };
let productId: string;
const seenConfig: unknown[] = [];

beforeAll(async () => {
  t = await createTestApp({
    // Stands in for the guard plugin: what the audit route asks of it.
    extraRoutes: async (app) => {
      app.addHook('onRequest', async (req) => {
        if (req.url.startsWith('/api/v1/audit/')) seenConfig.push(req.routeOptions.config);
      });
    },
  });
  audit = createAuditService(t.database.db);
  const [u] = await t.database.db
    .select()
    .from(schema.users)
    .where(and(eq(schema.users.tenantId, 'lighting'), eq(schema.users.email, 'owner@lighting.test')));
  if (!u) throw new Error('no owner');
  owner = { userId: u.userId, firstName: u.firstName, email: u.email };
  const [p] = await t.database.db
    .select()
    .from(schema.products)
    .where(eq(schema.products.tenantId, 'lighting'))
    .orderBy(asc(schema.products.productId))
    .limit(1);
  if (!p) throw new Error('no product');
  productId = p.productId;
});
afterAll(async () => {
  await t.close();
});

const tenant = (tenantId = 'lighting', storeId = '9000') => ({
  tenantId,
  productStoreId: storeId,
  hostName: `${tenantId}.localhost`,
  viaDevAlias: false,
  origin: `http://${tenantId}.localhost`,
});

function staff(
  opts: { role?: 'admin' | 'staff'; permissions?: Permission[]; userId?: string; tenantId?: string } = {},
) {
  return {
    ...tenant(opts.tenantId),
    actor: {
      kind: 'staff',
      role: opts.role ?? 'admin',
      permissions: new Set(opts.permissions ?? []),
      userId: opts.userId ?? owner.userId,
      firstName: owner.firstName,
      userLoginId: owner.email,
      session: { token: 'not-stored', via: 'cookie' },
    },
    requestId: 'REQTEST000000001',
    ip: '203.0.113.7',
  } satisfies RequestContext;
}

const productName = async () =>
  (
    await t.database.db
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.tenantId, 'lighting'), eq(schema.products.productId, productId)))
  )[0]?.productName;

/** An owner's rename of a product, as a dashboard write would do it: the change and its entry in one transaction. */
async function renameProduct(ctx: RequestContext, name: string, fail?: Error) {
  await t.database.db.transaction(async (tx) => {
    const p = schema.products;
    const [before] = await tx
      .select()
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)))
      .for('update');
    const [after] = await tx
      .update(p)
      .set({ productName: name })
      .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)))
      .returning();
    // The search vector is derived from the name: what the owner changed is the name.
    const { searchVector: _, ...written } = after ?? {};
    await audit.record(tx, ctx, { entity: 'product', entityId: productId, action: 'update', before, after: written });
    if (fail) throw fail;
  });
}

const entriesFor = async (entityId: string) =>
  (await audit.list(staff(), { entity: 'product', entityId, limit: 100 })).entries;

describe('recording', () => {
  it('a write and its entry commit together, and roll back together', async () => {
    const original = await productName();
    const before = (await entriesFor(productId)).length;
    await expect(renameProduct(staff(), 'Never Saved Lamp', new Error('stock check failed'))).rejects.toThrow(
      'stock check failed',
    );
    expect(await productName()).toBe(original);
    expect(await entriesFor(productId)).toHaveLength(before);

    await renameProduct(staff(), 'Renamed Desk Lamp');
    expect(await productName()).toBe('Renamed Desk Lamp');
    const [latest] = await entriesFor(productId);
    expect(await entriesFor(productId)).toHaveLength(before + 1);
    // Only the name changed: the row's other columns (the whole row was passed) are not in the entry.
    expect(latest).toMatchObject({
      entity: 'product',
      entityId: productId,
      action: 'update',
      changes: { productName: { before: original, after: 'Renamed Desk Lamp' } },
      actor: { kind: 'staff', id: owner.userId, role: 'admin', name: owner.firstName, email: owner.email },
      requestId: 'REQTEST000000001',
      ip: '203.0.113.7',
    });
    expect(Object.keys(latest?.changes ?? {})).toEqual(['productName']);
  });

  it('an update that changed nothing records nothing', async () => {
    const ctx = staff();
    const id = 'NOOP-1';
    const written = await t.database.db.transaction((tx) =>
      audit.record(tx, ctx, { entity: 'product', entityId: id, action: 'update', before: { a: 1 }, after: { a: 1 } }),
    );
    expect(written).toBeNull();
    expect(await entriesFor(id)).toEqual([]);
  });

  it('stores no secret: masked by name and by marker, in the row the database holds', async () => {
    const ctx = staff();
    await t.database.db.transaction(async (tx) => {
      await audit.record(tx, ctx, {
        entity: 'store.payments',
        entityId: '9000',
        action: 'update',
        before: { mode: 'sandbox', clientSecret: 'cs-OLD-123', webhook: secret('wh-OLD-456'), passwordHash: null },
        after: { mode: 'live', clientSecret: 'cs-NEW-789', webhook: secret('wh-NEW-000'), passwordHash: '$argon2id$x' },
      });
    });
    const rows = await t.database.db.execute(
      sql`SELECT changes::text AS c FROM audit_log WHERE entity = 'store.payments'`,
    );
    const stored = (rows as unknown as { rows: Array<{ c: string }> }).rows.map((r) => r.c).join('');
    expect(stored).not.toMatch(/cs-OLD|cs-NEW|wh-OLD|wh-NEW|argon2id/);
    const [entry] = (await audit.list(ctx, { entity: 'store.payments' })).entries;
    expect(entry?.changes).toEqual({
      mode: { before: 'sandbox', after: 'live' },
      clientSecret: { before: REDACTED, after: REDACTED },
      webhook: { before: REDACTED, after: REDACTED },
      passwordHash: { before: null, after: REDACTED },
    });
  });
});

describe('the database keeps entries as written', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of audit_log, even of no row', async () => {
    await renameProduct(staff(), 'Immutable Lamp');
    const [entry] = await entriesFor(productId);
    const attempts = [
      sql`UPDATE audit_log SET action = 'forged' WHERE tenant_id = 'lighting'`,
      sql`UPDATE audit_log SET action = 'forged' WHERE false`,
      sql`DELETE FROM audit_log WHERE tenant_id = 'lighting'`,
      sql`TRUNCATE audit_log`,
    ];
    for (const attempt of attempts) {
      const err = await t.database.db.execute(attempt).then(
        () => null,
        (e: unknown) => e as { message?: string; cause?: { message?: string } },
      );
      expect(String(err?.cause?.message ?? err?.message)).toMatch(
        /audit_log is append-only: (UPDATE|DELETE|TRUNCATE) refused/,
      );
    }
    expect((await entriesFor(productId))[0]).toEqual(entry);
  });
});

describe('reading the log', () => {
  it('filters by entity, entity id, actor, action and time, newest first, one store only', async () => {
    const other = staff({ userId: 'STAFF-FILTER', role: 'staff', permissions: ['catalog'] });
    const t0 = new Date(Date.now() - 1);
    await t.database.db.transaction(async (tx) => {
      await audit.record(tx, other, {
        entity: 'category',
        entityId: 'CAT-F1',
        action: 'create',
        after: { name: 'Lamps' },
      });
      await audit.record(tx, other, {
        entity: 'category',
        entityId: 'CAT-F2',
        action: 'create',
        after: { name: 'Bulbs' },
      });
    });
    await t.database.db.transaction(async (tx) => {
      await audit.record(tx, staff(), {
        entity: 'category',
        entityId: 'CAT-F1',
        action: 'delete',
        before: { name: 'Lamps' },
      });
    });
    // Another store's entry with the same names is never in this store's answers.
    await t.database.db.transaction(async (tx) => {
      await audit.record(tx, staff({ tenantId: 'garden', userId: 'STAFF-FILTER' }), {
        entity: 'category',
        entityId: 'CAT-F1',
        action: 'delete',
      });
    });
    const ids = (entries: AuditEntry[]) => entries.map((e) => `${e.entityId}:${e.action}`);
    const ctx = staff();
    expect(ids((await audit.list(ctx, { entity: 'category', from: t0.toISOString() })).entries)).toEqual([
      'CAT-F1:delete',
      'CAT-F2:create',
      'CAT-F1:create',
    ]);
    expect(ids((await audit.list(ctx, { entity: 'category', entityId: 'CAT-F1' })).entries)).toEqual([
      'CAT-F1:delete',
      'CAT-F1:create',
    ]);
    expect(ids((await audit.list(ctx, { actorId: 'STAFF-FILTER' })).entries)).toEqual([
      'CAT-F2:create',
      'CAT-F1:create',
    ]);
    expect(ids((await audit.list(ctx, { entity: 'category', action: 'delete' })).entries)).toEqual(['CAT-F1:delete']);
    const all = (await audit.list(ctx, { entity: 'category' })).entries;
    const lastAt = all[0]?.at as string;
    expect(ids((await audit.list(ctx, { entity: 'category', to: lastAt })).entries)).toEqual([
      'CAT-F2:create',
      'CAT-F1:create',
    ]);
    expect((await audit.list(ctx, { from: new Date(Date.now() + 60_000).toISOString() })).entries).toEqual([]);
    expect(all.every((e) => e.entityId.startsWith('CAT-F'))).toBe(true);
    expect(
      (await audit.list(staff({ tenantId: 'garden' }), { entity: 'category' })).entries.map((e) => e.actor.id),
    ).toEqual(['STAFF-FILTER']);
  });

  it('pages by cursor with no entry twice and none left out, across entries of the same millisecond', async () => {
    const ctx = staff();
    // One transaction: now() is the same for all 23, so only the id orders them.
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 23; i++) {
        await audit.record(tx, ctx, { entity: 'banner', entityId: `B-${i}`, action: 'create', after: { n: i } });
      }
    });
    await t.database.db.transaction(async (tx) => {
      for (let i = 23; i < 30; i++) {
        await audit.record(tx, ctx, { entity: 'banner', entityId: `B-${i}`, action: 'create', after: { n: i } });
      }
    });
    const all = (await audit.list(ctx, { entity: 'banner', limit: 100 })).entries;
    expect(all).toHaveLength(30);
    expect(new Set(all.slice(7).map((e) => e.at)).size).toBe(1);
    expect(all.map((e) => e.entityId)).toEqual(Array.from({ length: 30 }, (_, i) => `B-${29 - i}`));

    const paged: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await audit.list(ctx, { entity: 'banner', limit: 4, cursor });
      paged.push(...page.entries.map((e) => e.entityId));
      cursor = page.nextCursor ?? undefined;
      pages++;
      // An entry written while the owner pages is newer: it shows on a fresh first page, not mid-way.
      if (pages === 2) {
        await t.database.db.transaction((tx) =>
          audit.record(tx, ctx, { entity: 'banner', entityId: 'B-late', action: 'create', after: { n: 99 } }),
        );
      }
    } while (cursor);
    expect(pages).toBe(8);
    expect(paged).toEqual(all.map((e) => e.entityId));
  });

  it('refuses a cursor it did not make', async () => {
    for (const cursor of ['nonsense', Buffer.from('2026-01-01T00:00:00.000Z|1 OR 1=1').toString('base64url')]) {
      await expect(audit.list(staff(), { cursor })).rejects.toMatchObject({ statusCode: 400 });
    }
  });

  it('is for the owner and staff with the settings permission only', async () => {
    await expect(audit.list(staff({ role: 'staff', permissions: ['settings'] }), {})).resolves.toBeTruthy();
    await expect(audit.list(staff({ role: 'staff', permissions: ['catalog', 'orders'] }), {})).rejects.toMatchObject({
      statusCode: 403,
    });
    const shopper: RequestContext = {
      ...tenant(),
      actor: {
        kind: 'shopper',
        userId: 'U-SHOP',
        firstName: 'Sam',
        userLoginId: 'shopper@lighting.test',
        session: { token: 't', via: 'cookie' },
      },
      requestId: 'r',
      ip: null,
    };
    await expect(audit.list(shopper, {})).rejects.toMatchObject({ statusCode: 403 });
    const guest: RequestContext = { ...tenant(), actor: { kind: 'guest', cartToken: null }, requestId: 'r', ip: null };
    await expect(audit.list(guest, {})).rejects.toMatchObject({ statusCode: 401 });
  });
});

describe('GET /api/v1/audit/fetch', () => {
  const owners: Record<string, BrowserSession> = {};
  beforeAll(async () => {
    owners.lighting = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', 'lighting.localhost');
    owners.garden = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', 'garden.localhost');
  });

  it("answers a page of the store's log, and asks the guard for the settings permission", async () => {
    await renameProduct(staff(), 'Listed Lamp');
    const res = await t.app.inject({
      url: `/api/v1/audit/fetch?entity=product&entityId=${encodeURIComponent(productId)}&limit=1`,
      headers: { host: 'lighting.localhost', ...owners.lighting },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const page = auditPageSchema.parse(res.json().data);
    expect(page.entries).toHaveLength(1);
    expect(page.entries[0]?.changes.productName?.after).toBe('Listed Lamp');
    expect(page.nextCursor).toEqual(expect.any(String));
    expect(seenConfig.at(-1)).toMatchObject({ permission: 'settings' });
    const visitor = await t.app.inject({ url: '/api/v1/audit/fetch', headers: { host: 'lighting.localhost' } });
    expect(visitor.statusCode).toBe(401);

    const next = await t.app.inject({
      url: `/api/v1/audit/fetch?entity=product&entityId=${encodeURIComponent(productId)}&limit=1&cursor=${page.nextCursor}`,
      headers: { host: 'lighting.localhost', ...owners.lighting },
    });
    expect(next.json().data.entries[0].id).not.toBe(page.entries[0]?.id);
  });

  it("answers each store with its own log only; another store's tenantId header is refused", async () => {
    await t.database.db.transaction((tx) =>
      audit.record(tx, staff({ tenantId: 'garden' }), { entity: 'page', entityId: 'GARDEN-ONLY', action: 'publish' }),
    );
    const on = (host: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        url: '/api/v1/audit/fetch?entity=page&limit=100',
        headers: { host, ...(host.startsWith('garden') ? owners.garden : owners.lighting), ...headers },
      });
    const garden = await on('garden.localhost');
    expect(garden.json().data.entries.map((e: AuditEntry) => e.entityId)).toContain('GARDEN-ONLY');
    const lighting = await on('lighting.localhost');
    expect(lighting.statusCode).toBe(200);
    expect(lighting.json().data.entries.map((e: AuditEntry) => e.entityId)).not.toContain('GARDEN-ONLY');
    const mismatch = await on('lighting.localhost', { tenantId: 'garden' });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.body).not.toContain('GARDEN-ONLY');
  });

  it('is in the OpenAPI document with its filters', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const params = doc.paths['/api/v1/audit/fetch']?.get?.parameters as Array<{ name: string }>;
    expect(params.map((p) => p.name).sort()).toEqual(
      ['action', 'actorId', 'cursor', 'entity', 'entityId', 'from', 'limit', 'to'].sort(),
    );
  });

  it('refuses a bad query with the error envelope naming the field', async () => {
    for (const query of ['limit=1000', 'from=yesterday', 'entityId=X', 'entity=Robert%27);DROP', 'extra=1']) {
      const res = await t.app.inject({
        url: `/api/v1/audit/fetch?${query}`,
        headers: { host: 'lighting.localhost', ...owners.lighting },
      });
      expect(res.statusCode, query).toBe(400);
      const body = errorEnvelopeSchema.parse(res.json());
      expect(body.errors.join(' '), query).toMatch(/limit|from|entityId|entity|extra/);
    }
  });
});

describe('recordMany', () => {
  it('writes the rows record would, in order, skipping an update that changed nothing', async () => {
    const ctx = staff();
    const inputs = [
      { entity: 'product', entityId: 'RM-1', action: 'create', after: { productName: 'One', apiKey: secret('k') } },
      {
        entity: 'product',
        entityId: 'RM-2',
        action: 'update',
        before: { productName: 'Same' },
        after: { productName: 'Same' },
      },
      {
        entity: 'product',
        entityId: 'RM-3',
        action: 'update',
        before: { productName: 'Old' },
        after: { productName: 'New' },
      },
    ];
    const read = (ids: string[]) =>
      t.database.db
        .select()
        .from(schema.auditLog)
        .where(
          and(
            eq(schema.auditLog.tenantId, 'lighting'),
            sql`${schema.auditLog.entityId} IN (${sql.join(
              ids.map((i) => sql`${i}`),
              sql`, `,
            )})`,
          ),
        )
        .orderBy(asc(schema.auditLog.id));
    const written = await t.database.db.transaction((tx) => audit.recordMany(tx, ctx, inputs));
    expect(written).toBe(2);
    const many = await read(['RM-1', 'RM-2', 'RM-3']);
    await t.database.db.transaction(async (tx) => {
      for (const input of inputs) await audit.record(tx, ctx, { ...input, entityId: `${input.entityId}-single` });
    });
    const one = await read(['RM-1-single', 'RM-2-single', 'RM-3-single']);
    const shape = (rows: typeof many) =>
      rows.map((r) => [
        r.entityId.replace('-single', ''),
        r.action,
        r.changes,
        r.actorId,
        r.actorName,
        r.actorEmail,
        r.actorRole,
        r.requestId,
        r.ip,
      ]);
    expect(shape(many)).toEqual(shape(one));
    expect(shape(many).map((r) => r[0])).toEqual(['RM-1', 'RM-3']);
    expect(JSON.stringify(many[0]?.changes)).toContain(REDACTED);
  });
});
