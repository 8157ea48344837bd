/**
 * One tenant's products, as typed arrays over document numbers (documents in product id order):
 * built from the rows PostgreSQL gives (read.ts), answering through the files beside it (match,
 * rank, order, answer) and patched in memory (patch.ts).
 */
import { categoryLabel, PRICE_BANDS } from '@app/contracts';
import { best, type IndexFilters, type IndexPage, query, topCategories } from './answer';
import { findRange, type IndexData } from './index-data';
import { match } from './match';
import type { IndexSort } from './order';
import { patchedParts } from './patch';
import { compareLexemes } from './pg-qsort';
import { entryGain, type RankPlan, rank, rankAll, rankPlan } from './rank';
import { type PatchRow, type ProductRow, parseValueKey, type VariantRow } from './rows';
import type { TsOperand, TsQuery } from './tsquery';
import type { ParsedVectors } from './vectors';

/** The arrays are described on IndexData; the files beside this one read them there. */
export class TenantIndex implements IndexData {
  readonly n: number;
  readonly ids: string[];
  readonly docOf: Map<string, number>;
  readonly lowerNames: string[];
  readonly price: Int32Array;
  readonly band: Uint8Array;
  readonly stock: Int32Array;
  readonly featured: Uint8Array;
  readonly made: Float64Array;
  readonly named: Float64Array;
  readonly brand: Int32Array;
  readonly brands: string[];
  readonly categories: { id: string; label: string }[];
  readonly categoryOf: Map<string, number>;
  readonly docCatStart: Int32Array;
  readonly docCats: Int32Array;
  readonly raws: string[];
  readonly rawValue: Int32Array;
  readonly options: { key: string; name: string; position: number }[];
  readonly values: { option: number; key: string; label: string; position: number }[];
  readonly docVarStart: Int32Array;
  readonly varRaw: Int32Array;
  readonly varStock: Uint8Array;
  readonly lexemes: string[];
  readonly postStart: Int32Array;
  readonly postDocs: Int32Array;
  readonly postGain: Float32Array;
  readonly docEntryStart: Int32Array;
  readonly entryLex: Int32Array;
  readonly entryPosStart: Int32Array;
  readonly positions: Uint16Array;
  byName: Int32Array | null = null;
  readonly bytes: number;

  constructor(
    rows: ProductRow[],
    vectors: ParsedVectors,
    memberships: { productId: string; categoryId: string }[],
    categoryRows: { productCategoryId: string; categoryName: string | null; description: string | null }[],
    readonly buildMs: { read: number; total: number },
    variants: VariantRow[] = [],
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

    // Option values: interned, then grouped by folded option name and label; each shown with the
    // smallest spelling (code unit order, as PostgreSQL's "C" min) and position any product gives.
    this.raws = [];
    this.options = [];
    this.values = [];
    const rawOf = new Map<string, number>();
    const optionOf = new Map<string, number>();
    const valueIdOf = new Map<string, number>();
    const rawValue: number[] = [];
    const intern = (key: string | null): number => {
      if (key === null) return -1;
      let r = rawOf.get(key);
      if (r !== undefined) return r;
      r = this.raws.push(key) - 1;
      rawOf.set(key, r);
      const k = parseValueKey(key);
      let o = optionOf.get(k.optionKey);
      if (o === undefined) {
        o = this.options.push({ key: k.optionKey, name: k.optionName, position: k.optionPosition }) - 1;
        optionOf.set(k.optionKey, o);
      } else {
        const opt = this.options[o] as { key: string; name: string; position: number };
        if (k.optionName < opt.name) opt.name = k.optionName;
        if (k.optionPosition < opt.position) opt.position = k.optionPosition;
      }
      const vk = `${k.optionKey}\u0001${k.valueKey}`;
      let v = valueIdOf.get(vk);
      if (v === undefined) {
        v = this.values.push({ option: o, key: k.valueKey, label: k.label, position: k.valuePosition }) - 1;
        valueIdOf.set(vk, v);
      } else {
        const val = this.values[v] as { option: number; key: string; label: string; position: number };
        if (k.label < val.label) val.label = k.label;
        if (k.valuePosition < val.position) val.position = k.valuePosition;
      }
      rawValue.push(v);
      return r;
    };
    const varCount = new Int32Array(n + 1);
    const varDoc = new Int32Array(variants.length);
    for (let i = 0; i < variants.length; i++) {
      const d = this.docOf.get((variants[i] as VariantRow).productId) ?? -1;
      varDoc[i] = d;
      if (d >= 0) (varCount[d + 1] as number)++;
    }
    for (let d = 0; d < n; d++) (varCount[d + 1] as number) += varCount[d] as number;
    this.docVarStart = varCount;
    const nv = varCount[n] as number;
    this.varRaw = new Int32Array(3 * nv);
    this.varStock = new Uint8Array(nv);
    const varFill = varCount.slice(0, n);
    for (let i = 0; i < variants.length; i++) {
      const d = varDoc[i] as number;
      if (d < 0) continue;
      const v = variants[i] as VariantRow;
      const at = (varFill[d] as number)++;
      this.varStock[at] = v.inStock ? 1 : 0;
      for (let k = 0; k < 3; k++) this.varRaw[3 * at + k] = intern(v.values[k] ?? null);
    }
    this.rawValue = Int32Array.from(rawValue);

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
        postGain[next[l] as number] = entryGain(this, e);
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
        this.docVarStart,
        this.varRaw,
        this.varStock,
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
   * Stock of a product's variants changed in place (checkout), in the order they were read
   * (readVariantRows); a different count means the variants changed: their catalog change patches.
   */
  setVariantStock(productId: string, inStock: boolean[]) {
    const d = this.docOf.get(productId);
    if (d === undefined) return;
    const v0 = this.docVarStart[d] as number;
    if ((this.docVarStart[d + 1] as number) - v0 !== inStock.length) return;
    inStock.forEach((s, i) => {
      this.varStock[v0 + i] = s ? 1 : 0;
    });
  }

  /** The variants of document d as rows (a patch copies the unchanged documents with them). */
  variantRowsOf(d: number): VariantRow[] {
    const out: VariantRow[] = [];
    const id = this.ids[d] as string;
    const raw = (at: number) => {
      const r = this.varRaw[at] as number;
      return r < 0 ? null : (this.raws[r] as string);
    };
    for (let v = this.docVarStart[d] as number; v < (this.docVarStart[d + 1] as number); v++) {
      out.push({
        productId: id,
        inStock: this.varStock[v] === 1,
        values: [raw(3 * v), raw(3 * v + 1), raw(3 * v + 2)],
      });
    }
    return out;
  }

  /**
   * A new index equal to what a rebuild would give after the changes (patch.ts), or null when
   * they cannot be placed exactly: the caller rebuilds instead.
   */
  patched(changes: PatchRow[], buildMs: { read: number; total: number }): TenantIndex | null {
    const t0 = performance.now();
    const parts = patchedParts(this, changes);
    if (!parts) return null;
    const index = new TenantIndex(
      parts.rows,
      parts.vectors,
      parts.memberships,
      parts.categoryRows,
      buildMs,
      parts.variants,
    );
    buildMs.total = buildMs.read + performance.now() - t0;
    return index;
  }

  private readonly ranges = new WeakMap<TsOperand, [number, number]>();

  range(o: TsOperand): [number, number] {
    let r = this.ranges.get(o);
    if (!r) {
      r = findRange(this.lexemes, o);
      this.ranges.set(o, r);
    }
    return r;
  }

  /** The documents matching the query, as a bit set (empty for an empty query: it matches nothing). */
  match(q: TsQuery): Uint32Array {
    return match(this, q);
  }

  rankPlan(q: TsQuery): RankPlan {
    return rankPlan(this, q);
  }

  /** ts_rank(search_vector, q) of document d. */
  rank(plan: RankPlan, d: number): number {
    return rank(this, plan, d);
  }

  /** ts_rank of every document of `docs` at once, indexed by document. */
  rankAll(plan: RankPlan, docs: Int32Array): Float64Array {
    return rankAll(this, plan, docs);
  }

  /** One page of ids, the total and every facet (answer.ts). */
  query(opts: {
    match: Uint32Array | null;
    filters: IndexFilters;
    sort: IndexSort;
    /** For relevance: the query's rank plan and its lower-cased text (the name tiers). */
    relevance?: { plan: RankPlan; text: string };
    offset: number;
    limit: number;
  }): IndexPage {
    return query(this, opts);
  }

  /** The best `limit` matches by relevance, with no filter and no facet (autocomplete). */
  best(match: Uint32Array, relevance: { plan: RankPlan; text: string }, limit: number): string[] {
    return best(this, match, relevance, limit);
  }

  /** The store's biggest categories by products (ties by id), for "nothing matched". */
  topCategories(count: number): string[] {
    return topCategories(this, count);
  }
}
