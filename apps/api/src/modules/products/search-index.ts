/**
 * Product search in process (decision 014). PostgreSQL stays the source of truth and the text
 * analyser: it stems the query (websearch_to_tsquery) and computes every product's tsvector. This
 * module keeps, per tenant, what a search needs from those vectors and from the filterable columns
 * in typed arrays, and answers match, rank, facets, sort and paging without reading the table.
 *
 * Answers equal the SQL they replace: `search_vector @@ q`, ordered by the name tiers plus
 * `ts_rank(search_vector, q)` (reproduced from PostgreSQL's tsrank.c with its float4 arithmetic, so
 * ties order as they did), facets counted with every filter but their own. The tests compare both.
 */
import { categoryLabel, type Facets, PRICE_BANDS, priceBandLabel } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { prefixTsQuery, queryWords, usesOperators } from './search-text';

// ---------------------------------------------------------------------------------------------
// tsquery: PostgreSQL's binary form (tsquerysend), which keeps the order of the query's items.
// ts_rank depends on that order (see rankPlan), which the text form does not preserve.

export interface TsOperand {
  op: 'val';
  lexeme: string;
  prefix: boolean;
  /** Weight mask (A = 8, B = 4, C = 2, D = 1); 0 means any weight. */
  weight: number;
}
export type TsNode =
  | TsOperand
  | { op: 'not'; arg: TsNode }
  | { op: 'and' | 'or'; left: TsNode; right: TsNode }
  | { op: 'phrase'; left: TsNode; right: TsNode; distance: number };

export interface TsQuery {
  root: TsNode | null;
  /** The operands in PostgreSQL's item order. */
  operands: TsOperand[];
}

const QI_VAL = 1;
const OP_NOT = 1;
const OP_AND = 2;
const OP_PHRASE = 4;

/** Decodes tsquerysend's bytes: int32 size, then items in prefix order (operator, right, left). */
export function decodeTsQuery(bytes: Uint8Array): TsQuery {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = view.getInt32(0);
  const decoder = new TextDecoder();
  let at = 4;
  type Item = TsOperand | { op: 'opr'; oper: number; distance: number };
  const items: Item[] = [];
  for (let i = 0; i < size; i++) {
    const type = bytes[at++];
    if (type === QI_VAL) {
      const weight = bytes[at++] as number;
      const prefix = bytes[at++] !== 0;
      const end = bytes.indexOf(0, at);
      items.push({ op: 'val', weight, prefix, lexeme: decoder.decode(bytes.subarray(at, end)) });
      at = end + 1;
    } else {
      const oper = bytes[at++] as number;
      let distance = 0;
      if (oper === OP_PHRASE) {
        distance = view.getInt16(at);
        at += 2;
      }
      items.push({ op: 'opr', oper, distance });
    }
  }
  let pos = 0;
  const tree = (): TsNode => {
    const item = items[pos++];
    if (!item) throw new Error('malformed tsquery');
    if (item.op === 'val') return item;
    if (item.oper === OP_NOT) return { op: 'not', arg: tree() };
    const right = tree();
    const left = tree();
    if (item.oper === OP_PHRASE) return { op: 'phrase', left, right, distance: item.distance };
    return { op: item.oper === OP_AND ? 'and' : 'or', left, right }; // OP_OR = 3
  };
  return {
    root: size ? tree() : null,
    operands: items.filter((x): x is TsOperand => x.op === 'val'),
  };
}

/** Lexeme order of PostgreSQL (tsCompareString): UTF-8 bytes, then length. */
export function compareLexemes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 puts surrogates (code points above U+FFFF) below U+E000..U+FFFF; UTF-8 puts them above.
    if (x >= 0xd800 && x < 0xe000) x += 0x10000;
    if (y >= 0xd800 && y < 0xe000) y += 0x10000;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/**
 * PostgreSQL's qsort (src/include/lib/sort_template.h), element for element: ts_rank keeps the
 * first of equal operands ("lamp" and "lamp:*") after this sort, and which one that is depends on
 * the algorithm, not only on the comparator.
 */
export function pgQsort<T>(arr: T[], cmp: (a: T, b: T) => number, base = 0, count = arr.length): void {
  const swap = (i: number, j: number) => {
    const t = arr[i] as T;
    arr[i] = arr[j] as T;
    arr[j] = t;
  };
  const c = (i: number, j: number) => cmp(arr[i] as T, arr[j] as T);
  const med3 = (a: number, b: number, m: number) =>
    c(a, b) < 0 ? (c(b, m) < 0 ? b : c(a, m) < 0 ? m : a) : c(b, m) > 0 ? b : c(a, m) < 0 ? a : m;
  let a = base;
  let n = count;
  for (;;) {
    if (n < 7) {
      for (let pm = a + 1; pm < a + n; pm++) for (let pl = pm; pl > a && c(pl - 1, pl) > 0; pl--) swap(pl, pl - 1);
      return;
    }
    let presorted = true;
    for (let pm = a + 1; pm < a + n; pm++) {
      if (c(pm - 1, pm) > 0) {
        presorted = false;
        break;
      }
    }
    if (presorted) return;
    let pm = a + Math.floor(n / 2);
    if (n > 7) {
      let pl = a;
      let pn = a + n - 1;
      if (n > 40) {
        const d = Math.floor(n / 8);
        pl = med3(pl, pl + d, pl + 2 * d);
        pm = med3(pm - d, pm, pm + d);
        pn = med3(pn - 2 * d, pn - d, pn);
      }
      pm = med3(pl, pm, pn);
    }
    swap(a, pm);
    let pa = a + 1;
    let pb = pa;
    let pc = a + n - 1;
    let pd = pc;
    for (;;) {
      while (pb <= pc) {
        const r = c(pb, a);
        if (r > 0) break;
        if (r === 0) swap(pa++, pb);
        pb++;
      }
      while (pb <= pc) {
        const r = c(pc, a);
        if (r < 0) break;
        if (r === 0) swap(pc, pd--);
        pc--;
      }
      if (pb > pc) break;
      swap(pb++, pc--);
    }
    const pn = a + n;
    let d1 = Math.min(pa - a, pb - pa);
    for (let i = 0; i < d1; i++) swap(a + i, pb - d1 + i);
    d1 = Math.min(pd - pc, pn - pd - 1);
    for (let i = 0; i < d1; i++) swap(pb + i, pn - d1 + i);
    d1 = pb - pa;
    const d2 = pd - pc;
    if (d1 <= d2) {
      if (d1 > 1) pgQsort(arr, cmp, a, d1);
      if (d2 > 1) {
        a = pn - d2;
        n = d2;
        continue;
      }
    } else {
      if (d2 > 1) pgQsort(arr, cmp, pn - d2, d2);
      if (d1 > 1) {
        n = d1;
        continue;
      }
    }
    return;
  }
}

// ---------------------------------------------------------------------------------------------
// ts_rank (tsrank.c, default weights, normalization 0), in float4 like the C code: every float
// operation is rounded with Math.fround (a double result rounded to float equals the float result
// for + - * / and sqrt), the steps C does in double stay in double.

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

// ---------------------------------------------------------------------------------------------

class Grow<T extends Int32Array | Uint16Array> {
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

export interface IndexFilters {
  featured?: boolean;
  categoryId?: string;
  brands?: string[];
  priceMin?: number;
  priceMax?: number;
  inStock?: boolean;
}

export type IndexSort = 'relevance' | 'featured' | 'price_asc' | 'price_desc' | 'newest' | 'name';

export interface IndexPage {
  ids: string[];
  total: number;
  facets: Facets;
}

interface ProductRow {
  id: string;
  name: string;
  brand: string | null;
  price: number;
  stock: number;
  featured: boolean;
  made: number;
  named: number;
  v: string | null;
}

const F_CATEGORY = 1;
const F_BRAND = 2;
const F_PRICE = 4;
const F_STOCK = 8;

interface ParsedVectors {
  temps: string[];
  docEntryStart: Int32Array;
  entryLex: Grow<Int32Array>;
  entryPos: Grow<Int32Array>;
  positions: Grow<Uint16Array>;
}

/** Where tsvector texts are parsed to: lexemes numbered in order of appearance, and each entry. */
interface VectorSink {
  tempOf: Map<string, number>;
  temps: string[];
  entryLex: Grow<Int32Array>;
  entryPos: Grow<Int32Array>;
  positions: Grow<Uint16Array>;
}

function newSink(temps: string[] = []): VectorSink {
  return {
    tempOf: new Map(temps.map((t, i) => [t, i])),
    temps,
    entryLex: new Grow(new Int32Array(1 << 16), (k) => new Int32Array(k)),
    entryPos: new Grow(new Int32Array(1 << 16), (k) => new Int32Array(k)),
    positions: new Grow(new Uint16Array(1 << 16), (k) => new Uint16Array(k)),
  };
}

/** One tsvector's text form ('lexeme':1A,7 'other':3B ...) into the sink, entry by entry. */
function parseVector(s: string, sink: VectorSink) {
  const { tempOf, temps, entryLex, entryPos, positions } = sink;
  const len = s.length;
  let i = 0;
  while (i < len) {
    i++; // opening quote
    let lex = '';
    let start = i;
    for (;;) {
      const ch = s.charCodeAt(i);
      if (ch === 39) {
        if (s.charCodeAt(i + 1) === 39) {
          lex += s.slice(start, i + 1);
          i += 2;
          start = i;
          continue;
        }
        lex += s.slice(start, i);
        i++;
        break;
      }
      if (ch === 92) {
        lex += s.slice(start, i) + s.charAt(i + 1);
        i += 2;
        start = i;
        continue;
      }
      if (Number.isNaN(ch)) throw new Error('malformed tsvector text');
      i++;
    }
    let t = tempOf.get(lex);
    if (t === undefined) {
      t = temps.push(lex) - 1;
      tempOf.set(lex, t);
    }
    entryLex.push(t);
    entryPos.push(positions.n);
    if (s.charCodeAt(i) === 58) {
      i++;
      for (;;) {
        let p = 0;
        let ch = s.charCodeAt(i);
        while (ch >= 48 && ch <= 57) {
          p = p * 10 + ch - 48;
          ch = s.charCodeAt(++i);
        }
        let w = 0;
        if (ch === 65) w = 3;
        else if (ch === 66) w = 2;
        else if (ch === 67) w = 1;
        if (ch >= 65 && ch <= 68) i++;
        positions.push((w << 14) | p);
        if (s.charCodeAt(i) !== 44) break;
        i++;
      }
    }
    if (s.charCodeAt(i) === 32) i++;
  }
}

/**
 * The tsvectors of the rows, lexemes numbered in order of appearance. The longest step of a build:
 * it yields to the event loop every few thousand products so that requests keep being answered
 * while a large store's index is rebuilt.
 */
async function parseVectors(rows: ProductRow[]): Promise<ParsedVectors> {
  const n = rows.length;
  const sink = newSink();
  const docEntryStart = new Int32Array(n + 1);
  for (let d = 0; d < n; d++) {
    if (d % 5000 === 4999) await new Promise((resolve) => setImmediate(resolve));
    parseVector((rows[d] as ProductRow).v ?? '', sink);
    docEntryStart[d + 1] = sink.entryLex.n;
  }
  sink.entryPos.push(sink.positions.n);
  return {
    temps: sink.temps,
    docEntryStart,
    entryLex: sink.entryLex,
    entryPos: sink.entryPos,
    positions: sink.positions,
  };
}

/**
 * A product's fresh state for an incremental patch of a loaded index: its row (null when it is
 * gone or not ACTIVE: its document is removed), and where its name and introduction date fall
 * among the other ACTIVE products in PostgreSQL's order (the neighbours below and above, `eq` when
 * the one below has the very same value), so the sort keys stay what dense_rank would give.
 */
export interface PatchRow {
  id: string;
  row: Omit<ProductRow, 'made' | 'named'> | null;
  categories: { id: string; name: string | null; description: string | null }[];
  name: { lo: string | null; loEq: boolean; hi: string | null; rank: number };
  made: { lo: string | null; loEq: boolean; hi: string | null; rank: number };
}

/** Product id order of the index: PostgreSQL's `ORDER BY product_id COLLATE "C"` (bytes). */
const compareIds = compareLexemes;

/** One tenant's products, as typed arrays over document numbers (documents in product id order). */
export class TenantIndex {
  readonly n: number;
  readonly ids: string[];
  private readonly docOf: Map<string, number>;
  private readonly lowerNames: string[];
  private readonly price: Int32Array;
  /** The price facet's band of each product (PRICE_BANDS.length: in none). */
  private readonly band: Uint8Array;
  private readonly stock: Int32Array;
  private readonly featured: Uint8Array;
  /** dense_rank by introduction date and by name, computed by PostgreSQL (its collation). */
  /** Floats: a patched product's key falls between its neighbours' (see PatchRow). */
  private readonly made: Float64Array;
  private readonly named: Float64Array;
  private readonly brand: Int32Array;
  private readonly brands: string[];
  private readonly categories: { id: string; label: string }[];
  private readonly categoryOf: Map<string, number>;
  private readonly docCatStart: Int32Array;
  private readonly docCats: Int32Array;
  /** Lexemes in PostgreSQL's order; a lexeme's id is its place here. */
  private readonly lexemes: string[];
  /** Inverted: documents of lexeme l are postDocs[postStart[l] .. postStart[l + 1]). */
  private readonly postStart: Int32Array;
  private readonly postDocs: Int32Array;
  /**
   * Beside each posting, what its entry adds to ts_rank's OR formula before the division by
   * pi^2/6 (it depends on the entry's positions alone). Ranking then reads postings in order
   * instead of looking up each match's entries: 20,000 matches cost a sequential pass.
   */
  private readonly postGain: Float32Array;
  /** Forward: a document's lexemes (ascending ids) with their positions (WordEntryPos: weight << 14 | pos). */
  private readonly docEntryStart: Int32Array;
  private readonly entryLex: Int32Array;
  private readonly entryPosStart: Int32Array;
  private readonly positions: Uint16Array;
  readonly bytes: number;

  constructor(
    rows: ProductRow[],
    vectors: ParsedVectors,
    memberships: { productId: string; categoryId: string }[],
    categoryRows: { productCategoryId: string; categoryName: string | null; description: string | null }[],
    readonly buildMs: { read: number; total: number },
  ) {
    const n = rows.length;
    this.n = n;
    this.ids = new Array(n);
    this.lowerNames = new Array(n);
    this.docOf = new Map();
    for (let d = 0; d < n; d++) {
      const r = rows[d] as ProductRow;
      this.ids[d] = r.id;
      this.docOf.set(r.id, d);
      this.lowerNames[d] = r.name.toLowerCase();
    }
    this.price = new Int32Array(n);
    this.band = new Uint8Array(n);
    this.stock = new Int32Array(n);
    this.featured = new Uint8Array(n);
    this.made = new Float64Array(n);
    this.named = new Float64Array(n);
    this.brand = new Int32Array(n);
    this.brands = [];
    const brandOf = new Map<string, number>();
    for (let d = 0; d < n; d++) {
      const r = rows[d] as ProductRow;
      this.price[d] = r.price;
      let band = 0;
      while (band < PRICE_BANDS.length) {
        const [lo, hi] = PRICE_BANDS[band] as readonly [number, number | null];
        if (r.price >= lo && (hi === null || r.price < hi)) break;
        band++;
      }
      this.band[d] = band; // PRICE_BANDS.length: in no band
      this.stock[d] = r.stock;
      this.featured[d] = r.featured ? 1 : 0;
      this.made[d] = r.made;
      this.named[d] = r.named;
      let b = -1;
      if (r.brand !== null) {
        b = brandOf.get(r.brand) ?? -1;
        if (b < 0) {
          b = this.brands.push(r.brand) - 1;
          brandOf.set(r.brand, b);
        }
      }
      this.brand[d] = b;
    }

    this.categories = categoryRows.map((c) => ({ id: c.productCategoryId, label: categoryLabel(c) }));
    this.categoryOf = new Map(this.categories.map((c, i) => [c.id, i]));
    const catCount = new Int32Array(n + 1);
    // Typed pairs, not 200,000 small arrays: this runs without yielding to the event loop.
    const memberDoc = new Int32Array(memberships.length);
    const memberCat = new Int32Array(memberships.length);
    let members = 0;
    for (const m of memberships) {
      const d = this.docOf.get(m.productId);
      if (d === undefined) continue;
      let c = this.categoryOf.get(m.categoryId);
      if (c === undefined) {
        // A membership of a category row that does not exist: counted under its id, as SQL did.
        c = this.categories.push({ id: m.categoryId, label: m.categoryId }) - 1;
        this.categoryOf.set(m.categoryId, c);
      }
      memberDoc[members] = d;
      memberCat[members++] = c;
      (catCount[d + 1] as number)++;
    }
    for (let d = 0; d < n; d++) (catCount[d + 1] as number) += catCount[d] as number;
    this.docCatStart = catCount;
    this.docCats = new Int32Array(members);
    const fill = catCount.slice(0, n);
    for (let k = 0; k < members; k++) this.docCats[(fill[memberDoc[k] as number] as number)++] = memberCat[k] as number;

    const { temps, docEntryStart, entryLex, entryPos, positions } = vectors;

    // Lexeme ids in PostgreSQL's order, so a prefix is a range of ids and a document's entries
    // stay in the order ts_rank visits them.
    const order = temps.map((_, i) => i).sort((a, b) => compareLexemes(temps[a] as string, temps[b] as string));
    const remap = new Int32Array(temps.length);
    order.forEach((t, i) => {
      remap[t] = i;
    });
    this.lexemes = order.map((t) => temps[t] as string);
    const lex = entryLex.done();
    for (let e = 0; e < lex.length; e++) lex[e] = remap[lex[e] as number] as number;
    this.docEntryStart = docEntryStart;
    this.entryLex = lex;
    this.entryPosStart = entryPos.done();
    this.positions = positions.done();

    const postStart = new Int32Array(this.lexemes.length + 1);
    for (let e = 0; e < lex.length; e++) (postStart[(lex[e] as number) + 1] as number)++;
    for (let l = 0; l < this.lexemes.length; l++) (postStart[l + 1] as number) += postStart[l] as number;
    const postDocs = new Int32Array(lex.length);
    const postGain = new Float32Array(lex.length);
    const next = postStart.slice(0, this.lexemes.length);
    for (let d = 0; d < n; d++) {
      const end = docEntryStart[d + 1] as number;
      for (let e = docEntryStart[d] as number; e < end; e++) {
        const l = lex[e] as number;
        postGain[next[l] as number] = this.entryGain(e);
        postDocs[(next[l] as number)++] = d;
        // PostgreSQL writes lexemes in its order; should a version differ, ranks would too.
        if (e > (docEntryStart[d] as number) && l <= (lex[e - 1] as number)) throw new Error('tsvector out of order');
      }
    }
    this.postStart = postStart;
    this.postDocs = postDocs;
    this.postGain = postGain;

    const strings = (list: string[]) => list.reduce((s, x) => s + 40 + 2 * x.length, 0);
    this.bytes =
      [
        this.price,
        this.band,
        this.stock,
        this.featured,
        this.made,
        this.named,
        this.brand,
        this.docCatStart,
        this.docCats,
        this.postStart,
        this.postDocs,
        this.postGain,
        this.docEntryStart,
        this.entryLex,
        this.entryPosStart,
        this.positions,
      ].reduce((s, a) => s + a.byteLength, 0) +
      strings(this.ids) * 2 + // the ids and the id -> document map
      strings(this.lowerNames) +
      strings(this.lexemes) +
      4 * n; // the name order of autocomplete's lean path, once built
  }

  /** Stock changes in place (checkout): no rebuild. */
  setStock(productId: string, stock: number) {
    const d = this.docOf.get(productId);
    if (d !== undefined) this.stock[d] = stock;
  }

  /**
   * A new index equal to what a rebuild would give after the changes, made from this one without
   * reading the unchanged products again: changed documents are replaced, added or removed (a
   * product gone or no longer ACTIVE), everything else is copied. Lexemes no product uses any more
   * stay in the table (they match nothing); the next rebuild (TTL) drops them. Null when the
   * changes cannot be placed exactly (a neighbour this index does not hold, sort keys too close):
   * the caller rebuilds instead.
   */
  patched(changes: PatchRow[], buildMs: { read: number; total: number }): TenantIndex | null {
    const t0 = performance.now();
    const changed = new Map(changes.map((c) => [c.id, c]));
    const nameKey = this.placeKeys(changes, 'name', this.named);
    const madeKey = this.placeKeys(changes, 'made', this.made);
    if (!nameKey || !madeKey) return null;

    // The documents in product id order: the kept ones (already in order) merged with the added.
    const added = changes
      .filter((c) => c.row && !this.docOf.has(c.id))
      .map((c) => c.id)
      .sort(compareIds);
    type Doc = { old: number } | { change: PatchRow };
    const docs: Doc[] = [];
    let a = 0;
    const pushAddedBefore = (id: string | null) => {
      while (a < added.length && (id === null || compareIds(added[a] as string, id) < 0)) {
        docs.push({ change: changed.get(added[a++] as string) as PatchRow });
      }
    };
    for (let d = 0; d < this.n; d++) {
      const id = this.ids[d] as string;
      pushAddedBefore(id);
      const c = changed.get(id);
      if (!c) docs.push({ old: d });
      else if (c.row) docs.push({ change: c });
    }
    pushAddedBefore(null);

    // The changed documents' vectors, parsed on their own; their lexemes then take this index's ids,
    // new ones numbered after (the constructor sorts the table: nearly sorted, fast).
    const local = newSink();
    const localRange = new Map<string, [number, number]>();
    for (const c of changes) {
      if (!c.row) continue;
      const from = local.entryLex.n;
      parseVector(c.row.v ?? '', local);
      localRange.set(c.id, [from, local.entryLex.n]);
    }
    local.entryPos.push(local.positions.n);
    const lLex = local.entryLex.done();
    const lPosStart = local.entryPos.done();
    const lPos = local.positions.done();
    const temps = this.lexemes.slice();
    const globalOf = local.temps.map((t) => {
      const g = this.lexemeIdOf(t);
      return g >= 0 ? g : temps.push(t) - 1;
    });

    // Sizes first, then typed copies (a document's entries at a time, no per-value push).
    const n = docs.length;
    let entries = 0;
    let positionCount = 0;
    for (const doc of docs) {
      if ('old' in doc) {
        const e0 = this.docEntryStart[doc.old] as number;
        const e1 = this.docEntryStart[doc.old + 1] as number;
        entries += e1 - e0;
        positionCount += (this.entryPosStart[e1] as number) - (this.entryPosStart[e0] as number);
      } else {
        const [e0, e1] = localRange.get(doc.change.id) as [number, number];
        entries += e1 - e0;
        positionCount += (lPosStart[e1] as number) - (lPosStart[e0] as number);
      }
    }
    const docEntryStart = new Int32Array(n + 1);
    const entryLex = new Int32Array(entries);
    const entryPos = new Int32Array(entries + 1);
    const positions = new Uint16Array(positionCount);
    let E = 0;
    let P = 0;
    const rows: ProductRow[] = new Array(n);
    const memberships: { productId: string; categoryId: string }[] = [];
    const categoryRows: { productCategoryId: string; categoryName: string | null; description: string | null }[] =
      this.categories.map((c) => ({ productCategoryId: c.id, categoryName: c.label, description: null }));
    const knownCategory = new Set(this.categories.map((c) => c.id));
    for (let i = 0; i < n; i++) {
      const doc = docs[i] as Doc;
      if ('old' in doc) {
        const d = doc.old;
        const b = this.brand[d] as number;
        rows[i] = {
          id: this.ids[d] as string,
          name: this.lowerNames[d] as string,
          brand: b < 0 ? null : (this.brands[b] as string),
          price: this.price[d] as number,
          stock: this.stock[d] as number,
          featured: this.featured[d] === 1,
          made: this.made[d] as number,
          named: this.named[d] as number,
          v: null,
        };
        const e0 = this.docEntryStart[d] as number;
        const e1 = this.docEntryStart[d + 1] as number;
        const p0 = this.entryPosStart[e0] as number;
        const p1 = this.entryPosStart[e1] as number;
        entryLex.set(this.entryLex.subarray(e0, e1), E);
        positions.set(this.positions.subarray(p0, p1), P);
        for (let e = e0; e < e1; e++) entryPos[E + e - e0] = (this.entryPosStart[e] as number) - p0 + P;
        E += e1 - e0;
        P += p1 - p0;
        for (let k = this.docCatStart[d] as number; k < (this.docCatStart[d + 1] as number); k++) {
          memberships.push({
            productId: this.ids[d] as string,
            categoryId: this.categories[this.docCats[k] as number]?.id as string,
          });
        }
      } else {
        const c = doc.change;
        const r = c.row as NonNullable<PatchRow['row']>;
        rows[i] = { ...r, made: madeKey.get(c.id) as number, named: nameKey.get(c.id) as number, v: null };
        const [e0, e1] = localRange.get(c.id) as [number, number];
        const p0 = lPosStart[e0] as number;
        const p1 = lPosStart[e1] as number;
        for (let e = e0; e < e1; e++) {
          entryLex[E + e - e0] = globalOf[lLex[e] as number] as number;
          entryPos[E + e - e0] = (lPosStart[e] as number) - p0 + P;
        }
        positions.set(lPos.subarray(p0, p1), P);
        E += e1 - e0;
        P += p1 - p0;
        for (const k of c.categories) {
          if (!knownCategory.has(k.id) && (k.name !== null || k.description !== null)) {
            knownCategory.add(k.id);
            categoryRows.push({ productCategoryId: k.id, categoryName: k.name, description: k.description });
          }
          memberships.push({ productId: c.id, categoryId: k.id });
        }
      }
      docEntryStart[i + 1] = E;
    }
    entryPos[E] = P;
    const full = <T extends Int32Array | Uint16Array>(a: T) => {
      const g = new Grow(a, () => a);
      g.n = a.length;
      return g;
    };
    const vectors = {
      temps,
      docEntryStart,
      entryLex: full(entryLex),
      entryPos: full(entryPos),
      positions: full(positions),
    };
    const index = new TenantIndex(rows, vectors, memberships, categoryRows, buildMs);
    buildMs.total = buildMs.read + performance.now() - t0;
    return index;
  }

  /**
   * Sort keys of the changed ACTIVE products: a neighbour's key when equal to it, else spread
   * between the neighbours below and above in the order PostgreSQL gave them (rank). Null when a
   * neighbour is not in this index or the keys cannot be told apart (floats exhausted).
   */
  private placeKeys(changes: PatchRow[], which: 'name' | 'made', keys: Float64Array): Map<string, number> | null {
    const out = new Map<string, number>();
    const keyOf = (id: string | null): number | null | undefined => {
      if (id === null) return null;
      const d = this.docOf.get(id);
      return d === undefined ? undefined : (keys[d] as number);
    };
    const groups = new Map<string, { lo: number | null; hi: number | null; members: PatchRow[] }>();
    for (const c of changes) {
      if (!c.row) continue;
      const at = c[which];
      const lo = keyOf(at.lo);
      const hi = keyOf(at.hi);
      if (lo === undefined || hi === undefined) return null;
      if (at.loEq && lo !== null) {
        out.set(c.id, lo);
        continue;
      }
      const g = `${at.lo}\u0000${at.hi}`;
      let group = groups.get(g);
      if (!group) {
        group = { lo, hi, members: [] };
        groups.set(g, group);
      }
      group.members.push(c);
    }
    for (const { lo, hi, members } of groups.values()) {
      const low = lo ?? (hi ?? 1) - 1;
      const high = hi ?? low + 1;
      const ranks = [...new Set(members.map((m) => m[which].rank))].sort((x, y) => x - y);
      for (const m of members) {
        const j = ranks.indexOf(m[which].rank);
        const key = low + ((high - low) * (j + 1)) / (ranks.length + 1);
        if (!(key > low && key < high)) return null;
        out.set(m.id, key);
      }
    }
    return out;
  }

  // ---- matching -------------------------------------------------------------------------------

  private words() {
    return new Uint32Array((this.n + 31) >>> 5);
  }

  private readonly ranges = new WeakMap<TsOperand, [number, number]>();

  /** Lexeme ids an operand stands for: one, or a prefix's range (remembered per query operand). */
  private range(o: TsOperand): [number, number] {
    let r = this.ranges.get(o);
    if (!r) {
      r = this.findRange(o);
      this.ranges.set(o, r);
    }
    return r;
  }

  private findRange(o: TsOperand): [number, number] {
    const lo = this.lowerBound(o.lexeme);
    if (!o.prefix) return this.lexemes[lo] === o.lexeme ? [lo, lo + 1] : [0, 0];
    let end = lo;
    while (end < this.lexemes.length && (this.lexemes[end] as string).startsWith(o.lexeme)) end++;
    return [lo, end];
  }

  /** The id of the first lexeme not before `lexeme` (a binary search: no map of 100,000 strings). */
  private lowerBound(lexeme: string): number {
    let lo = 0;
    let hi = this.lexemes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareLexemes(this.lexemes[mid] as string, lexeme) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The id of a lexeme, or -1 if no product has it. */
  private lexemeIdOf(lexeme: string): number {
    const i = this.lowerBound(lexeme);
    return this.lexemes[i] === lexeme ? i : -1;
  }

  /** First entry of document d with a lexeme id >= lo. */
  private entryFrom(d: number, lo: number): number {
    let a = this.docEntryStart[d] as number;
    let b = this.docEntryStart[d + 1] as number;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if ((this.entryLex[mid] as number) < lo) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  private weightAllowed(d: number, lo: number, hi: number, mask: number): boolean {
    const end = this.docEntryStart[d + 1] as number;
    for (let e = this.entryFrom(d, lo); e < end && (this.entryLex[e] as number) < hi; e++) {
      for (let k = this.entryPosStart[e] as number; k < (this.entryPosStart[e + 1] as number); k++) {
        if (mask & (1 << ((this.positions[k] as number) >> 14))) return true;
      }
    }
    return false;
  }

  private operandSet(o: TsOperand): Uint32Array {
    const set = this.words();
    const [lo, hi] = this.range(o);
    for (let l = lo; l < hi; l++) {
      for (let k = this.postStart[l] as number; k < (this.postStart[l + 1] as number); k++) {
        const d = this.postDocs[k] as number;
        set[d >>> 5] = (set[d >>> 5] as number) | (1 << (d & 31));
      }
    }
    if (o.weight && o.weight !== 15) {
      forEachDoc(set, (d) => {
        if (!this.weightAllowed(d, lo, hi, o.weight)) set[d >>> 5] = (set[d >>> 5] as number) & ~(1 << (d & 31));
      });
    }
    return set;
  }

  /** Documents matching the node; a phrase as the AND of its parts when `loose` (candidates). */
  private evaluate(node: TsNode, loose = false): Uint32Array {
    switch (node.op) {
      case 'val':
        return this.operandSet(node);
      case 'not': {
        if (loose) throw new Error('a negation inside a phrase is not supported');
        const a = this.evaluate(node.arg);
        for (let w = 0; w < a.length; w++) a[w] = ~(a[w] as number);
        const tail = this.n & 31;
        if (tail && a.length) a[a.length - 1] = (a[a.length - 1] as number) & ((1 << tail) - 1);
        return a;
      }
      case 'and':
      case 'or': {
        const a = this.evaluate(node.left, loose);
        const b = this.evaluate(node.right, loose);
        if (node.op === 'and') for (let w = 0; w < a.length; w++) a[w] = (a[w] as number) & (b[w] as number);
        else for (let w = 0; w < a.length; w++) a[w] = (a[w] as number) | (b[w] as number);
        return a;
      }
      case 'phrase': {
        const a = this.evaluate(node.left, true);
        const b = this.evaluate(node.right, true);
        for (let w = 0; w < a.length; w++) a[w] = (a[w] as number) & (b[w] as number);
        if (!loose) {
          const chain = this.chainOf(node);
          const found = chain ? (d: number) => this.chainAt(chain, d) : this.phrase(node).at;
          forEachDoc(a, (d) => {
            const hit = found(d);
            if (hit === false || (hit !== true && !hit.length)) a[d >>> 5] = (a[d >>> 5] as number) & ~(1 << (d & 31));
          });
        }
        return a;
      }
    }
  }

  /**
   * A phrase of plain words (what websearch_to_tsquery makes of quoted text), however nested, is
   * a chain: each word at a fixed distance after the first. Null when a part is anything else.
   */
  private chainOf(node: TsNode): { lexeme: number; offset: number }[] | null {
    const out: { lexeme: number; offset: number }[] = [];
    const walk = (n: TsNode, end: number): boolean => {
      // `end`: where this part must end, relative to the chain's end; returns false if not plain.
      if (n.op === 'val') {
        if (n.prefix || n.weight) return false;
        out.push({ lexeme: this.lexemeIdOf(n.lexeme), offset: end });
        return true;
      }
      if (n.op !== 'phrase') return false;
      const right = this.phrase(n.right).width;
      return walk(n.right, end) && walk(n.left, end - right - n.distance);
    };
    if (!walk(node, 0)) return null;
    return out.sort((x, y) => x.offset - y.offset);
  }

  /** chainAt's scratch: the entry of each word of the chain in the document at hand. */
  private chainEntries: number[] = [];

  /** Whether document d has the chain's words at their distances (no allocation: it runs per candidate). */
  private chainAt(chain: { lexeme: number; offset: number }[], d: number): boolean {
    const first = chain[0] as { lexeme: number; offset: number };
    const entries = this.chainEntries;
    for (let i = 0; i < chain.length; i++) {
      const e = this.entryOf(d, (chain[i] as { lexeme: number }).lexeme);
      if (e < 0) return false;
      entries[i] = e;
    }
    const e0 = entries[0] as number;
    for (let k = this.entryPosStart[e0] as number; k < (this.entryPosStart[e0 + 1] as number); k++) {
      const start = ((this.positions[k] as number) & 0x3fff) - first.offset;
      let all = true;
      for (let i = 1; i < chain.length && all; i++) {
        const want = start + (chain[i] as { offset: number }).offset;
        const e = entries[i] as number;
        all = false;
        for (let j = this.entryPosStart[e] as number; j < (this.entryPosStart[e + 1] as number); j++) {
          if (((this.positions[j] as number) & 0x3fff) === want) {
            all = true;
            break;
          }
        }
      }
      if (all) return true;
    }
    return false;
  }

  /** The entry of lexeme l in document d, or -1. */
  private entryOf(d: number, l: number): number {
    if (l < 0) return -1;
    const e = this.entryFrom(d, l);
    return e < (this.docEntryStart[d + 1] as number) && this.entryLex[e] === l ? e : -1;
  }

  /**
   * A phrase part compiled to a function of the document giving its positions, as
   * TS_phrase_execute computes them (a match's position is where it ends; width is how far back
   * it starts), with the width known before any document is read.
   */
  private phrase(node: TsNode): { at: (d: number) => number[]; width: number } {
    switch (node.op) {
      case 'val': {
        const [lo, hi] = this.range(node);
        const weight = node.weight;
        const at = (d: number) => {
          const out: number[] = [];
          const end = this.docEntryStart[d + 1] as number;
          let entries = 0;
          for (let e = this.entryFrom(d, lo); e < end && (this.entryLex[e] as number) < hi; e++, entries++) {
            for (let k = this.entryPosStart[e] as number; k < (this.entryPosStart[e + 1] as number); k++) {
              const p = this.positions[k] as number;
              if (!weight || weight & (1 << (p >> 14))) out.push(p & 0x3fff);
            }
          }
          if (entries < 2) return out;
          out.sort((x, y) => x - y);
          return out.filter((p, i) => i === 0 || p !== out[i - 1]);
        };
        return { at, width: 0 };
      }
      case 'phrase': {
        const l = this.phrase(node.left);
        const r = this.phrase(node.right);
        const offset = node.distance + r.width;
        const at = (d: number) => {
          const right = r.at(d);
          if (!right.length) return right;
          const left = l.at(d);
          return right.filter((p) => left.includes(p - offset));
        };
        return { at, width: node.distance + l.width + r.width };
      }
      case 'and':
      case 'or': {
        const l = this.phrase(node.left);
        const r = this.phrase(node.right);
        const width = Math.max(l.width, r.width);
        const at = (d: number) => {
          const ls = l.at(d).map((p) => p + width - l.width);
          const rs = r.at(d).map((p) => p + width - r.width);
          if (node.op === 'and') return ls.filter((p) => rs.includes(p));
          return [...new Set([...ls, ...rs])].sort((x, y) => x - y);
        };
        return { at, width };
      }
      case 'not':
        throw new Error('a negation inside a phrase is not supported');
    }
  }

  /** The documents matching the query, as a bit set; null for an empty query (matches nothing). */
  match(q: TsQuery): Uint32Array {
    return q.root ? this.evaluate(q.root) : this.words();
  }

  // ---- ranking ------------------------------------------------------------------------------

  rankPlan(q: TsQuery): RankPlan {
    const items = [...q.operands];
    const cmp = (a: TsOperand, b: TsOperand) => compareLexemes(a.lexeme, b.lexeme);
    if (items.length >= 2) pgQsort(items, cmp);
    const unique: TsOperand[] = [];
    for (const it of items)
      if (!unique.length || cmp(it, unique[unique.length - 1] as TsOperand) !== 0) unique.push(it);
    const ranges = new Int32Array(unique.length * 2);
    unique.forEach((o, i) => {
      ranges.set(this.range(o), i * 2);
    });
    const top = q.root;
    return { and: !!top && (top.op === 'and' || top.op === 'phrase'), ranges, size: unique.length };
  }

  /** ts_rank(search_vector, q) of document d. */
  rank(plan: RankPlan, d: number): number {
    if (this.docEntryStart[d] === this.docEntryStart[d + 1] || plan.size === 0) return 0;
    if (plan.and && plan.size >= 2) {
      const res = this.rankAnd(plan, d);
      return res < 0 ? f(1e-20) : res;
    }
    return this.rankOr(plan, d);
  }

  /** calc_rank_or's term of one tsvector entry: (wjm + resj - wjm / (jm + 1)^2), in float4. */
  private entryGain(e: number): number {
    const from = this.entryPosStart[e] as number;
    const count = (this.entryPosStart[e + 1] as number) - from;
    let resj = 0;
    let wjm = -1;
    let jm = 0;
    // An entry without positions counts as one position of weight D (tsrank.c's posnull).
    for (let j = 0; j < Math.max(count, 1); j++) {
      const w = WEIGHTS[count ? (this.positions[from + j] as number) >> 14 : 0] as number;
      resj = f(resj + f(w / ((j + 1) * (j + 1))));
      if (w > wjm) {
        wjm = w;
        jm = j;
      }
    }
    return f(f(wjm + resj) - f(wjm / ((jm + 1) * (jm + 1))));
  }

  private rankOr(plan: RankPlan, d: number): number {
    let res = 0;
    const end = this.docEntryStart[d + 1] as number;
    for (let i = 0; i < plan.size; i++) {
      const lo = plan.ranges[2 * i] as number;
      const hi = plan.ranges[2 * i + 1] as number;
      if (lo === hi) continue;
      for (let e = this.entryFrom(d, lo); e < end && (this.entryLex[e] as number) < hi; e++) {
        res = f(res + this.entryGain(e) / 1.64493406685);
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
  rankAll(plan: RankPlan, docs: Int32Array): Float64Array {
    const out = new Float64Array(this.n);
    if (plan.and && plan.size >= 2) {
      for (const d of docs) out[d] = this.rank(plan, d);
      return out;
    }
    for (let i = 0; i < plan.size; i++) {
      const lo = plan.ranges[2 * i] as number;
      const hi = plan.ranges[2 * i + 1] as number;
      const from = this.postStart[lo] as number;
      const to = this.postStart[hi] as number;
      for (let k = from; k < to; k++) {
        const d = this.postDocs[k] as number;
        out[d] = f((out[d] as number) + (this.postGain[k] as number) / 1.64493406685);
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
  private ranksOf(plan: RankPlan, docs: Int32Array): Float64Array {
    const out = new Float64Array(docs.length);
    if (docs.length * 64 < this.n) {
      for (let i = 0; i < docs.length; i++) out[i] = this.rank(plan, docs[i] as number);
      return out;
    }
    const byDoc = this.rankAll(plan, docs);
    for (let i = 0; i < docs.length; i++) out[i] = byDoc[docs[i] as number] as number;
    return out;
  }

  private rankAnd(plan: RankPlan, d: number): number {
    let res = -1;
    const end = this.docEntryStart[d + 1] as number;
    const posStart = this.entryPosStart;
    const positions = this.positions;
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
      for (let e = this.entryFrom(d, lo); e < end && (this.entryLex[e] as number) < hi; e++) {
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

  // ---- answering ------------------------------------------------------------------------------

  /**
   * One page of ids, the total and every facet. Each facet counts the documents that pass every
   * filter but its own, so a facet's count is what choosing it will show.
   */
  query(opts: {
    match: Uint32Array | null;
    filters: IndexFilters;
    sort: IndexSort;
    /** For relevance: the query's rank plan and its lower-cased text (the name tiers). */
    relevance?: { plan: RankPlan; text: string };
    offset: number;
    limit: number;
  }): IndexPage {
    const { filters } = opts;
    const cat = filters.categoryId === undefined ? -2 : (this.categoryOf.get(filters.categoryId) ?? -1);
    const brandOk = new Uint8Array(this.brands.length);
    const brandFilter = !!filters.brands?.length;
    for (const b of filters.brands ?? []) {
      const i = this.brands.indexOf(b);
      if (i >= 0) brandOk[i] = 1;
    }
    const priceFilter = filters.priceMin !== undefined || filters.priceMax !== undefined;
    const min = filters.priceMin ?? -Infinity;
    const max = filters.priceMax ?? Infinity;
    const catCount = new Int32Array(this.categories.length);
    const brandCount = new Int32Array(this.brands.length);
    const bandCount = new Int32Array(PRICE_BANDS.length);
    let inStock = 0;
    const passing = new Grow(new Int32Array(1024), (k) => new Int32Array(k));

    const visit = (d: number) => {
      if (filters.featured && !this.featured[d]) return;
      let fail = 0;
      const s0 = this.docCatStart[d] as number;
      const s1 = this.docCatStart[d + 1] as number;
      if (cat !== -2) {
        let found = false;
        for (let k = s0; k < s1; k++) if (this.docCats[k] === cat) found = true;
        if (!found) fail |= F_CATEGORY;
      }
      const b = this.brand[d] as number;
      if (brandFilter && (b < 0 || !brandOk[b])) fail |= F_BRAND;
      const price = this.price[d] as number;
      if (priceFilter && (price < min || price > max)) fail |= F_PRICE;
      const stocked = (this.stock[d] as number) > 0;
      if (filters.inStock && !stocked) fail |= F_STOCK;
      if (fail === 0) passing.push(d);
      if ((fail & ~F_STOCK) === 0 && stocked) inStock++;
      if ((fail & ~F_BRAND) === 0 && b >= 0) (brandCount[b] as number)++;
      if ((fail & ~F_PRICE) === 0) {
        const band = this.band[d] as number;
        if (band < PRICE_BANDS.length) (bandCount[band] as number)++;
      }
      if ((fail & ~F_CATEGORY) === 0) for (let k = s0; k < s1; k++) (catCount[this.docCats[k] as number] as number)++;
    };
    if (opts.match) forEachDoc(opts.match, visit);
    else for (let d = 0; d < this.n; d++) visit(d);

    const docs = passing.done();
    const ids = this.order(docs, opts.sort, opts.relevance, opts.offset + opts.limit)
      .slice(opts.offset, opts.offset + opts.limit)
      .map((d) => this.ids[d] as string);

    const categories: Facets['categories'] = [];
    catCount.forEach((count, i) => {
      if (count > 0) {
        const c = this.categories[i] as { id: string; label: string };
        categories.push({ value: c.id, label: c.label, count });
      }
    });
    const brands: Facets['brands'] = [];
    brandCount.forEach((count, i) => {
      if (count > 0) brands.push({ value: this.brands[i] as string, label: this.brands[i] as string, count });
    });
    return {
      ids,
      total: docs.length,
      facets: {
        categories: categories.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label)),
        brands: brands.sort((a, b) => a.label.localeCompare(b.label)),
        prices: PRICE_BANDS.map(([lo, hi], i) => ({
          min: lo,
          max: hi,
          label: priceBandLabel(lo, hi),
          count: bandCount[i] as number,
        })).filter((b) => b.count > 0),
        inStock,
      },
    };
  }

  /**
   * The best `limit` matches by relevance, with no filter and no facet (autocomplete, on every
   * keystroke: the facet pass of `query` would be work nobody reads). Same order as `query`.
   */
  best(match: Uint32Array, relevance: { plan: RankPlan; text: string }, limit: number): string[] {
    // Lean path (decision 014): a name starting with the text outranks every match whose name does
    // not (tier 10 or 100 against ts_rank, which stays under 2), so when at least `limit` matches
    // start with it the answer is among them, and only they are ranked. Two typed letters match
    // most of a large catalog; the names starting with them are a sliver of it.
    const starting = relevance.text ? this.startingWith(relevance.text, match) : null;
    if (starting && starting.length >= limit) {
      return this.order(starting, 'relevance', relevance, limit).map((d) => this.ids[d] as string);
    }
    const docs = new Grow(new Int32Array(1024), (k) => new Int32Array(k));
    forEachDoc(match, (d) => docs.push(d));
    return this.order(docs.done(), 'relevance', relevance, limit).map((d) => this.ids[d] as string);
  }

  /** Documents sorted by lower-cased name (code units), built on the first autocomplete. */
  private byName: Int32Array | null = null;

  /** The matches whose lower-cased name starts with `text`: a contiguous run of `byName`. */
  private startingWith(text: string, match: Uint32Array): Int32Array {
    const names = this.lowerNames;
    if (!this.byName) {
      const order = Int32Array.from({ length: this.n }, (_, i) => i);
      order.sort((a, b) => {
        const x = names[a] as string;
        const y = names[b] as string;
        return x < y ? -1 : x > y ? 1 : a - b;
      });
      this.byName = order;
    }
    const byName = this.byName;
    let lo = 0;
    let hi = byName.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((names[byName[mid] as number] as string) < text) lo = mid + 1;
      else hi = mid;
    }
    const out = new Grow(new Int32Array(16), (k) => new Int32Array(k));
    for (let i = lo; i < byName.length; i++) {
      const d = byName[i] as number;
      if (!(names[d] as string).startsWith(text)) break;
      if (((match[d >> 5] as number) >>> (d & 31)) & 1) out.push(d);
    }
    return out.done();
  }

  /**
   * The first `want` documents in the order of the sort: a key, larger first, then the document
   * number (product id order), or for relevance featured first and then the document number.
   */
  private order(
    docs: Int32Array,
    sort: IndexSort,
    relevance: { plan: RankPlan; text: string } | undefined,
    want: number,
  ) {
    const m = docs.length;
    const ranks = sort === 'relevance' && relevance ? this.ranksOf(relevance.plan, docs) : null;
    const key = new Float64Array(m);
    const tie = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      const d = docs[i] as number;
      tie[i] = d;
      switch (sort) {
        case 'price_asc':
          key[i] = -(this.price[d] as number);
          break;
        case 'price_desc':
          key[i] = this.price[d] as number;
          break;
        case 'newest':
          key[i] = this.made[d] as number;
          break;
        case 'name':
          key[i] = -(this.named[d] as number);
          break;
        case 'relevance':
          if (relevance) {
            const name = this.lowerNames[d] as string;
            const tier = !name.startsWith(relevance.text) ? 0 : name.length === relevance.text.length ? 100 : 10;
            // int + float4 is float8 in PostgreSQL: the same sum here.
            key[i] = tier + (ranks?.[i] as number);
            tie[i] = (this.featured[d] ? 0 : this.n) + d;
            break;
          }
          key[i] = (this.featured[d] as number) * 2 ** 31 + (this.made[d] as number);
          break;
        default:
          key[i] = (this.featured[d] as number) * 2 ** 31 + (this.made[d] as number);
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

  /** The store's biggest categories by products (ties by id), for "nothing matched". */
  topCategories(count: number): string[] {
    const sizes = new Int32Array(this.categories.length);
    for (const c of this.docCats) (sizes[c] as number)++;
    return this.categories
      .map((c, i) => ({ c, n: sizes[i] as number }))
      .filter((x) => x.n > 0)
      .sort((a, b) => b.n - a.n || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0))
      .slice(0, count)
      .map((x) => x.c.label);
  }
}

function forEachDoc(set: Uint32Array, fn: (d: number) => void) {
  for (let w = 0; w < set.length; w++) {
    let x = set[w] as number;
    while (x) {
      const low = x & -x;
      fn((w << 5) + 31 - Math.clz32(low));
      x ^= low;
    }
  }
}

// ---------------------------------------------------------------------------------------------

const p = schema.products;

async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Reads a tenant's searchable products (ACTIVE: what shoppers may see) and builds its index. */
export async function buildTenantIndex(db: Db, tenantId: string): Promise<TenantIndex> {
  const t0 = performance.now();
  const [rows, memberships, categories] = await Promise.all([
    rowsOf<ProductRow>(
      db,
      sql`SELECT product_id AS id, product_name AS name, brand_name AS brand,
                 coalesce(effective_price, list_price) AS price, stock_quantity AS stock, is_featured AS featured,
                 (dense_rank() OVER (ORDER BY introduction_date))::int AS made,
                 (dense_rank() OVER (ORDER BY product_name))::int AS named,
                 search_vector::text AS v
          FROM ${p} WHERE ${p.tenantId} = ${tenantId} AND ${p.status} = 'ACTIVE' ORDER BY product_id COLLATE "C"`,
    ),
    db
      .select({ productId: schema.productCategories.productId, categoryId: schema.productCategories.productCategoryId })
      .from(schema.productCategories)
      .where(eq(schema.productCategories.tenantId, tenantId)),
    db
      .select({
        productCategoryId: schema.categories.productCategoryId,
        categoryName: schema.categories.categoryName,
        description: schema.categories.description,
      })
      .from(schema.categories)
      .where(eq(schema.categories.tenantId, tenantId)),
  ]);
  const read = performance.now() - t0;
  const buildMs = { read, total: 0 };
  const index = new TenantIndex(rows, await parseVectors(rows), memberships, categories, buildMs);
  buildMs.total = performance.now() - t0;
  return index;
}

/**
 * The fresh state of these products for a patch, in one query: their rows, categories, and their
 * neighbours by name and by introduction date among the other ACTIVE products (index lookups on
 * products_active_name_idx and products_active_new_idx).
 */
export async function readPatchRows(db: Db, tenantId: string, ids: string[]): Promise<PatchRow[]> {
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const others = sql`o.tenant_id = c.tenant_id AND o.status = 'ACTIVE' AND o.product_id NOT IN (${list})`;
  const rows = await rowsOf<{
    id: string;
    status: string;
    name: string;
    brand: string | null;
    price: number;
    stock: number;
    featured: boolean;
    v: string | null;
    name_rank: number;
    made_rank: number;
    name_lo: string | null;
    name_lo_eq: boolean | null;
    name_hi: string | null;
    made_lo: string | null;
    made_lo_eq: boolean | null;
    made_hi: string | null;
    cats: string | { id: string; name: string | null; description: string | null }[];
  }>(
    db,
    sql`SELECT c.product_id AS id, c.status, c.product_name AS name, c.brand_name AS brand,
               coalesce(c.effective_price, c.list_price) AS price, c.stock_quantity AS stock, c.is_featured AS featured,
               c.search_vector::text AS v,
               (dense_rank() OVER (ORDER BY c.product_name))::int AS name_rank,
               (dense_rank() OVER (ORDER BY c.introduction_date))::int AS made_rank,
               nlo.id AS name_lo, nlo.eq AS name_lo_eq, nhi.id AS name_hi,
               mlo.id AS made_lo, mlo.eq AS made_lo_eq, mhi.id AS made_hi,
               coalesce((SELECT json_agg(json_build_object('id', pc.product_category_id, 'name', k.category_name, 'description', k.description))
                         FROM product_categories pc
                         LEFT JOIN categories k ON k.tenant_id = pc.tenant_id AND k.product_category_id = pc.product_category_id
                         WHERE pc.tenant_id = c.tenant_id AND pc.product_id = c.product_id), '[]') AS cats
        FROM ${p} c
        LEFT JOIN LATERAL (SELECT o.product_id AS id, o.product_name = c.product_name AS eq FROM ${p} o
                           WHERE ${others} AND o.product_name <= c.product_name ORDER BY o.product_name DESC LIMIT 1) nlo ON true
        LEFT JOIN LATERAL (SELECT o.product_id AS id FROM ${p} o
                           WHERE ${others} AND o.product_name > c.product_name ORDER BY o.product_name LIMIT 1) nhi ON true
        LEFT JOIN LATERAL (SELECT o.product_id AS id, o.introduction_date = c.introduction_date AS eq FROM ${p} o
                           WHERE ${others} AND o.introduction_date <= c.introduction_date ORDER BY o.introduction_date DESC LIMIT 1) mlo ON true
        LEFT JOIN LATERAL (SELECT o.product_id AS id FROM ${p} o
                           WHERE ${others} AND o.introduction_date > c.introduction_date ORDER BY o.introduction_date LIMIT 1) mhi ON true
        WHERE c.tenant_id = ${tenantId} AND c.product_id IN (${list})`,
  );
  const found = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = found.get(id);
    const active = r?.status === 'ACTIVE';
    const cats = r ? (typeof r.cats === 'string' ? JSON.parse(r.cats) : r.cats) : [];
    return {
      id,
      row:
        r && active
          ? {
              id,
              name: r.name,
              brand: r.brand,
              price: Number(r.price),
              stock: Number(r.stock),
              featured: r.featured,
              v: r.v,
            }
          : null,
      categories: cats,
      name: { lo: r?.name_lo ?? null, loEq: !!r?.name_lo_eq, hi: r?.name_hi ?? null, rank: r?.name_rank ?? 0 },
      made: { lo: r?.made_lo ?? null, loEq: !!r?.made_lo_eq, hi: r?.made_hi ?? null, rank: r?.made_rank ?? 0 },
    };
  });
}

export interface SearchIndexOptions {
  /** After this long an index is rebuilt in the background (writes of other processes). */
  ttlMs?: number;
  /** Indexes of all tenants together stay under this estimate; the least recently used go. */
  budgetBytes?: number;
  /** Above this many products in one change, the index is rebuilt rather than patched. */
  maxPatch?: number;
  /** A patch replaced `from` by `to` (the products service moves its cached cards across). */
  onPatched?: (tenantId: string, from: TenantIndex, to: TenantIndex, productIds: string[]) => void;
}

interface Entry {
  index?: TenantIndex;
  /** When the index is to be read again (the TTL; after a failed refresh, one TTL later). */
  staleAt: number;
  building?: Promise<TenantIndex>;
  /** Products whose stock changed: read and patched before the next answer. */
  stockPending: Set<string>;
  /** Those that changed while a build was reading: the new index may hold their old stock. */
  stockDuringBuild: Set<string>;
  stockPatch?: Promise<void>;
  /** Products whose row changed (catalog.changed with ids): patched into the index, no rebuild. */
  catalogPending: Set<string>;
  /** Those that changed while a build was reading: patched into the new index once installed. */
  catalogDuringBuild: Set<string>;
  catalogPatch?: Promise<void>;
}

/**
 * Every tenant's index, built on first use (one build at a time per tenant), dropped when the
 * tenant's catalog changes, rebuilt in the background after the TTL while the old one answers,
 * and evicted least recently used past the memory budget.
 */
export function createSearchIndexes(db: Db, opts: SearchIndexOptions = {}) {
  const ttlMs = opts.ttlMs ?? 60_000;
  const budget = opts.budgetBytes ?? 512 * 1024 * 1024;
  const maxPatch = opts.maxPatch ?? 500;
  const entries = new Map<string, Entry>();
  /** How often indexes were built from scratch and patched (tests and benches read them). */
  const counters = { builds: 0, patches: 0 };
  const newEntry = (): Entry => ({
    staleAt: 0,
    stockPending: new Set(),
    stockDuringBuild: new Set(),
    catalogPending: new Set(),
    catalogDuringBuild: new Set(),
  });

  function install(tenantId: string, entry: Entry, index: TenantIndex) {
    if (entries.get(tenantId) !== entry) return; // invalidated meanwhile: this one is already old
    entry.index = index;
    entry.staleAt = Date.now() + ttlMs;
    let total = 0;
    for (const e of entries.values()) total += e.index?.bytes ?? 0;
    for (const [id, e] of entries) {
      if (total <= budget) break;
      if (id === tenantId || !e.index) continue;
      total -= e.index.bytes;
      entries.delete(id);
    }
  }

  function build(tenantId: string, entry: Entry): Promise<TenantIndex> {
    counters.builds++;
    const building = buildTenantIndex(db, tenantId).then(
      (index) => {
        install(tenantId, entry, index);
        entry.building = undefined;
        for (const id of entry.stockDuringBuild) entry.stockPending.add(id);
        entry.stockDuringBuild.clear();
        if (entry.catalogDuringBuild.size) {
          for (const id of entry.catalogDuringBuild) entry.catalogPending.add(id);
          entry.catalogDuringBuild.clear();
          startCatalogPatch(tenantId, entry);
        }
        return index;
      },
      (err) => {
        entry.building = undefined;
        if (!entry.index && entries.get(tenantId) === entry) entries.delete(tenantId);
        // A failed refresh keeps the old index for another TTL rather than retrying on every search.
        entry.staleAt = Date.now() + ttlMs;
        throw err;
      },
    );
    entry.building = building;
    return building;
  }

  async function patchStock(tenantId: string, entry: Entry, index: TenantIndex) {
    while (entry.stockPatch) await entry.stockPatch;
    if (!entry.stockPending.size) return;
    const ids = [...entry.stockPending];
    entry.stockPending.clear();
    entry.stockPatch = (async () => {
      const rows = await db
        .select({ id: p.productId, stock: p.stockQuantity })
        .from(p)
        .where(and(eq(p.tenantId, tenantId), inArray(p.productId, ids)));
      for (const r of rows) index.setStock(r.id, r.stock);
    })().finally(() => {
      entry.stockPatch = undefined;
    });
    await entry.stockPatch;
  }

  /**
   * Patches the pending products into the loaded index (one query, then a new index made from the
   * old one in memory), one patch at a time per tenant. When a patch cannot be placed exactly, or
   * fails, the tenant's index is dropped and the next search rebuilds it, as before patches.
   */
  function startCatalogPatch(tenantId: string, entry: Entry): Promise<void> {
    if (entry.catalogPatch) return entry.catalogPatch;
    const run = async () => {
      while (entry.catalogPending.size && entries.get(tenantId) === entry && entry.index) {
        const ids = [...entry.catalogPending];
        entry.catalogPending.clear();
        const t0 = performance.now();
        const changes = await readPatchRows(db, tenantId, ids);
        const from = entry.index;
        if (entries.get(tenantId) !== entry || !from) return;
        // Stock that changed while this read ran is read again after the swap (stockPending stays).
        const to = from.patched(changes, { read: performance.now() - t0, total: 0 });
        if (!to) {
          entries.delete(tenantId);
          return;
        }
        counters.patches++;
        entry.index = to;
        opts.onPatched?.(tenantId, from, to, ids);
      }
    };
    const patch = run()
      .catch(() => {
        if (entries.get(tenantId) === entry) entries.delete(tenantId);
      })
      .finally(() => {
        entry.catalogPatch = undefined;
      });
    entry.catalogPatch = patch;
    return patch;
  }

  return {
    async get(tenantId: string): Promise<TenantIndex> {
      let entry = entries.get(tenantId);
      if (entry) {
        entries.delete(tenantId); // most recently used last
        entries.set(tenantId, entry);
      } else {
        entry = newEntry();
        entries.set(tenantId, entry);
      }
      let index = entry.index;
      if (!index) index = await (entry.building ?? build(tenantId, entry));
      else if (!entry.building && Date.now() > entry.staleAt) {
        // Stale: answer from the old index while a new one is read; a failed refresh keeps the old.
        build(tenantId, entry).catch(() => {});
      }
      if (entry.catalogPending.size || entry.catalogPatch) {
        await startCatalogPatch(tenantId, entry);
        if (entries.get(tenantId) !== entry) return this.get(tenantId); // could not patch: rebuilt
        index = entry.index as TenantIndex;
      }
      if (entry.stockPending.size || entry.stockPatch) await patchStock(tenantId, entry, index);
      return index;
    },

    /** The tenant's index if one is loaded now (no build, no wait). */
    loaded(tenantId: string): TenantIndex | undefined {
      return entries.get(tenantId)?.index;
    },

    /** The tenant's products, prices, categories or names changed: the next search rebuilds. */
    invalidate(tenantId: string) {
      entries.delete(tenantId);
    },

    /**
     * These products changed (row, status, categories): patched into the loaded index at once, in
     * the background; a search waits for a patch under way. Many products at once: a rebuild.
     */
    productsChanged(tenantId: string, productIds: string[]) {
      const entry = entries.get(tenantId);
      if (!entry) return; // not loaded: its build reads them
      if (productIds.length > maxPatch) {
        entries.delete(tenantId);
        return;
      }
      if (entry.building) for (const id of productIds) entry.catalogDuringBuild.add(id);
      if (!entry.index) return; // the first build is reading: patched once it is installed
      for (const id of productIds) entry.catalogPending.add(id);
      startCatalogPatch(tenantId, entry).catch(() => {});
    },

    /** Builds from scratch and patches since this process started. */
    counters(): Readonly<{ builds: number; patches: number }> {
      return { ...counters };
    },

    /** Stock of these products changed: the next search reads it (one small query, no rebuild). */
    stockChanged(tenantId: string, productIds: string[]) {
      const entry = entries.get(tenantId);
      if (!entry) return; // not loaded: its build will read the new stock
      for (const id of productIds) {
        entry.stockPending.add(id);
        if (entry.building) entry.stockDuringBuild.add(id);
      }
    },

    stats() {
      return [...entries].map(([tenantId, e]) => ({
        tenantId,
        products: e.index?.n ?? 0,
        bytes: e.index?.bytes ?? 0,
        buildMs: e.index?.buildMs,
      }));
    },
  };
}

export type SearchIndexes = ReturnType<typeof createSearchIndexes>;

/** The tsquery of a search text: stemmed, unstemmed, and the word being typed as a prefix. */
export function searchTsQuery(text: string): SQL {
  const prefix = usesOperators(text) ? null : prefixTsQuery(queryWords(text));
  // One tsquery (OR of stemmed, unstemmed and the word being typed): one parse, one rank.
  return prefix
    ? sql`(websearch_to_tsquery('english', ${text}) || websearch_to_tsquery('simple', ${text}) || to_tsquery('simple', ${prefix}))`
    : sql`(websearch_to_tsquery('english', ${text}) || websearch_to_tsquery('simple', ${text}))`;
}

/** The query text as PostgreSQL parses it, in tsquerysend's form (one round trip, no table read). */
export async function tsQueryOf(db: Db, tsquery: SQL): Promise<TsQuery> {
  const [row] = await rowsOf<{ q: string }>(db, sql`SELECT encode(tsquerysend(${tsquery}), 'hex') AS q`);
  return decodeTsQuery(Uint8Array.from(Buffer.from(row?.q ?? '00000000', 'hex')));
}
