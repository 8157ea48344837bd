/**
 * The ported parts alone, with no database: the figures are PostgreSQL's own (ts_rank of one
 * position is 1 / (pi^2 / 6) times its weight, as `SELECT ts_rank('lamp:1A', 'lamp')` answers
 * 0.6079271), so a slip in a port fails here before the oracle tests find it in a page.
 */
import { describe, expect, it } from 'vitest';
import { decodeTsQuery, TenantIndex } from '.';
import { placeKeys } from './patch';
import type { PatchRow, ProductRow } from './rows';
import { newSink, parseVector, parseVectors } from './vectors';

/** tsquerysend's bytes, written by hand: int32 item count, then the items in prefix order. */
function tsquerySend(items: ({ val: string; weight?: number; prefix?: boolean } | { oper: number })[]): Uint8Array {
  const out: number[] = [0, 0, 0, items.length];
  for (const it of items) {
    if ('val' in it) out.push(1, it.weight ?? 0, it.prefix ? 1 : 0, ...new TextEncoder().encode(it.val), 0);
    else out.push(2, it.oper);
  }
  return Uint8Array.from(out);
}

async function indexOf(vectors: Record<string, string>): Promise<TenantIndex> {
  const rows: ProductRow[] = Object.entries(vectors).map(([id, v], i) => ({
    id,
    name: id,
    brand: null,
    price: 1000,
    stock: 1,
    featured: false,
    made: i + 1,
    named: i + 1,
    v,
  }));
  return new TenantIndex(rows, await parseVectors(rows), [], [], { read: 0, total: 0 });
}

describe('tsquery decoding', () => {
  it('reads the operator before its right and left parts, and keeps the operands in item order', () => {
    // 'lamp:*B & brass': OP_AND (2), then the right operand, then the left one.
    const q = decodeTsQuery(tsquerySend([{ oper: 2 }, { val: 'brass' }, { val: 'lamp', weight: 4, prefix: true }]));
    expect(q.root).toEqual({
      op: 'and',
      left: { op: 'val', lexeme: 'lamp', prefix: true, weight: 4 },
      right: { op: 'val', lexeme: 'brass', prefix: false, weight: 0 },
    });
    expect(q.operands.map((o) => o.lexeme)).toEqual(['brass', 'lamp']);
  });

  it('reads an empty query (a text of stop words only) as matching nothing', async () => {
    const q = decodeTsQuery(Uint8Array.from([0, 0, 0, 0]));
    expect(q.root).toBeNull();
    const index = await indexOf({ a: "'lamp':1" });
    expect([...index.match(q)].every((w) => w === 0)).toBe(true);
  });
});

describe('tsvector text', () => {
  it("reads quoted lexemes with doubled quotes and backslashes, and each position's weight", () => {
    const sink = newSink();
    parseVector("'it''s':1A,7 'a\\\\b':3B 'plain'", sink);
    expect(sink.temps).toEqual(["it's", 'a\\b', 'plain']);
    // Positions are WordEntryPos: weight (A = 3 .. D = 0) << 14 | position.
    expect([...sink.positions.done()]).toEqual([(3 << 14) | 1, 7, (2 << 14) | 3]);
    // 'plain' has no positions: its entry starts where the last one ended.
    expect([...sink.entryPos.done()]).toEqual([0, 2, 3]);
  });
});

describe('ts_rank', () => {
  const lamp = decodeTsQuery(tsquerySend([{ val: 'lamp' }]));

  it("gives PostgreSQL's figures for one position of weight A and of weight D", async () => {
    const index = await indexOf({ a: "'lamp':1A", d: "'lamp':1" });
    const plan = index.rankPlan(lamp);
    expect(index.rank(plan, 0)).toBe(Math.fround(0.6079271));
    expect(index.rank(plan, 1)).toBe(Math.fround(0.06079271));
  });

  it('ranks a document one by one and all documents at once to the same float', async () => {
    const index = await indexOf({ a: "'brass':2 'lamp':1A,3,9C", b: "'lamp':4B", c: "'brass':1" });
    const q = decodeTsQuery(tsquerySend([{ oper: 3 }, { val: 'brass' }, { val: 'lamp' }]));
    const plan = index.rankPlan(q);
    const all = index.rankAll(plan, Int32Array.from([0, 1, 2]));
    for (const d of [0, 1, 2]) expect(all[d]).toBe(index.rank(plan, d));
    expect(all[0]).toBeGreaterThan(all[1] as number);
  });
});

describe('patch sort keys', () => {
  const change = (id: string, name: PatchRow['name']): PatchRow => ({
    id,
    row: { id, name: id, brand: null, price: 1, stock: 1, featured: false, v: null },
    categories: [],
    variants: [],
    name,
    made: { lo: null, loEq: false, hi: null, rank: 1 },
  });

  it("takes an equal neighbour's key, falls between the two neighbours, and gives up on one it does not hold", async () => {
    const index = await indexOf({ a: '', b: '', c: '' }); // name keys 1, 2, 3
    const keys = placeKeys(
      index,
      [
        change('same-as-a', { lo: 'a', loEq: true, hi: 'b', rank: 1 }),
        change('x', { lo: 'b', loEq: false, hi: 'c', rank: 1 }),
        change('y', { lo: 'b', loEq: false, hi: 'c', rank: 2 }),
      ],
      'name',
      index.named,
    );
    expect(keys).toEqual(
      new Map([
        ['same-as-a', 1],
        ['x', 2 + 1 / 3],
        ['y', 2 + 2 / 3],
      ]),
    );
    expect(placeKeys(index, [change('z', { lo: 'gone', loEq: false, hi: null, rank: 1 })], 'name', index.named)).toBe(
      null,
    );
  });
});
