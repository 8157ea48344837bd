/**
 * ts_rank(search_vector, q) as PostgreSQL computes it (tsrank.c, default weights, normalization 0),
 * to the bit: in float4 like the C code, every float operation is rounded with Math.fround (a double
 * result rounded to float equals the float result for + - * / and sqrt), the steps C does in double
 * stay in double. Equal ranks then tie as they did in SQL, so pages come out in the same order.
 */
import { entryFrom, type IndexData } from './index-data';
import { compareLexemes, pgQsort } from './pg-qsort';
import type { TsOperand, TsQuery } from './tsquery';

const f = Math.fround;
/** D, C, B, A: WEP_GETWEIGHT 0..3. */
const WEIGHTS = [f(0.1), f(0.2), f(0.4), f(1)];
const MAXENTRYPOS = 1 << 14;
const WORD_DISTANCE = Array.from({ length: 101 }, (_, w) => f(1 / (1.005 + 0.05 * Math.exp(f(w) / 1.5 - 2))));
const wordDistance = (w: number) => (w > 100 ? f(1e-30) : (WORD_DISTANCE[w] as number));

/** The query's distinct operands in ts_rank's order, each as a range of lexeme ids. */
export interface RankPlan {
  and: boolean;
  ranges: Int32Array; // lo, hi pairs
  size: number;
}

/**
 * The query's distinct operands as ts_rank visits them: sorted by PostgreSQL's qsort, the first of
 * equal operands ("lamp" and "lamp:*") kept, each as its range of lexeme ids in this index.
 */
export function rankPlan(ix: IndexData, q: TsQuery): RankPlan {
  const items = [...q.operands];
  const cmp = (a: TsOperand, b: TsOperand) => compareLexemes(a.lexeme, b.lexeme);
  if (items.length >= 2) pgQsort(items, cmp);
  const unique: TsOperand[] = [];
  for (const it of items) if (!unique.length || cmp(it, unique[unique.length - 1] as TsOperand) !== 0) unique.push(it);
  const ranges = new Int32Array(unique.length * 2);
  unique.forEach((o, i) => {
    ranges.set(ix.range(o), i * 2);
  });
  const top = q.root;
  return { and: !!top && (top.op === 'and' || top.op === 'phrase'), ranges, size: unique.length };
}

/** ts_rank(search_vector, q) of document d. */
export function rank(ix: IndexData, plan: RankPlan, d: number): number {
  if (ix.docEntryStart[d] === ix.docEntryStart[d + 1] || plan.size === 0) return 0;
  if (plan.and && plan.size >= 2) {
    const res = rankAnd(ix, plan, d);
    return res < 0 ? f(1e-20) : res;
  }
  return rankOr(ix, plan, d);
}

/** calc_rank_or's term of one tsvector entry: (wjm + resj - wjm / (jm + 1)^2), in float4. */
export function entryGain(ix: IndexData, e: number): number {
  const from = ix.entryPosStart[e] as number;
  const count = (ix.entryPosStart[e + 1] as number) - from;
  let resj = 0;
  let wjm = -1;
  let jm = 0;
  // An entry without positions counts as one position of weight D (tsrank.c's posnull).
  for (let j = 0; j < Math.max(count, 1); j++) {
    const w = WEIGHTS[count ? (ix.positions[from + j] as number) >> 14 : 0] as number;
    resj = f(resj + f(w / ((j + 1) * (j + 1))));
    if (w > wjm) {
      wjm = w;
      jm = j;
    }
  }
  return f(f(wjm + resj) - f(wjm / ((jm + 1) * (jm + 1))));
}

function rankOr(ix: IndexData, plan: RankPlan, d: number): number {
  let res = 0;
  const end = ix.docEntryStart[d + 1] as number;
  for (let i = 0; i < plan.size; i++) {
    const lo = plan.ranges[2 * i] as number;
    const hi = plan.ranges[2 * i + 1] as number;
    if (lo === hi) continue;
    for (let e = entryFrom(ix, d, lo); e < end && (ix.entryLex[e] as number) < hi; e++) {
      res = f(res + entryGain(ix, e) / 1.64493406685);
    }
  }
  return f(res / plan.size);
}

/**
 * ts_rank of every document of `docs` at once, indexed by document. For the OR formula (nearly
 * every search: the query is an OR of the stemmed, unstemmed and prefix forms) the sum runs over
 * postings, operand by operand and lexeme by lexeme: each document receives its terms in the
 * order calc_rank_or adds them, so the float4 sums are the same.
 */
export function rankAll(ix: IndexData, plan: RankPlan, docs: Int32Array): Float64Array {
  const out = new Float64Array(ix.n);
  if (plan.and && plan.size >= 2) {
    for (const d of docs) out[d] = rank(ix, plan, d);
    return out;
  }
  for (let i = 0; i < plan.size; i++) {
    const lo = plan.ranges[2 * i] as number;
    const hi = plan.ranges[2 * i + 1] as number;
    const from = ix.postStart[lo] as number;
    const to = ix.postStart[hi] as number;
    for (let k = from; k < to; k++) {
      const d = ix.postDocs[k] as number;
      out[d] = f((out[d] as number) + (ix.postGain[k] as number) / 1.64493406685);
    }
  }
  if (plan.size) for (const d of docs) out[d] = f((out[d] as number) / plan.size);
  return out;
}

/**
 * ts_rank of each of `docs`, by position in it. A few documents are ranked one by one (each a
 * look at its own entries); many at once through the postings, which costs the postings of every
 * lexeme the query names whatever the number of documents asked for.
 */
export function ranksOf(ix: IndexData, plan: RankPlan, docs: Int32Array): Float64Array {
  const out = new Float64Array(docs.length);
  if (docs.length * 64 < ix.n) {
    for (let i = 0; i < docs.length; i++) out[i] = rank(ix, plan, docs[i] as number);
    return out;
  }
  const byDoc = rankAll(ix, plan, docs);
  for (let i = 0; i < docs.length; i++) out[i] = byDoc[docs[i] as number] as number;
  return out;
}

function rankAnd(ix: IndexData, plan: RankPlan, d: number): number {
  let res = -1;
  const end = ix.docEntryStart[d + 1] as number;
  const posStart = ix.entryPosStart;
  const positions = ix.positions;
  // last[i]: the last entry seen of operand i (tsrank.c keeps one per operand); -1 none.
  const last = new Int32Array(plan.size).fill(-1);
  // Positions are read in place (no array per entry: autocomplete ranks thousands of documents
  // this way). An entry without positions has one, at MAXENTRYPOS - 1 with weight D (tsrank.c's
  // POSNULL), marked negative.
  const NULL_POS = -(MAXENTRYPOS - 1);
  for (let i = 0; i < plan.size; i++) {
    const lo = plan.ranges[2 * i] as number;
    const hi = plan.ranges[2 * i + 1] as number;
    if (lo === hi) continue;
    for (let e = entryFrom(ix, d, lo); e < end && (ix.entryLex[e] as number) < hi; e++) {
      last[i] = e;
      const pFrom = posStart[e] as number;
      const pTo = posStart[e + 1] as number;
      const pCount = pFrom === pTo ? 1 : pTo - pFrom;
      for (let k = 0; k < i; k++) {
        const other = last[k] as number;
        if (other < 0) continue;
        const cFrom = posStart[other] as number;
        const cTo = posStart[other + 1] as number;
        const cCount = cFrom === cTo ? 1 : cTo - cFrom;
        for (let a = 0; a < pCount; a++) {
          const pl = pFrom === pTo ? NULL_POS : (positions[pFrom + a] as number);
          for (let b = 0; b < cCount; b++) {
            const pp = cFrom === cTo ? NULL_POS : (positions[cFrom + b] as number);
            const nullPos = pl < 0 || pp < 0;
            let dist = Math.abs((Math.abs(pl) & 0x3fff) - (Math.abs(pp) & 0x3fff));
            if (dist || nullPos) {
              if (!dist) dist = MAXENTRYPOS;
              const wl = WEIGHTS[pl < 0 ? 0 : pl >> 14] as number;
              const wp = WEIGHTS[pp < 0 ? 0 : pp >> 14] as number;
              const curw = f(Math.sqrt(f(f(wl * wp) * wordDistance(dist))));
              res = res < 0 ? curw : f(1.0 - (1.0 - res) * (1.0 - curw));
            }
          }
        }
      }
    }
  }
  return res;
}
