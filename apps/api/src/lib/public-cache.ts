import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { StoreGenerations } from './store-generations';

interface Entry {
  json: string;
  etag: string;
  expires: number;
}

/**
 * Public reads are the same for every shopper of a store, so their serialised bodies are kept per
 * tenant and dropped when the tenant's data changes (its events, from this process or another).
 * The TTL bounds staleness should an event be lost.
 *
 * Memory is bounded by the bytes kept, all stores together: past the budget the least recently
 * used stores are dropped whole, so a thousand small stores share one process and one busy store
 * does not push the others out answer by answer.
 */
export class PublicReadCache {
  /** Per store, in order of use (least recently used first). */
  private stores = new Map<string, Map<string, Entry>>();
  private bytes = 0;
  /** An answer computed across an invalidation of its store is served but not kept. */
  private generations = new StoreGenerations();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxBytes = 64 * 2 ** 20,
  ) {}

  async get(tenantId: string, key: string, compute: () => Promise<unknown>): Promise<Entry> {
    const now = Date.now();
    const store = this.stores.get(tenantId);
    const hit = store?.get(key);
    if (store && hit && hit.expires > now) {
      this.stores.delete(tenantId);
      this.stores.set(tenantId, store);
      return hit;
    }
    const before = this.generations.of(tenantId);
    const json = JSON.stringify(await compute());
    const etag = `W/"${createHash('sha1').update(json).digest('base64url')}"`;
    const entry = { json, etag, expires: now + this.ttlMs };
    // A change that landed while this was read may not be in it: keeping it would hide the change.
    // With no TTL (PUBLIC_CACHE_SECONDS=0) nothing is kept at all.
    if (this.ttlMs <= 0 || this.generations.of(tenantId) !== before) return entry;
    this.keep(tenantId, key, entry);
    return entry;
  }

  private keep(tenantId: string, key: string, entry: Entry): void {
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
  }

  private dropStore(tenantId: string) {
    const entries = this.stores.get(tenantId);
    if (!entries) return;
    for (const e of entries.values()) this.bytes -= sizeOf(e);
    this.stores.delete(tenantId);
  }

  invalidateTenant(tenantId: string) {
    this.dropStore(tenantId);
    this.generations.changed(tenantId);
  }

  clear() {
    this.stores.clear();
    this.bytes = 0;
    this.generations.allChanged();
  }

  /** Stores and bytes kept (tests, benches). */
  stats() {
    return { stores: this.stores.size, bytes: this.bytes };
  }
}

/** What an answer costs in memory, near enough: its JSON (two bytes a character at worst) and etag. */
const sizeOf = (e: Entry) => 2 * e.json.length + 64;

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
