import { describe, expect, it } from 'vitest';
import { PublicReadCache } from './public-cache';

describe('public read cache', () => {
  it('keeps an answer until its store changes; another store keeps its own', async () => {
    const cache = new PublicReadCache();
    let reads = 0;
    const read = () => cache.get('lighting', 'k', async () => ({ n: ++reads }));
    expect(JSON.parse((await read()).json)).toEqual({ n: 1 });
    expect(JSON.parse((await read()).json)).toEqual({ n: 1 });
    await cache.get('garden', 'k', async () => ({ garden: true }));
    cache.invalidateTenant('lighting');
    expect(JSON.parse((await read()).json)).toEqual({ n: 2 });
    expect(JSON.parse((await cache.get('garden', 'k', async () => ({ garden: false }))).json)).toEqual({
      garden: true,
    });
  });

  it('serves but does not keep an answer read while its store changed (it may predate the change)', async () => {
    const cache = new PublicReadCache();
    for (const change of [() => cache.invalidateTenant('lighting'), () => cache.clear()]) {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const slow = cache.get('lighting', 'k', async () => {
        await gate;
        return { stock: 'old' };
      });
      change(); // an event arrives while the read is under way
      release();
      expect(JSON.parse((await slow).json)).toEqual({ stock: 'old' });
      const next = await cache.get('lighting', 'k', async () => ({ stock: 'new' }));
      expect(JSON.parse(next.json)).toEqual({ stock: 'new' });
      cache.clear();
    }
  });
});

describe('PublicReadCache with no time to live (PUBLIC_CACHE_SECONDS=0)', () => {
  it('keeps nothing: every read is computed', async () => {
    const cache = new PublicReadCache(0);
    let n = 0;
    const read = () => cache.get('lighting', 'k', async () => ({ n: ++n }));
    expect(JSON.parse((await read()).json)).toEqual({ n: 1 });
    expect(JSON.parse((await read()).json)).toEqual({ n: 2 });
  });
});

describe('PublicReadCache memory budget', () => {
  it('drops the least recently used stores whole when over its bytes', async () => {
    const body = 'x'.repeat(1000); // about 2 KB an answer
    const cache = new PublicReadCache(30_000, 5_000);
    let reads = 0;
    const read = (tenant: string, key: string) => cache.get(tenant, key, async () => ({ body, n: ++reads }));
    await read('a', '1');
    await read('b', '1');
    await read('a', '1'); // a is now the more recently used
    expect(cache.stats().stores).toBe(2);
    await read('c', '1'); // over the budget: b goes, whole
    expect(cache.stats().stores).toBe(2);
    expect(cache.stats().bytes).toBeLessThanOrEqual(5_000);
    const before = reads;
    await read('a', '1');
    expect(reads).toBe(before); // a was kept
    await read('b', '1');
    expect(reads).toBe(before + 1); // b was read again
  });

  it('starts a store alone over the budget again from its newest answer', async () => {
    const cache = new PublicReadCache(30_000, 5_000);
    for (const k of ['1', '2', '3', '4']) await cache.get('a', k, async () => ({ body: 'y'.repeat(1000), k }));
    expect(cache.stats().bytes).toBeLessThanOrEqual(5_000);
    expect(cache.stats().stores).toBe(1);
    let computed = false;
    await cache.get('a', '4', async () => {
      computed = true;
      return {};
    });
    expect(computed).toBe(false);
  });
});

describe('PublicReadCache answers that name their origin', () => {
  it("keeps one copy for all of a store's hosts and hands each host its own links and ETag", async () => {
    const cache = new PublicReadCache();
    let reads = 0;
    const read = (origin: string) =>
      cache.get('lighting', 'details', async () => ({ logo: `${origin}/media/logo.svg`, n: ++reads }), origin);
    const first = await read('http://lighting.localhost:3000');
    const alias = await read('https://lighting.shop.test');
    expect(reads).toBe(1);
    expect(JSON.parse(first.json).logo).toBe('http://lighting.localhost:3000/media/logo.svg');
    expect(JSON.parse(alias.json).logo).toBe('https://lighting.shop.test/media/logo.svg');
    expect(alias.etag).not.toBe(first.etag);
    // The same host again: the same ETag as its first answer, so a revalidation gets its 304.
    expect((await read('http://lighting.localhost:3000')).etag).toBe(first.etag);
    expect(cache.stats()).toMatchObject({ stores: 1, answers: 1 });
  });
});

describe('PublicReadCache expired answers', () => {
  it('drops expired answers of every store once a time to live has passed, not when the budget is full', async () => {
    let now = 0;
    const cache = new PublicReadCache(30_000, 64 * 2 ** 20, { now: () => now });
    await cache.get('a', 'home', async () => ({ a: 1 }));
    await cache.get('b', 'home', async () => ({ b: 1 }));
    now = 20_000;
    await cache.get('b', 'search', async () => ({ b: 2 }));
    now = 31_000; // a's answer and b's first have expired
    await cache.get('c', 'home', async () => ({ c: 1 }));
    expect(cache.stats()).toMatchObject({ stores: 2, answers: 2 }); // b's search and c's home
    now = 61_000;
    await cache.get('c', 'home', async () => ({ c: 2 }));
    expect(cache.stats()).toMatchObject({ stores: 1, answers: 1 });
  });
});
