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
