/**
 * The order of a page: a key per document, larger first, then the document number (product id
 * order), as the SQL's ORDER BY gave it; the best few are kept in a heap, so a page of 24 out of
 * 20,000 matches sorts 24.
 */
import type { IndexData } from './index-data';
import { type RankPlan, ranksOf } from './rank';

export type IndexSort = 'relevance' | 'featured' | 'price_asc' | 'price_desc' | 'newest' | 'name';

/**
 * The first `want` documents in the order of the sort: a key, larger first, then the document
 * number (product id order), or for relevance featured first and then the document number.
 */
export function order(
  ix: IndexData,
  docs: Int32Array,
  sort: IndexSort,
  relevance: { plan: RankPlan; text: string } | undefined,
  want: number,
) {
  const m = docs.length;
  const ranks = sort === 'relevance' && relevance ? ranksOf(ix, relevance.plan, docs) : null;
  const key = new Float64Array(m);
  const tie = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    const d = docs[i] as number;
    tie[i] = d;
    switch (sort) {
      case 'price_asc':
        key[i] = -(ix.price[d] as number);
        break;
      case 'price_desc':
        key[i] = ix.price[d] as number;
        break;
      case 'newest':
        key[i] = ix.made[d] as number;
        break;
      case 'name':
        key[i] = -(ix.named[d] as number);
        break;
      case 'relevance':
        if (relevance) {
          const name = ix.lowerNames[d] as string;
          const tier = !name.startsWith(relevance.text) ? 0 : name.length === relevance.text.length ? 100 : 10;
          // int + float4 is float8 in PostgreSQL: the same sum here.
          key[i] = tier + (ranks?.[i] as number);
          tie[i] = (ix.featured[d] ? 0 : ix.n) + d;
          break;
        }
        key[i] = (ix.featured[d] as number) * 2 ** 31 + (ix.made[d] as number);
        break;
      default:
        key[i] = (ix.featured[d] as number) * 2 ** 31 + (ix.made[d] as number);
    }
  }
  const before = (a: number, b: number) =>
    (key[a] as number) > (key[b] as number) ||
    ((key[a] as number) === (key[b] as number) && (tie[a] as number) < (tie[b] as number));
  const take = Math.min(want, m);
  let picked: number[];
  if (take * 8 < m) {
    // A heap of the best `take` seen so far, worst on top.
    const heap: number[] = [];
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let w = i;
        if (l < heap.length && before(heap[w] as number, heap[l] as number)) w = l;
        if (r < heap.length && before(heap[w] as number, heap[r] as number)) w = r;
        if (w === i) return;
        [heap[i], heap[w]] = [heap[w] as number, heap[i] as number];
        i = w;
      }
    };
    for (let i = 0; i < m; i++) {
      if (heap.length < take) {
        heap.push(i);
        let c = heap.length - 1;
        while (c > 0) {
          const p = (c - 1) >> 1;
          if (!before(heap[p] as number, heap[c] as number)) break;
          [heap[p], heap[c]] = [heap[c] as number, heap[p] as number];
          c = p;
        }
      } else if (take > 0 && before(i, heap[0] as number)) {
        heap[0] = i;
        down(0);
      }
    }
    picked = heap;
  } else {
    picked = Array.from({ length: m }, (_, i) => i);
  }
  picked.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  return picked.slice(0, take).map((i) => docs[i] as number);
}
