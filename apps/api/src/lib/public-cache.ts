import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

interface Entry {
  json: string;
  etag: string;
  expires: number;
}

/**
 * Public reads are the same for every shopper of a store, so their serialised bodies are kept per
 * tenant and dropped when the tenant's data changes. The TTL bounds staleness when several app
 * processes share one database and only one of them saw the change.
 */
export class PublicReadCache {
  private entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 5_000,
  ) {}

  async get(tenantId: string, key: string, compute: () => Promise<unknown>): Promise<Entry> {
    const k = `${tenantId}\u0000${key}`;
    const now = Date.now();
    const hit = this.entries.get(k);
    if (hit && hit.expires > now) return hit;
    const json = JSON.stringify(await compute());
    const etag = `W/"${createHash('sha1').update(json).digest('base64url')}"`;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const entry = { json, etag, expires: now + this.ttlMs };
    this.entries.set(k, entry);
    return entry;
  }

  invalidateTenant(tenantId: string) {
    const prefix = `${tenantId}\u0000`;
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
  }

  clear() {
    this.entries.clear();
  }
}

/** Sends a cached public body with validators a CDN and the browser can use; 304 when unchanged. */
export function sendPublic(req: FastifyRequest, reply: FastifyReply, entry: Entry, maxAgeSeconds = 60) {
  reply
    .header('Cache-Control', `public, max-age=${maxAgeSeconds}, stale-while-revalidate=600`)
    .header('ETag', entry.etag);
  const inm = req.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim() === entry.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(entry.json);
}
