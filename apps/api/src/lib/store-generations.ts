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
