/**
 * Every tenant's index, kept in memory: built on first use, patched as products change, refreshed
 * after a time to live, evicted least recently used past a memory budget.
 */
import { type Db, schema } from '@app/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { MemoryBudget } from '../../../lib/memory-budget';
import { buildTenantIndex, readPatchRows, readVariantRows, shownStock } from './read';
import type { TenantIndex } from './tenant-index';

const p = schema.products;

export interface SearchIndexOptions {
  /** After this long an index is rebuilt in the background (writes of other processes). */
  ttlMs?: number;
  /** Indexes of all tenants together stay under this estimate; the least recently used go. */
  budgetBytes?: number;
  /** Above this many products in one change, the index is rebuilt rather than patched. */
  maxPatch?: number;
  /** The process's memory budget: each loaded index is charged to it and may be evicted by it. */
  memory?: MemoryBudget;
  /** A patch replaced `from` by `to` (the products service moves its cached cards across). */
  onPatched?: (tenantId: string, from: TenantIndex, to: TenantIndex, productIds: string[]) => void;
}

interface Entry {
  index?: TenantIndex;
  /** When the index is to be read again (the TTL; after a failed refresh, one TTL later). */
  staleAt: number;
  building?: Promise<TenantIndex>;
  /** Products whose stock changed: read and patched before the next answer. */
  stockPending: Set<string>;
  /** Those that changed while a build was reading: the new index may hold their old stock. */
  stockDuringBuild: Set<string>;
  stockPatch?: Promise<void>;
  /** Products whose row changed (catalog.changed with ids): patched into the index, no rebuild. */
  catalogPending: Set<string>;
  /** Those that changed while a build was reading: patched into the new index once installed. */
  catalogDuringBuild: Set<string>;
  catalogPatch?: Promise<void>;
}

/**
 * Every tenant's index, built on first use (one build at a time per tenant), dropped when the
 * tenant's catalog changes, rebuilt in the background after the TTL while the old one answers,
 * and evicted least recently used past the memory budget.
 */
export function createSearchIndexes(db: Db, opts: SearchIndexOptions = {}) {
  const ttlMs = opts.ttlMs ?? 60_000;
  const budget = opts.budgetBytes ?? 512 * 1024 * 1024;
  const maxPatch = opts.maxPatch ?? 500;
  const entries = new Map<string, Entry>();
  const account = opts.memory?.account('search indexes', (tenantId) => {
    entries.delete(tenantId);
  });
  /** The tenant's index goes (its memory with it); the next search builds it again. */
  function drop(tenantId: string) {
    entries.delete(tenantId);
    account?.release(tenantId);
  }
  /** How often indexes were built from scratch and patched (tests and benches read them). */
  const counters = { builds: 0, patches: 0 };
  const newEntry = (): Entry => ({
    staleAt: 0,
    stockPending: new Set(),
    stockDuringBuild: new Set(),
    catalogPending: new Set(),
    catalogDuringBuild: new Set(),
  });

  function install(tenantId: string, entry: Entry, index: TenantIndex) {
    if (entries.get(tenantId) !== entry) return; // invalidated meanwhile: this one is already old
    entry.index = index;
    entry.staleAt = Date.now() + ttlMs;
    account?.charge(tenantId, index.bytes);
    let total = 0;
    for (const e of entries.values()) total += e.index?.bytes ?? 0;
    for (const [id, e] of entries) {
      if (total <= budget) break;
      if (id === tenantId || !e.index) continue;
      total -= e.index.bytes;
      drop(id);
    }
  }

  function build(tenantId: string, entry: Entry): Promise<TenantIndex> {
    counters.builds++;
    const building = buildTenantIndex(db, tenantId).then(
      (index) => {
        install(tenantId, entry, index);
        entry.building = undefined;
        for (const id of entry.stockDuringBuild) entry.stockPending.add(id);
        entry.stockDuringBuild.clear();
        if (entry.catalogDuringBuild.size) {
          for (const id of entry.catalogDuringBuild) entry.catalogPending.add(id);
          entry.catalogDuringBuild.clear();
          startCatalogPatch(tenantId, entry);
        }
        return index;
      },
      (err) => {
        entry.building = undefined;
        if (!entry.index && entries.get(tenantId) === entry) drop(tenantId);
        // A failed refresh keeps the old index for another TTL rather than retrying on every search.
        entry.staleAt = Date.now() + ttlMs;
        throw err;
      },
    );
    entry.building = building;
    return building;
  }

  async function patchStock(tenantId: string, entry: Entry, index: TenantIndex) {
    while (entry.stockPatch) await entry.stockPatch;
    if (!entry.stockPending.size) return;
    const ids = [...entry.stockPending];
    entry.stockPending.clear();
    entry.stockPatch = (async () => {
      const [rows, variants] = await Promise.all([
        db
          .select({ id: p.productId, stock: sql<number>`${shownStock(sql``)}::int` })
          .from(p)
          .where(and(eq(p.tenantId, tenantId), inArray(p.productId, ids))),
        readVariantRows(db, tenantId, ids),
      ]);
      for (const r of rows) index.setStock(r.id, r.stock);
      // The variants' own stock, which the option facets count by.
      const stockOf = new Map<string, boolean[]>(ids.map((id) => [id, []]));
      for (const v of variants) stockOf.get(v.productId)?.push(v.inStock);
      for (const [id, list] of stockOf) index.setVariantStock(id, list);
    })().finally(() => {
      entry.stockPatch = undefined;
    });
    await entry.stockPatch;
  }

  /**
   * Patches the pending products into the loaded index (one query, then a new index made from the
   * old one in memory), one patch at a time per tenant. When a patch cannot be placed exactly, or
   * fails, the tenant's index is dropped and the next search rebuilds it, as before patches.
   */
  function startCatalogPatch(tenantId: string, entry: Entry): Promise<void> {
    if (entry.catalogPatch) return entry.catalogPatch;
    const run = async () => {
      while (entry.catalogPending.size && entries.get(tenantId) === entry && entry.index) {
        const ids = [...entry.catalogPending];
        entry.catalogPending.clear();
        const t0 = performance.now();
        const changes = await readPatchRows(db, tenantId, ids);
        const from = entry.index;
        if (entries.get(tenantId) !== entry || !from) return;
        // Stock that changed while this read ran is read again after the swap (stockPending stays).
        const to = from.patched(changes, { read: performance.now() - t0, total: 0 });
        if (!to) {
          drop(tenantId);
          return;
        }
        counters.patches++;
        entry.index = to;
        account?.resize(tenantId, to.bytes);
        opts.onPatched?.(tenantId, from, to, ids);
      }
    };
    const patch = run()
      .catch(() => {
        if (entries.get(tenantId) === entry) drop(tenantId);
      })
      .finally(() => {
        entry.catalogPatch = undefined;
      });
    entry.catalogPatch = patch;
    return patch;
  }

  return {
    async get(tenantId: string): Promise<TenantIndex> {
      let entry = entries.get(tenantId);
      if (entry) {
        entries.delete(tenantId); // most recently used last
        entries.set(tenantId, entry);
      } else {
        entry = newEntry();
        entries.set(tenantId, entry);
      }
      let index = entry.index;
      if (!index) index = await (entry.building ?? build(tenantId, entry));
      else if (!entry.building && Date.now() > entry.staleAt) {
        // Stale: answer from the old index while a new one is read; a failed refresh keeps the old.
        build(tenantId, entry).catch(() => {});
      }
      if (entry.catalogPending.size || entry.catalogPatch) {
        await startCatalogPatch(tenantId, entry);
        if (entries.get(tenantId) !== entry) return this.get(tenantId); // could not patch: rebuilt
        index = entry.index as TenantIndex;
      }
      if (entry.stockPending.size || entry.stockPatch) await patchStock(tenantId, entry, index);
      return index;
    },

    /** The tenant's index if one is loaded now (no build, no wait). */
    loaded(tenantId: string): TenantIndex | undefined {
      return entries.get(tenantId)?.index;
    },

    /** The tenant's products, prices, categories or names changed: the next search rebuilds. */
    invalidate(tenantId: string) {
      drop(tenantId);
    },

    /**
     * These products changed (row, status, categories): patched into the loaded index at once, in
     * the background; a search waits for a patch under way. Many products at once: a rebuild.
     */
    productsChanged(tenantId: string, productIds: string[]) {
      const entry = entries.get(tenantId);
      if (!entry) return; // not loaded: its build reads them
      if (productIds.length > maxPatch) {
        drop(tenantId);
        return;
      }
      if (entry.building) for (const id of productIds) entry.catalogDuringBuild.add(id);
      if (!entry.index) return; // the first build is reading: patched once it is installed
      for (const id of productIds) entry.catalogPending.add(id);
      startCatalogPatch(tenantId, entry).catch(() => {});
    },

    /** Builds from scratch and patches since this process started. */
    counters(): Readonly<{ builds: number; patches: number }> {
      return { ...counters };
    },

    /** Stock of these products changed: the next search reads it (one small query, no rebuild). */
    stockChanged(tenantId: string, productIds: string[]) {
      const entry = entries.get(tenantId);
      if (!entry) return; // not loaded: its build will read the new stock
      for (const id of productIds) {
        entry.stockPending.add(id);
        if (entry.building) entry.stockDuringBuild.add(id);
      }
    },

    stats() {
      return [...entries].map(([tenantId, e]) => ({
        tenantId,
        products: e.index?.n ?? 0,
        bytes: e.index?.bytes ?? 0,
        buildMs: e.index?.buildMs,
      }));
    },
  };
}

export type SearchIndexes = ReturnType<typeof createSearchIndexes>;
