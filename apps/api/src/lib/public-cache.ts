import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MemoryAccount, MemoryBudget } from './memory-budget';
import { StoreGenerations } from './store-generations';

interface Entry {
  json: string;
  etag: string;
  expires: number;
}

/**
 * Where a kept answer had its origin. JSON.stringify writes a NUL character as the escape `\u0000`,
 * never raw, so a raw one cannot be part of any answer: the mark is unambiguous.
 */
const ORIGIN_MARK = '\u0000origin\u0000';

/**
 * Public reads are the same for every shopper of a store, so their serialised bodies are kept per
 * tenant and dropped when the tenant's data changes (its events, from this process or another).
 * The TTL bounds staleness should an event be lost.
 *
 * Memory is bounded by the bytes kept, all stores together: past the budget the least recently
 * used stores are dropped whole, so a thousand small stores share one process and one busy store
 * does not push the others out answer by answer. Each store's answers are also charged to the
 * process's memory budget (decision 124), which may drop a store to make room for another cache.
 * Expired answers are dropped (each store's when it is next written, every store's once a TTL),
 * not left to wait for the budget to push them out.
 *
 * An answer that names the store's origin (absolute links) is kept once per store, not once per
 * host the store answers on: the origin is kept as a mark and put back for the host asking.
 */
export class PublicReadCache {
  /** Per store, in order of use (least recently used first). */
  private stores = new Map<string, Map<string, Entry>>();
  private bytes = 0;
  /** An answer computed across an invalidation of its store is served but not kept. */
  private generations = new StoreGenerations();
  private readonly account?: MemoryAccount;
  private readonly now: () => number;
  private nextSweep = 0;

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxBytes = 64 * 2 ** 20,
    opts: { memory?: MemoryBudget; now?: () => number } = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.account = opts.memory?.account('public answers', (tenantId) => this.dropStore(tenantId));
  }

  /**
   * The store's answer for `key`, computed once and kept. With `origin`, the answer may name it:
   * it is kept with the origin marked and handed out with the asking origin put back, so every
   * host of the store shares one copy.
   */
  async get(tenantId: string, key: string, compute: () => Promise<unknown>, origin?: string): Promise<Entry> {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now);
    const store = this.stores.get(tenantId);
    const hit = store?.get(key);
    if (store && hit && hit.expires > now) {
      this.stores.delete(tenantId);
      this.stores.set(tenantId, store);
      this.account?.touch(tenantId);
      return origin ? forOrigin(hit, origin) : hit;
    }
    const before = this.generations.of(tenantId);
    const json = JSON.stringify(await compute());
    const etag = etagOf(json);
    const entry = { json, etag, expires: now + this.ttlMs };
    // A change that landed while this was read may not be in it: keeping it would hide the change.
    // With no TTL (PUBLIC_CACHE_SECONDS=0) nothing is kept at all.
    if (this.ttlMs <= 0 || this.generations.of(tenantId) !== before) return entry;
    if (origin && json.includes(origin)) {
      const marked = json.replaceAll(origin, ORIGIN_MARK);
      const kept = { json: marked, etag: etagOf(marked), expires: entry.expires };
      this.keep(tenantId, key, kept);
      // The ETag the next hit will send, so a revalidation after this first answer gets its 304.
      return forOrigin(kept, origin);
    }
    this.keep(tenantId, key, entry);
    return entry;
  }

  /** Drops every expired answer; runs at most once a TTL (from `get`, no timer to stop). */
  private sweep(now: number) {
    this.nextSweep = now + Math.max(this.ttlMs, 1_000);
    for (const [tenantId, store] of this.stores) this.dropExpired(tenantId, store, now);
  }

  private dropExpired(tenantId: string, store: Map<string, Entry>, now: number) {
    let changed = false;
    for (const [k, e] of store) {
      if (e.expires > now) continue;
      store.delete(k);
      this.bytes -= sizeOf(e);
      changed = true;
    }
    if (!changed) return;
    if (store.size === 0) this.dropStore(tenantId);
    else this.account?.resize(tenantId, storeBytes(store));
  }

  private keep(tenantId: string, key: string, entry: Entry): void {
    const kept = this.stores.get(tenantId);
    if (kept) this.dropExpired(tenantId, kept, this.now());
    const store = this.stores.get(tenantId) ?? new Map<string, Entry>();
    this.stores.delete(tenantId);
    this.stores.set(tenantId, store);
    const old = store.get(key);
    if (old) this.bytes -= sizeOf(old);
    store.set(key, entry);
    this.bytes += sizeOf(entry);
    if (sizeOf(entry) > this.maxBytes) {
      this.dropStore(tenantId); // never kept
      return;
    }
    for (const other of this.stores.keys()) {
      if (this.bytes <= this.maxBytes) break;
      // Least recently used stores first; a store alone over the budget starts again from this answer
      // (trimming a Map from its front, answer by answer, leaves it slow to walk).
      this.dropStore(other);
      if (other === tenantId) {
        this.keep(tenantId, key, entry);
        return;
      }
    }
    // Charged last: the budget may drop other caches' entries (or, past it, other stores' answers).
    this.account?.charge(tenantId, storeBytes(store));
  }

  private dropStore(tenantId: string) {
    const entries = this.stores.get(tenantId);
    if (!entries) return;
    for (const e of entries.values()) this.bytes -= sizeOf(e);
    this.stores.delete(tenantId);
    this.account?.release(tenantId);
  }

  invalidateTenant(tenantId: string) {
    this.dropStore(tenantId);
    this.generations.changed(tenantId);
  }

  clear() {
    this.stores.clear();
    this.bytes = 0;
    this.account?.releaseAll();
    this.generations.allChanged();
  }

  /** Stores, answers and bytes kept (tests, benches). */
  stats() {
    let answers = 0;
    for (const store of this.stores.values()) answers += store.size;
    return { stores: this.stores.size, answers, bytes: this.bytes };
  }
}

/** What an answer costs in memory, near enough: its JSON (two bytes a character at worst) and etag. */
const sizeOf = (e: Entry) => 2 * e.json.length + 64;
const storeBytes = (store: Map<string, Entry>) => {
  let n = 0;
  for (const e of store.values()) n += sizeOf(e);
  return n + 64 * store.size;
};
const etagOf = (json: string) => `W/"${createHash('sha1').update(json).digest('base64url')}"`;

/** A kept answer as one origin sees it: the mark replaced, and an ETag of its own per origin. */
function forOrigin(e: Entry, origin: string): Entry {
  if (!e.json.includes(ORIGIN_MARK)) return e;
  return {
    json: e.json.replaceAll(ORIGIN_MARK, origin),
    etag: `${e.etag.slice(0, -1)}.${createHash('sha1').update(origin).digest('base64url').slice(0, 10)}"`,
    expires: e.expires,
  };
}

/**
 * Sends a cached public body with validators a CDN and the browser can use; 304 when unchanged.
 * A shared cache must ask again every time (s-maxage=0, proxy-revalidate; a 304 costs us little):
 * a store that turns private must not keep being served from a CDN (decision 027). The browser,
 * which only ever shows it to the person who already saw it, keeps it for max-age.
 */
export function sendPublic(req: FastifyRequest, reply: FastifyReply, entry: Entry, maxAgeSeconds = 60) {
  reply
    .header('Cache-Control', `public, max-age=${maxAgeSeconds}, s-maxage=0, proxy-revalidate`)
    .header('ETag', entry.etag);
  const inm = req.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim() === entry.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(entry.json);
}
