import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

interface Entry {
  json: string;
  etag: string;
  expires: number;
}

/**
 * Public reads are the same for every shopper of a store, so their serialised bodies are kept per
 * tenant and dropped when the tenant's data changes (its events, from this process or another).
 * The TTL bounds staleness should an event be lost.
 */
export class PublicReadCache {
  private entries = new Map<string, Entry>();
  /**
   * When each tenant was last invalidated (a counter), and `epoch` for all at once: an answer
   * computed across an invalidation is served but not kept.
   */
  private stamps = new Map<string, number>();
  private counter = 0;
  private epoch = 0;

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 5_000,
  ) {}

  async get(tenantId: string, key: string, compute: () => Promise<unknown>): Promise<Entry> {
    const k = `${tenantId}\u0000${key}`;
    const now = Date.now();
    const hit = this.entries.get(k);
    if (hit && hit.expires > now) return hit;
    const before = this.generationOf(tenantId);
    const json = JSON.stringify(await compute());
    const etag = `W/"${createHash('sha1').update(json).digest('base64url')}"`;
    const entry = { json, etag, expires: now + this.ttlMs };
    // A change that landed while this was read may not be in it: keeping it would hide the change.
    // With no TTL (PUBLIC_CACHE_SECONDS=0) nothing is kept at all.
    if (this.ttlMs <= 0 || this.generationOf(tenantId) !== before) return entry;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(k, entry);
    return entry;
  }

  private generationOf(tenantId: string) {
    return `${this.epoch}.${this.stamps.get(tenantId) ?? 0}`;
  }

  invalidateTenant(tenantId: string) {
    const prefix = `${tenantId}\u0000`;
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
    if (this.stamps.size >= this.maxEntries) {
      this.stamps.clear(); // bounded; a new epoch keeps no read that was in flight
      this.epoch++;
    }
    this.stamps.set(tenantId, ++this.counter);
  }

  clear() {
    this.entries.clear();
    this.epoch++;
  }
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
