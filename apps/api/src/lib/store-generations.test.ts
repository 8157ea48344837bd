import { describe, expect, it } from 'vitest';
import { StoreValues } from './store-generations';

describe('StoreValues', () => {
  it('keeps a store’s value until it is dropped, then reads it again', async () => {
    const values = new StoreValues<string[]>(60_000);
    let reads = 0;
    const read = async () => {
      reads++;
      return [`words ${reads}`];
    };
    expect(await values.get('a', read)).toEqual(['words 1']);
    expect(await values.get('a', read)).toEqual(['words 1']);
    expect(await values.get('b', read)).toEqual(['words 2']);
    values.drop('a');
    expect(await values.get('a', read)).toEqual(['words 3']);
    expect(await values.get('b', read)).toEqual(['words 2']);
    values.clear();
    expect(await values.get('b', read)).toEqual(['words 4']);
  });

  it('does not keep a value whose read overlapped a change of that store', async () => {
    const values = new StoreValues<string>(60_000);
    let release!: () => void;
    const slow = values.get('a', () => new Promise<string>((r) => (release = () => r('old name'))));
    values.drop('a'); // the product is renamed while the old words are being read
    release();
    expect(await slow).toBe('old name'); // the request that read it is answered
    expect(await values.get('a', async () => 'new name')).toBe('new name');
    // The same after a change of every store.
    const slowAll = values.get('b', () => new Promise<string>((r) => (release = () => r('old'))));
    values.clear();
    release();
    await slowAll;
    expect(await values.get('b', async () => 'new')).toBe('new');
  });

  it('lets callers of a store whose read is under way share it, and a drop start a new one', async () => {
    let now = 0;
    const values = new StoreValues<string>(1000, 10, () => now);
    const releases: (() => void)[] = [];
    const read = () => {
      const n = releases.length + 1;
      return new Promise<string>((r) => releases.push(() => r(`read ${n}`)));
    };
    const first = values.get('a', read);
    const second = values.get('a', read);
    releases[0]?.();
    expect([await first, await second]).toEqual(['read 1', 'read 1']);
    expect(await values.get('a', read)).toBe('read 1'); // kept: no read
    expect(releases).toHaveLength(1);
    now = 1001; // past its time to live, by the clock it was given
    const third = values.get('a', read);
    values.drop('a'); // changed while the third read runs: the next caller reads anew
    const fourth = values.get('a', read);
    expect(releases).toHaveLength(3);
    releases[1]?.();
    releases[2]?.();
    expect([await third, await fourth]).toEqual(['read 2', 'read 3']);
    // The third read overlapped the drop, so only the fourth's is kept.
    expect(await values.get('a', read)).toBe('read 3');
    expect(releases).toHaveLength(3);
  });

  it('reads again once the value is older than its time to live', async () => {
    const values = new StoreValues<number>(0);
    let n = 0;
    await values.get('a', async () => ++n);
    expect(await values.get('a', async () => ++n)).toBe(2);
  });

  it('past its bound, makes room by the store used least recently, not by forgetting all', async () => {
    const values = new StoreValues<string>(60_000, 2);
    const reads: string[] = [];
    const read = (tenantId: string) => async () => {
      reads.push(tenantId);
      return `${tenantId} data`;
    };
    await values.get('busy', read('busy'));
    await values.get('quiet', read('quiet'));
    await values.get('busy', read('busy')); // used again: now the most recent
    await values.get('new', read('new')); // a third store: 'quiet' makes room
    expect(reads).toEqual(['busy', 'quiet', 'new']);
    expect(await values.get('busy', read('busy'))).toBe('busy data');
    expect(await values.get('new', read('new'))).toBe('new data');
    expect(reads).toEqual(['busy', 'quiet', 'new']); // both still kept
    await values.get('quiet', read('quiet'));
    expect(reads).toEqual(['busy', 'quiet', 'new', 'quiet']); // it was the one evicted
  });
});
