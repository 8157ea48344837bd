import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { BonanzaConnectInput, MarketplaceState } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { type Ok, ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../lib/result';
import { SECRET_MASK, type SecretBox } from '../../lib/secret-box';
import { isPlainObject, takeReadOnly } from '../../lib/write-back';
import type { AuditService } from '../audit/index';
import { type FeedBuildStats, type FeedStore, writeFeed } from './feed-builder';

export const BONANZA = 'bonanza';
/** The path of a store's feed: its token, then `.xml`. The token is 43 base64url characters (an HMAC-SHA256). */
export const FEED_PATH = '/feeds/google-merchant';
export const FEED_FILE = /^([A-Za-z0-9_-]{43})\.xml$/;
/** Skipped products the owner's page lists; the rest are counted. */
const SKIPPED_SHOWN = 50;
/** A feed's fetches are written to its row at most this often (a marketplace may fetch in a storm). */
const FETCH_RECORD_MS = 60_000;

const mc = schema.marketplaceConnections;
const pf = schema.productFeeds;

export interface MarketplaceDeps {
  audit: AuditService;
  events: EventBus;
  secrets: SecretBox;
  log: FastifyBaseLogger;
  /** Whether the tenant's store is public (a private store has no feed). */
  isPublic: (tenantId: string) => Promise<boolean>;
  /** scheme://host[:port] of a store's canonical host. */
  linkOrigin: (canonicalHost: string) => string;
  /** The key feed URL tokens are signed with (derived from SECRETS_KEY). */
  feedKey: Buffer;
  /** Built feeds are kept as files here, one per store, until the catalog changes. */
  cacheDir: string;
  /** Products read per query when building (tests and the bench vary it). */
  pageSize?: number;
}

interface CachedFeed {
  path: string;
  etag: string;
  builtAt: Date;
  size: number;
}

export interface FeedAnswer {
  status: 200 | 304;
  etag: string;
  lastModified: Date;
  size: number;
  /** Present with 200: the feed's bytes, read from the cached file. */
  body?: Readable;
}

export const sealContext = (tenantId: string) => `marketplace_connections:${tenantId}:${BONANZA}`;

/** The feed URL's token: unguessable without the key, and a new nonce makes a new one. */
export function feedToken(key: Buffer, tenantId: string, feedId: string, nonce: string): string {
  return createHmac('sha256', key).update(`${tenantId}:${feedId}:${nonce}`).digest('base64url');
}

/** A first connection's token left empty (the form shows it capitalised, the API after `token: `). */
export const TOKEN_NEEDED = 'Enter the token Bonanza gave you.';

const notFound = () => AppError.notFound('Not found.');
const newNonce = () => randomBytes(18).toString('base64url');
// What a user agent says, kept short and printable for the owner's page.
const agentOf = (ua: string | undefined) =>
  (ua ?? '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 200) || null;

/**
 * Disconnecting from Bonanza: the store is not connected (never was, or disconnected already), a
 * 404 as the API has always answered it (decision 088).
 */
export type DisconnectRefusal = Refusal<'NOT_FOUND'>;

export function createMarketplaceService(db: Db, deps: MarketplaceDeps) {
  mkdirSync(deps.cacheDir, { recursive: true });
  const cache = new Map<string, CachedFeed>();
  const building = new Map<string, Promise<CachedFeed>>();
  // Bumped by every change event: a build that started before it is not kept.
  const generation = new Map<string, number>();
  const fetches = new Map<string, { pending: number; agent: string | null; at: Date; writtenAt: number }>();
  const keyOf = (tenantId: string, storeId: string) => `${tenantId}\u0000${storeId}`;

  function forget(tenantId: string) {
    for (const [k, v] of cache) {
      if (!k.startsWith(`${tenantId}\u0000`)) continue;
      cache.delete(k);
      // A reader that opened the file keeps reading it; new readers get the next build.
      unlink(v.path).catch(() => {});
      generation.set(k, (generation.get(k) ?? 0) + 1);
    }
    for (const k of building.keys()) {
      if (k.startsWith(`${tenantId}\u0000`)) generation.set(k, (generation.get(k) ?? 0) + 1);
    }
  }

  function forgetAll() {
    for (const tenantKey of new Set([...cache.keys(), ...building.keys()].map((k) => k.split('\u0000')[0] ?? ''))) {
      forget(tenantKey);
    }
  }

  // Any change to what the feed lists (products, prices, stock, categories, the store's name,
  // host or visibility) drops the store's built feed; the next fetch or page view builds it again.
  deps.events.on('catalog.changed', ({ tenantId }) => forget(tenantId));
  deps.events.on('stock.changed', ({ tenantId }) => forget(tenantId));
  deps.events.on('settings.changed', ({ tenantId }) => forget(tenantId));
  deps.events.on('events.missed', () => forgetAll());

  async function storeOf(tenantId: string, productStoreId: string): Promise<FeedStore | null> {
    const [s] = await db
      .select({ storeName: schema.productStores.storeName, canonicalHost: schema.productStores.canonicalHost })
      .from(schema.productStores)
      .where(and(eq(schema.productStores.tenantId, tenantId), eq(schema.productStores.productStoreId, productStoreId)));
    if (!s) return null;
    return { tenantId, productStoreId, storeName: s.storeName, origin: deps.linkOrigin(s.canonicalHost) };
  }

  /** The store's feed row, made with a fresh nonce the first time. */
  async function feedRow(tenantId: string, feedId: string) {
    await db.insert(pf).values({ tenantId, feedId, tokenNonce: newNonce() }).onConflictDoNothing();
    const [row] = await db
      .select()
      .from(pf)
      .where(and(eq(pf.tenantId, tenantId), eq(pf.feedId, feedId)));
    if (!row) throw new Error('product feed row missing after insert');
    return row;
  }

  async function connectionOf(tenantId: string) {
    const [row] = await db
      .select()
      .from(mc)
      .where(and(eq(mc.tenantId, tenantId), eq(mc.marketplace, BONANZA)));
    return row ?? null;
  }

  /**
   * Builds the store's feed into a file: the catalog is read a page at a time and each page written
   * out before the next is read, so memory does not grow with the catalog. The file replaces the
   * previous build only when whole; its ETag is the hash of its bytes.
   */
  async function build(store: FeedStore): Promise<CachedFeed> {
    const key = keyOf(store.tenantId, store.productStoreId);
    const gen = generation.get(key) ?? 0;
    const base = join(deps.cacheDir, `${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
    const tmp = `${base}-${randomBytes(6).toString('hex')}.xml`;
    const hash = createHash('sha256');
    const out = createWriteStream(`${tmp}.part`);
    const failed = new Promise<never>((_, reject) => out.once('error', reject));
    failed.catch(() => {});
    const write = (chunk: string) =>
      Promise.race([
        failed,
        new Promise<void>((resolve) => {
          hash.update(chunk);
          if (out.write(chunk)) resolve();
          else out.once('drain', () => resolve());
        }),
      ]);
    let stats: FeedBuildStats;
    try {
      stats = await writeFeed(db, store, write, deps.pageSize);
      await Promise.race([failed, new Promise<void>((resolve) => out.end(resolve))]);
      await rename(`${tmp}.part`, tmp);
    } catch (err) {
      out.destroy();
      rmSync(`${tmp}.part`, { force: true });
      throw err;
    }
    const builtAt = new Date();
    const { size } = await stat(tmp);
    await feedRow(store.tenantId, store.productStoreId);
    await db
      .update(pf)
      .set({
        productCount: stats.productCount,
        itemCount: stats.itemCount,
        skipped: stats.skipped,
        skippedCount: stats.skippedTotal,
        builtAt,
      })
      .where(and(eq(pf.tenantId, store.tenantId), eq(pf.feedId, store.productStoreId)));
    const built: CachedFeed = { path: tmp, etag: `"${hash.digest('base64url').slice(0, 27)}"`, builtAt, size };
    if ((generation.get(key) ?? 0) === gen) {
      const old = cache.get(key);
      cache.set(key, built);
      if (old) unlink(old.path).catch(() => {});
    } else {
      // The catalog changed while this build ran: it answers the requests that waited for it, and
      // the file goes once they have opened it.
      setTimeout(() => unlink(tmp).catch(() => {}), 30_000).unref();
    }
    return built;
  }

  /** The store's built feed: the cached one, the build under way, or a new build. */
  async function built(store: FeedStore): Promise<CachedFeed> {
    const key = keyOf(store.tenantId, store.productStoreId);
    const have = cache.get(key);
    if (have) return have;
    let run = building.get(key);
    if (!run) {
      run = build(store).finally(() => building.delete(key));
      building.set(key, run);
    }
    return run;
  }

  /** Counts a fetch; writes the count, time and user agent to the row at most once a minute. */
  async function recordFetch(tenantId: string, feedId: string, userAgent: string | undefined) {
    const key = keyOf(tenantId, feedId);
    const now = Date.now();
    const f = fetches.get(key) ?? { pending: 0, agent: null, at: new Date(now), writtenAt: 0 };
    f.pending++;
    f.agent = agentOf(userAgent);
    f.at = new Date(now);
    fetches.set(key, f);
    if (now - f.writtenAt < FETCH_RECORD_MS) return;
    const n = f.pending;
    f.pending = 0;
    f.writtenAt = now;
    await db
      .update(pf)
      .set({ lastFetchedAt: f.at, lastFetchedBy: f.agent, fetchCount: sql`${pf.fetchCount} + ${n}` })
      .where(and(eq(pf.tenantId, tenantId), eq(pf.feedId, feedId)));
  }

  function assertOwnTenant(ctx: TenantContext, tenantId: string) {
    if (tenantId === ctx.tenantId || (tenantId === 'development' && ctx.viaDevAlias)) return;
    throw AppError.notFound(`Tenant ${tenantId.slice(0, 64)} was not found.`);
  }

  const actorId = (ctx: RequestContext) =>
    ctx.actor.kind === 'staff' || ctx.actor.kind === 'shopper' ? ctx.actor.userId : null;

  return {
    forget,

    /** Whether a connection holds a token a form may leave empty to keep (the form's own check). */
    async keepsToken(ctx: RequestContext): Promise<boolean> {
      const conn = await connectionOf(ctx.tenantId);
      return conn?.status === 'connected' && conn.tokenSealed !== null;
    },

    /** The owner's page: the connection (never its token) and the feed with its last build and fetch. */
    async state(ctx: RequestContext, tenantId = ctx.tenantId): Promise<MarketplaceState> {
      requireAccess(ctx, 'catalog');
      assertOwnTenant(ctx, tenantId);
      const t = ctx.tenantId;
      const [conn, storePublic, store] = await Promise.all([
        connectionOf(t),
        deps.isPublic(t),
        storeOf(t, ctx.productStoreId),
      ]);
      if (!store) throw AppError.notFound('This store was not found.');
      const active = conn?.status === 'connected';
      // Showing the page builds a stale feed, so the figures are today's, not the last fetch's.
      if (active && storePublic) await built(store);
      let row = await feedRow(t, ctx.productStoreId);
      // A fetch counted in memory but not yet written is still shown.
      const pending = fetches.get(keyOf(t, ctx.productStoreId));
      if (pending && pending.pending > 0) {
        row = {
          ...row,
          lastFetchedAt: pending.at,
          lastFetchedBy: pending.agent,
          fetchCount: row.fetchCount + pending.pending,
        };
      }
      return {
        tenantId: t,
        connection: conn
          ? {
              status: conn.status === 'connected' ? 'connected' : 'disconnected',
              accountEmail: conn.accountEmail,
              boothName: conn.boothName,
              tokenSet: conn.tokenSealed !== null,
              tokenMask: conn.tokenSealed !== null ? SECRET_MASK : null,
              connectedAt: conn.connectedAt.toISOString(),
              updatedAt: conn.updatedAt.toISOString(),
            }
          : null,
        feed: {
          url: `${store.origin}${FEED_PATH}/${feedToken(deps.feedKey, t, ctx.productStoreId, row.tokenNonce)}.xml`,
          active,
          storePublic,
          productCount: row.productCount,
          builtAt: row.builtAt?.toISOString() ?? null,
          lastFetchedAt: row.lastFetchedAt?.toISOString() ?? null,
          lastFetchedBy: row.lastFetchedBy,
          fetchCount: row.fetchCount,
          skipped: row.skipped.slice(0, SKIPPED_SHOWN),
          skippedMore: Math.max(0, row.skippedCount - SKIPPED_SHOWN),
        },
      };
    },

    /**
     * Connects the store to Bonanza, or changes the connection's email, booth or token. The token
     * is sealed before it is written; an empty one keeps the stored token (a first connection needs one).
     */
    async connect(ctx: RequestContext, tenantId: string, input: BonanzaConnectInput): Promise<{ created: boolean }> {
      requireAccess(ctx, 'catalog');
      assertOwnTenant(ctx, tenantId);
      const t = ctx.tenantId;
      return deps.events.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`marketplace:${t}`}))`);
        const [before] = await tx
          .select()
          .from(mc)
          .where(and(eq(mc.tenantId, t), eq(mc.marketplace, BONANZA)));
        const keep = input.token === '' && before?.status === 'connected' && before.tokenSealed !== null;
        if (!input.token && !keep) {
          throw AppError.field(400, 'VALIDATION_FAILED', 'token', TOKEN_NEEDED);
        }
        // The same connection again (its read written back, token left out) writes nothing.
        if (keep && before && before.accountEmail === input.accountEmail && before.boothName === input.boothName) {
          return { created: false };
        }
        const tokenSealed = keep ? (before?.tokenSealed ?? null) : deps.secrets.seal(input.token, sealContext(t));
        const now = new Date();
        const values = {
          accountEmail: input.accountEmail,
          boothName: input.boothName,
          tokenSealed,
          status: 'connected' as const,
          updatedAt: now,
          updatedBy: actorId(ctx),
        };
        const reconnect = before?.status !== 'connected';
        await tx
          .insert(mc)
          .values({ tenantId: t, marketplace: BONANZA, ...values, connectedAt: now })
          .onConflictDoUpdate({
            target: [mc.tenantId, mc.marketplace],
            set: reconnect ? { ...values, connectedAt: now } : values,
          });
        await tx
          .insert(pf)
          .values({ tenantId: t, feedId: ctx.productStoreId, tokenNonce: newNonce() })
          .onConflictDoNothing();
        // `token` is a secret by name to the audit log: it records that the sealed value changed,
        // never the value (and a kept token is no change at all).
        await deps.audit.record(tx, ctx, {
          entity: 'marketplace.connection',
          entityId: BONANZA,
          action: reconnect ? 'connect' : 'update',
          before: before
            ? {
                status: before.status,
                accountEmail: before.accountEmail,
                boothName: before.boothName,
                token: before.tokenSealed,
              }
            : null,
          after: {
            status: 'connected',
            accountEmail: input.accountEmail,
            boothName: input.boothName,
            token: tokenSealed,
          },
        });
        deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: t, what: 'marketplace' });
        return { created: reconnect };
      });
    },

    /**
     * The connect body with the state read taken back: the GET's `data`
     * ({tenantId, connection, feed}) becomes the connect's flat body, accountEmail and boothName from
     * its connection; the connection's status, tokenSet, tokenMask, connectedAt and updatedAt and the
     * whole feed are read-only (taken as read, else 400 naming them). The mask is not a token: no
     * token keeps the stored one. A flat body is taken as it is.
     */
    async writeBackBody(ctx: RequestContext, body: unknown): Promise<unknown> {
      if (!isPlainObject(body) || !('connection' in body || 'feed' in body)) return body;
      const tenantId = typeof body.tenantId === 'string' ? body.tenantId : ctx.tenantId;
      const current = await this.state(ctx, tenantId);
      const { connection, ...rest } = takeReadOnly(body, current, ['feed']);
      if (!isPlainObject(connection)) {
        if (connection === null && current.connection !== null) {
          throw AppError.field(
            400,
            'VALIDATION_FAILED',
            'connection',
            'is read-only: send it as read, or leave it out',
          );
        }
        return connection === null ? rest : { ...rest, connection };
      }
      const conn = takeReadOnly(connection, (current.connection ?? {}) as Record<string, unknown>, [
        'status',
        'tokenSet',
        'tokenMask',
        'connectedAt',
        'updatedAt',
      ]);
      return { ...rest, ...conn };
    },

    /** Disconnects: the stored token is erased and the feed URL answers 404 until the store connects again. */
    async disconnect(ctx: RequestContext, tenantId: string): Promise<Result<undefined, DisconnectRefusal>> {
      requireAccess(ctx, 'catalog');
      assertOwnTenant(ctx, tenantId);
      const t = ctx.tenantId;
      return returnRefusals<Ok<undefined>, DisconnectRefusal>(async () => {
        await deps.events.transaction(async (tx) => {
          await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`marketplace:${t}`}))`);
          const [before] = await tx
            .select()
            .from(mc)
            .where(and(eq(mc.tenantId, t), eq(mc.marketplace, BONANZA)));
          if (before?.status !== 'connected') {
            throw new Refused(refuse(404, 'NOT_FOUND', 'The store is not connected to Bonanza.'));
          }
          await tx
            .update(mc)
            .set({ status: 'disconnected', tokenSealed: null, updatedAt: new Date(), updatedBy: actorId(ctx) })
            .where(and(eq(mc.tenantId, t), eq(mc.marketplace, BONANZA)));
          await deps.audit.record(tx, ctx, {
            entity: 'marketplace.connection',
            entityId: BONANZA,
            action: 'disconnect',
            before: { status: before.status, token: before.tokenSealed },
            after: { status: 'disconnected', token: null },
          });
          deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: t, what: 'marketplace' });
        });
        return ok(undefined);
      });
    },

    /** A new feed URL: a new nonce, so the old URL answers 404 from now on. */
    async regenerateFeedUrl(ctx: RequestContext, tenantId: string): Promise<void> {
      requireAccess(ctx, 'catalog');
      assertOwnTenant(ctx, tenantId);
      const t = ctx.tenantId;
      await feedRow(t, ctx.productStoreId);
      await deps.events.transaction(async (tx) => {
        await tx
          .update(pf)
          .set({ tokenNonce: newNonce() })
          .where(and(eq(pf.tenantId, t), eq(pf.feedId, ctx.productStoreId)));
        await deps.audit.record(tx, ctx, {
          entity: 'marketplace.feed',
          entityId: ctx.productStoreId,
          action: 'regenerate_url',
          after: { urlChanged: true },
        });
        deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: t, what: 'marketplace' });
      });
    },

    /**
     * The feed behind `file` (`<token>.xml`) on this host's store, or a 404 that does not say why
     * (wrong token, no connection, private store). `ifNoneMatch` answers 304 for an unchanged feed.
     */
    async feed(
      ctx: TenantContext,
      file: string,
      req: { ifNoneMatch?: string; ifModifiedSince?: string; userAgent?: string },
    ): Promise<FeedAnswer> {
      const m = FEED_FILE.exec(file);
      if (!m) throw notFound();
      const t = ctx.tenantId;
      const [row] = await db
        .select({ tokenNonce: pf.tokenNonce })
        .from(pf)
        .where(and(eq(pf.tenantId, t), eq(pf.feedId, ctx.productStoreId)));
      const expected = Buffer.from(row ? feedToken(deps.feedKey, t, ctx.productStoreId, row.tokenNonce) : '', 'utf8');
      const given = Buffer.from(m[1] as string, 'utf8');
      // Constant time: how much of a guess was right does not show in the answer's timing.
      const ok = row !== undefined && expected.length === given.length && timingSafeEqual(expected, given);
      if (!ok) throw notFound();
      const [conn, storePublic] = await Promise.all([connectionOf(t), deps.isPublic(t)]);
      if (conn?.status !== 'connected' || !storePublic) throw notFound();
      const store = await storeOf(t, ctx.productStoreId);
      if (!store) throw notFound();
      await recordFetch(t, ctx.productStoreId, req.userAgent).catch((err) =>
        deps.log.warn({ err, tenantId: t }, 'product feed fetch not recorded'),
      );
      const tags = (req.ifNoneMatch ?? '').split(',').map((s) => s.trim().replace(/^W\//, ''));
      // A change event may drop the file between the build and the open: then the next build is read.
      for (let attempt = 0; ; attempt++) {
        const feed = await built(store);
        const base = { etag: feed.etag, lastModified: feed.builtAt, size: feed.size };
        if (tags.includes(feed.etag) || tags.includes('*')) return { status: 304, ...base };
        // If-Modified-Since counts only without If-None-Match (RFC 9110), to the second HTTP dates have.
        const since = !req.ifNoneMatch && req.ifModifiedSince ? Date.parse(req.ifModifiedSince) : Number.NaN;
        if (since >= Math.floor(feed.builtAt.getTime() / 1000) * 1000) return { status: 304, ...base };
        try {
          const handle = await open(feed.path, 'r');
          return { status: 200, ...base, body: handle.createReadStream() };
        } catch (err) {
          if ((err as { code?: string }).code !== 'ENOENT' || attempt >= 2) throw err;
        }
      }
    },

    /** Builds a store's feed now (benches, tests): its figures and file. */
    async buildNow(tenantId: string, productStoreId: string) {
      const store = await storeOf(tenantId, productStoreId);
      if (!store) throw notFound();
      forget(tenantId);
      return built(store);
    },
  };
}

export type MarketplaceService = ReturnType<typeof createMarketplaceService>;
