import { estimateBytes, type MemoryAccount, type MemoryBudget } from './memory-budget';

/**
 * When each store's data last changed, for caches that read outside any lock: take `of(store)`
 * before a read and keep what was read only if it is unchanged after. `changed` moves one store,
 * `allChanged` every store at once (an epoch), including stores the cache holds nothing of yet.
 */
export class StoreGenerations {
  private stamps = new Map<string, number>();
  private counter = 0;
  private epoch = 0;

  of(tenantId: string): string {
    return `${this.epoch}.${this.stamps.get(tenantId) ?? 0}`;
  }

  changed(tenantId: string) {
    if (this.stamps.size >= 100_000) {
      this.stamps.clear(); // bounded; the new epoch keeps no read that was in flight
      this.epoch++;
    }
    this.stamps.set(tenantId, ++this.counter);
  }

  allChanged() {
    this.epoch++;
  }
}

/**
 * One value per store read from the database and kept for a while (a word list, a category list,
 * checkout's tax tables, the shipping zones): read again after `ttlMs` or once `drop` names the
 * store. Callers that ask for a store while its read is under way share that read. A read that
 * overlapped a `drop` may hold the old data: it answers the requests that made it but is not kept.
 * At most `maxStores` are kept: past that, the store used least recently makes room, so the busy
 * stores of a process serving thousands keep theirs. Given the process's memory budget, each
 * store's value is charged to it (an estimate of its size) and the budget may take it back for
 * another cache's (decision 124).
 */
export class StoreValues<T> {
  private kept = new Map<string, { value: T; expires: number }>();
  private reading = new Map<string, Promise<T>>();
  private generations = new StoreGenerations();
  private readonly account?: MemoryAccount;

  constructor(
    private readonly ttlMs: number,
    private readonly maxStores = 1000,
    private readonly now: () => number = Date.now,
    budget?: { memory?: MemoryBudget; name: string },
  ) {
    this.account = budget?.memory?.account(budget.name, (tenantId) => {
      this.kept.delete(tenantId);
    });
  }

  async get(tenantId: string, read: () => Promise<T>): Promise<T> {
    const hit = this.kept.get(tenantId);
    if (hit && hit.expires > this.now()) {
      // A Map iterates in insertion order: moved to the end, the first key is the least recently used.
      this.kept.delete(tenantId);
      this.kept.set(tenantId, hit);
      this.account?.touch(tenantId);
      return hit.value;
    }
    const pending = this.reading.get(tenantId);
    if (pending) return pending;
    const before = this.generations.of(tenantId);
    const reading = read()
      .then((value) => {
        if (this.generations.of(tenantId) === before) {
          this.kept.delete(tenantId);
          if (this.kept.size >= this.maxStores) {
            const oldest = this.kept.keys().next().value as string;
            this.kept.delete(oldest);
            this.account?.release(oldest);
          }
          this.kept.set(tenantId, { value, expires: this.now() + this.ttlMs });
          this.account?.charge(tenantId, 96 + estimateBytes(value));
        }
        return value;
      })
      .finally(() => {
        // A drop meanwhile may have let a newer read start: only this read's own entry goes.
        if (this.reading.get(tenantId) === reading) this.reading.delete(tenantId);
      });
    this.reading.set(tenantId, reading);
    return reading;
  }

  drop(tenantId: string) {
    this.kept.delete(tenantId);
    this.account?.release(tenantId);
    this.reading.delete(tenantId);
    this.generations.changed(tenantId);
  }

  clear() {
    this.kept.clear();
    this.account?.releaseAll();
    this.reading.clear();
    this.generations.allChanged();
  }
}
