/**
 * What one tenant's index holds, as the files that match, rank, order and patch read it. TenantIndex
 * (tenant-index.ts) builds these arrays; the other files take them through this interface, so each
 * can be read and tested without the class and none of them imports it.
 *
 * Documents are the tenant's ACTIVE products in product id order (PostgreSQL's `COLLATE "C"`).
 */
import { compareLexemes } from './pg-qsort';
import type { TsOperand } from './tsquery';

export interface IndexData {
  readonly n: number;
  readonly ids: string[];
  readonly docOf: Map<string, number>;
  readonly lowerNames: string[];
  readonly price: Int32Array;
  /** The price facet's band of each product (PRICE_BANDS.length: in none). */
  readonly band: Uint8Array;
  readonly stock: Int32Array;
  readonly featured: Uint8Array;
  /** dense_rank by introduction date and by name, computed by PostgreSQL (its collation). */
  /** Floats: a patched product's key falls between its neighbours' (see PatchRow). */
  readonly made: Float64Array;
  readonly named: Float64Array;
  readonly brand: Int32Array;
  readonly brands: string[];
  readonly categories: { id: string; label: string }[];
  readonly categoryOf: Map<string, number>;
  readonly docCatStart: Int32Array;
  readonly docCats: Int32Array;
  /**
   * Option facets (decision 112). Value keys as PostgreSQL gave them (rows.ts) are interned as
   * `raws`; each maps to a value (`rawValue`): an option's folded name and a folded label, shown
   * with the smallest spelling and position any product gives it. Documents' enabled live variants
   * with options are docVarStart[d] .. docVarStart[d + 1], each with three raw ids (-1: none) and
   * whether it is in stock.
   */
  readonly raws: string[];
  readonly rawValue: Int32Array;
  readonly options: { key: string; name: string; position: number }[];
  readonly values: { option: number; key: string; label: string; position: number }[];
  readonly docVarStart: Int32Array;
  readonly varRaw: Int32Array;
  readonly varStock: Uint8Array;
  /** Lexemes in PostgreSQL's order; a lexeme's id is its place here. */
  readonly lexemes: string[];
  /** Inverted: documents of lexeme l are postDocs[postStart[l] .. postStart[l + 1]). */
  readonly postStart: Int32Array;
  readonly postDocs: Int32Array;
  /**
   * Beside each posting, what its entry adds to ts_rank's OR formula before the division by
   * pi^2/6 (it depends on the entry's positions alone). Ranking then reads postings in order
   * instead of looking up each match's entries: 20,000 matches cost a sequential pass.
   */
  readonly postGain: Float32Array;
  /** Forward: a document's lexemes (ascending ids) with their positions (WordEntryPos: weight << 14 | pos). */
  readonly docEntryStart: Int32Array;
  readonly entryLex: Int32Array;
  readonly entryPosStart: Int32Array;
  readonly positions: Uint16Array;
  /** Documents sorted by lower-cased name (code units), built on the first autocomplete (answer.ts). */
  byName: Int32Array | null;
  /** Lexeme ids an operand stands for: one, or a prefix's range (remembered per query operand). */
  range(o: TsOperand): [number, number];
}

/** A typed array that grows by doubling (no array of numbers on the way: a build fills millions). */
export class Grow<T extends Int32Array | Uint16Array> {
  n = 0;
  constructor(
    public a: T,
    private readonly make: (n: number) => T,
  ) {}
  push(v: number) {
    if (this.n === this.a.length) {
      const b = this.make(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done(): T {
    return this.a.slice(0, this.n) as T;
  }
}

/** An empty set of documents, one bit each. */
export function emptySet(n: number): Uint32Array {
  return new Uint32Array((n + 31) >>> 5);
}

/** Calls fn with each document of the bit set, in ascending order. */
export function forEachDoc(set: Uint32Array, fn: (d: number) => void) {
  for (let w = 0; w < set.length; w++) {
    let x = set[w] as number;
    while (x) {
      const low = x & -x;
      fn((w << 5) + 31 - Math.clz32(low));
      x ^= low;
    }
  }
}

/** First entry of document d with a lexeme id >= lo. */
export function entryFrom(ix: IndexData, d: number, lo: number): number {
  let a = ix.docEntryStart[d] as number;
  let b = ix.docEntryStart[d + 1] as number;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if ((ix.entryLex[mid] as number) < lo) a = mid + 1;
    else b = mid;
  }
  return a;
}

/** The entry of lexeme l in document d, or -1. */
export function entryOf(ix: IndexData, d: number, l: number): number {
  if (l < 0) return -1;
  const e = entryFrom(ix, d, l);
  return e < (ix.docEntryStart[d + 1] as number) && ix.entryLex[e] === l ? e : -1;
}

/** The id of the first lexeme not before `lexeme` (a binary search: no map of 100,000 strings). */
export function lowerBound(lexemes: string[], lexeme: string): number {
  let lo = 0;
  let hi = lexemes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareLexemes(lexemes[mid] as string, lexeme) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The id of a lexeme, or -1 if no product has it. */
export function lexemeIdOf(lexemes: string[], lexeme: string): number {
  const i = lowerBound(lexemes, lexeme);
  return lexemes[i] === lexeme ? i : -1;
}

/** The lexeme ids [lo, hi) an operand stands for: one, or every lexeme starting with a prefix. */
export function findRange(lexemes: string[], o: TsOperand): [number, number] {
  const lo = lowerBound(lexemes, o.lexeme);
  if (!o.prefix) return lexemes[lo] === o.lexeme ? [lo, lo + 1] : [0, 0];
  let end = lo;
  while (end < lexemes.length && (lexemes[end] as string).startsWith(o.lexeme)) end++;
  return [lo, end];
}
