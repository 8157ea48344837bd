import { describe, expect, it } from 'vitest';
import { estimateBytes, LruValues, MemoryBudget } from './memory-budget';
import { PublicReadCache } from './public-cache';
import { StoreValues } from './store-generations';

/** A cache of one entry per store, as the real ones keep them, whose evictions are seen. */
function cacheOn(budget: MemoryBudget, name: string) {
  const kept = new Map<string, number>();
  const account = budget.account(name, (store) => kept.delete(store));
  return {
    kept,
    put(store: string, bytes: number) {
      kept.set(store, bytes);
      account.charge(store, bytes);
    },
    use(store: string) {
      account.touch(store);
    },
    drop(store: string) {
      kept.delete(store);
      account.release(store);
    },
  };
}

describe('the memory budget', () => {
  it('evicts the least recently used entries across caches and stores once over its limit', () => {
    const budget = new MemoryBudget(1_000);
    const indexes = cacheOn(budget, 'search indexes');
    const pages = cacheOn(budget, 'product pages');
    indexes.put('a', 400);
    pages.put('b', 300);
    indexes.put('c', 200);
    indexes.use('a'); // a is now the most recently used: b is the oldest
    pages.put('d', 300); // 1,200 > 1,000: b goes (another cache's entry), then nothing more
    expect([...pages.kept.keys()]).toEqual(['d']);
    expect([...indexes.kept.keys()]).toEqual(['a', 'c']);
    expect(budget.stats()).toMatchObject({ usedBytes: 900, entries: 3, evictions: 1 });
  });

  it('reports entries, bytes and evictions per cache, the largest first', () => {
    const budget = new MemoryBudget(500);
    const indexes = cacheOn(budget, 'search indexes');
    const answers = cacheOn(budget, 'public answers');
    answers.put('a', 100);
    answers.put('b', 100);
    indexes.put('a', 250);
    indexes.put('b', 100); // 550: answers of a go
    const stats = budget.stats();
    expect(stats.caches).toEqual([
      { name: 'search indexes', entries: 2, bytes: 350, evictions: 0 },
      { name: 'public answers', entries: 1, bytes: 100, evictions: 1 },
    ]);
    expect(stats).toMatchObject({ limitBytes: 500, usedBytes: 450, evictions: 1 });
  });

  it('charges an entry again at its new size, and forgets what a cache released itself', () => {
    const budget = new MemoryBudget(1_000);
    const pages = cacheOn(budget, 'product pages');
    pages.put('a', 100);
    pages.put('a', 700); // the store's pages grew: one entry, its new size
    expect(budget.stats()).toMatchObject({ usedBytes: 700, entries: 1 });
    pages.drop('a');
    expect(budget.stats()).toMatchObject({ usedBytes: 0, entries: 0, evictions: 0 });
  });

  it('keeps an entry larger than the whole budget alone rather than evicting it as it is charged', () => {
    const budget = new MemoryBudget(1_000);
    const indexes = cacheOn(budget, 'search indexes');
    indexes.put('small', 100);
    indexes.put('huge', 5_000);
    expect([...indexes.kept.keys()]).toEqual(['huge']);
    indexes.put('next', 10); // the huge one is the oldest now: it makes room
    expect([...indexes.kept.keys()]).toEqual(['next']);
  });

  it('shrinks at once when its limit is lowered', () => {
    const budget = new MemoryBudget(1_000);
    const pages = cacheOn(budget, 'product pages');
    for (const s of ['a', 'b', 'c']) pages.put(s, 300);
    budget.setLimit(400);
    expect([...pages.kept.keys()]).toEqual(['c']);
  });

  it("evicts a store's values of StoreValues and answers of the public cache, which read them again", async () => {
    const budget = new MemoryBudget(6_000);
    const values = new StoreValues<string>(60_000, 1_000, Date.now, { memory: budget, name: 'category lists' });
    const answers = new PublicReadCache(30_000, 1_000_000, { memory: budget });
    let reads = 0;
    const list = (store: string) => values.get(store, async () => `${'x'.repeat(1_000)}${++reads}`);
    await list('a');
    await answers.get('b', 'home', async () => ({ body: 'y'.repeat(1_500) }));
    await list('a'); // kept
    expect(reads).toBe(1);
    await list('c'); // over 6,000: the answers of b, the least recently used, go first
    expect(answers.stats().stores).toBe(0);
    expect(budget.stats().caches.find((c) => c.name === 'public answers')?.evictions).toBe(1);
    await list('d'); // then a's list
    await list('a');
    expect(reads).toBe(4);
  });

  it('bounds per-host lookups by count and budget without clearing the others', () => {
    const budget = new MemoryBudget(1_000_000);
    const hosts = new LruValues<string | null>('host bindings', { ttlMs: 30_000, maxEntries: 3, memory: budget });
    hosts.set('a.localhost', 'a');
    hosts.set('b.localhost', 'b');
    hosts.set('c.localhost', null);
    expect(hosts.get('a.localhost')).toBe('a'); // a used: b is the oldest
    hosts.set('d.localhost', 'd');
    expect(hosts.get('b.localhost')).toBeUndefined();
    expect(hosts.get('a.localhost')).toBe('a');
    expect(hosts.get('c.localhost')).toBeNull(); // "no store here" is kept too
    expect(budget.stats().caches).toEqual([
      expect.objectContaining({ name: 'host bindings', entries: 3, evictions: 0 }),
    ]);
  });

  it('lets host lookups expire after their time to live', () => {
    let now = 0;
    const hosts = new LruValues<string>('host bindings', { ttlMs: 30_000, maxEntries: 10, now: () => now });
    hosts.set('a.localhost', 'a');
    now = 29_999;
    expect(hosts.get('a.localhost')).toBe('a');
    now = 30_000;
    expect(hosts.get('a.localhost')).toBeUndefined();
    expect(hosts.size).toBe(0);
  });

  it('estimates sizes that grow with the value', () => {
    const small = estimateBytes({ name: 'Lamp', price: 1999 });
    const large = estimateBytes({ items: Array.from({ length: 1_000 }, (_, i) => ({ name: `Lamp ${i}`, price: i })) });
    expect(small).toBeGreaterThan(0);
    expect(large).toBeGreaterThan(500 * small);
    // A value larger than the walk's limit is charged by what was seen, scaled up, not by nothing.
    const capped = estimateBytes(
      Array.from({ length: 10_000 }, (_, i) => `word ${i}`),
      1_000,
    );
    expect(capped).toBeGreaterThan(estimateBytes(Array.from({ length: 5_000 }, (_, i) => `word ${i}`)));
  });
});
