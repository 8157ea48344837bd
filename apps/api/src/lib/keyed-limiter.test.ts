import { describe, expect, it } from 'vitest';
import { KeyedLimiter } from './keyed-limiter';

/** A task that ends when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, task: () => opened };
}

describe('KeyedLimiter', () => {
  it('runs `limit` tasks per key, queues `queue` more in order, refuses the rest; other keys are not held up', async () => {
    const limiter = new KeyedLimiter(1, 1);
    const order: string[] = [];
    const first = gate();
    const a1 = limiter.run('a', async () => {
      await first.task();
      order.push('a1');
    });
    const a2 = limiter.run('a', () => {
      order.push('a2');
    });
    expect(await limiter.run('a', () => 'a3')).toBeNull();
    expect(limiter.load('a')).toEqual({ running: 1, waiting: 1 });
    // Another store is served while 'a' is full.
    expect(await limiter.run('b', () => 'b1')).toEqual({ value: 'b1' });
    first.open();
    await Promise.all([a1, a2]);
    expect(order).toEqual(['a1', 'a2']);
  });

  it('forgets a key once nothing runs or waits, so it stays bounded however many stores it has seen', async () => {
    const limiter = new KeyedLimiter(2, 2);
    for (let i = 0; i < 1000; i++) await limiter.run(`store-${i}`, async () => i);
    await limiter
      .run('failing', async () => {
        throw new Error('boom');
      })
      .catch(() => undefined);
    expect(limiter.activeKeys).toBe(0);
  });

  it('hands the slot of a failed task to the next one waiting', async () => {
    const limiter = new KeyedLimiter(1, 1);
    const first = gate();
    const failing = limiter.run('a', async () => {
      await first.task();
      throw new Error('boom');
    });
    const next = limiter.run('a', () => 'next');
    first.open();
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toEqual({ value: 'next' });
    expect(limiter.activeKeys).toBe(0);
  });

  it('acquire hands out a release that gives the slot back once, to the next in line', async () => {
    const limiter = new KeyedLimiter(1, 1);
    const first = await limiter.acquire('a');
    const second = limiter.acquire('a');
    expect(await limiter.acquire('a')).toBeNull();
    first?.();
    first?.();
    const release = await second;
    expect(limiter.load('a')).toEqual({ running: 1, waiting: 0 });
    release?.();
    release?.();
    expect(limiter.activeKeys).toBe(0);
    expect(limiter.load('a')).toEqual({ running: 0, waiting: 0 });
  });
});
