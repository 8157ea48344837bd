/**
 * Incremental patches (catalog.changed with product ids): the parts of a new index made from a
 * loaded one and the changed products' fresh rows, equal to what a rebuild would read.
 */
import { Grow, type IndexData, lexemeIdOf } from './index-data';
import { compareLexemes } from './pg-qsort';
import type { PatchRow, ProductRow, VariantRow } from './rows';
import { newSink, type ParsedVectors, parseVector } from './vectors';

/** Product id order of the index: PostgreSQL's `ORDER BY product_id COLLATE "C"` (bytes). */
const compareIds = compareLexemes;

/** What TenantIndex's constructor takes (besides the build times). */
export interface IndexParts {
  rows: ProductRow[];
  vectors: ParsedVectors;
  memberships: { productId: string; categoryId: string }[];
  categoryRows: { productCategoryId: string; categoryName: string | null; description: string | null }[];
  variants: VariantRow[];
}

/**
 * A new index equal to what a rebuild would give after the changes, made from this one without
 * reading the unchanged products again: changed documents are replaced, added or removed (a
 * product gone or no longer ACTIVE), everything else is copied. Lexemes no product uses any more
 * stay in the table (they match nothing); the next rebuild (TTL) drops them. Null when the
 * changes cannot be placed exactly (a neighbour this index does not hold, sort keys too close):
 * the caller rebuilds instead. What it returns is what TenantIndex's constructor takes.
 */
export function patchedParts(
  ix: IndexData & { variantRowsOf(d: number): VariantRow[] },
  changes: PatchRow[],
): IndexParts | null {
  const changed = new Map(changes.map((c) => [c.id, c]));
  const nameKey = placeKeys(ix, changes, 'name', ix.named);
  const madeKey = placeKeys(ix, changes, 'made', ix.made);
  if (!nameKey || !madeKey) return null;

  // The documents in product id order: the kept ones (already in order) merged with the added.
  const added = changes
    .filter((c) => c.row && !ix.docOf.has(c.id))
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
  for (let d = 0; d < ix.n; d++) {
    const id = ix.ids[d] as string;
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
  const temps = ix.lexemes.slice();
  const globalOf = local.temps.map((t) => {
    const g = lexemeIdOf(ix.lexemes, t);
    return g >= 0 ? g : temps.push(t) - 1;
  });

  // Sizes first, then typed copies (a document's entries at a time, no per-value push).
  const n = docs.length;
  let entries = 0;
  let positionCount = 0;
  for (const doc of docs) {
    if ('old' in doc) {
      const e0 = ix.docEntryStart[doc.old] as number;
      const e1 = ix.docEntryStart[doc.old + 1] as number;
      entries += e1 - e0;
      positionCount += (ix.entryPosStart[e1] as number) - (ix.entryPosStart[e0] as number);
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
  const variants: VariantRow[] = [];
  const categoryRows: { productCategoryId: string; categoryName: string | null; description: string | null }[] =
    ix.categories.map((c) => ({ productCategoryId: c.id, categoryName: c.label, description: null }));
  const knownCategory = new Set(ix.categories.map((c) => c.id));
  for (let i = 0; i < n; i++) {
    const doc = docs[i] as Doc;
    if ('old' in doc) {
      const d = doc.old;
      const b = ix.brand[d] as number;
      rows[i] = {
        id: ix.ids[d] as string,
        name: ix.lowerNames[d] as string,
        brand: b < 0 ? null : (ix.brands[b] as string),
        price: ix.price[d] as number,
        stock: ix.stock[d] as number,
        featured: ix.featured[d] === 1,
        made: ix.made[d] as number,
        named: ix.named[d] as number,
        v: null,
      };
      const e0 = ix.docEntryStart[d] as number;
      const e1 = ix.docEntryStart[d + 1] as number;
      const p0 = ix.entryPosStart[e0] as number;
      const p1 = ix.entryPosStart[e1] as number;
      entryLex.set(ix.entryLex.subarray(e0, e1), E);
      positions.set(ix.positions.subarray(p0, p1), P);
      for (let e = e0; e < e1; e++) entryPos[E + e - e0] = (ix.entryPosStart[e] as number) - p0 + P;
      E += e1 - e0;
      P += p1 - p0;
      for (const v of ix.variantRowsOf(d)) variants.push(v);
      for (let k = ix.docCatStart[d] as number; k < (ix.docCatStart[d + 1] as number); k++) {
        memberships.push({
          productId: ix.ids[d] as string,
          categoryId: ix.categories[ix.docCats[k] as number]?.id as string,
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
      for (const v of c.variants) variants.push(v);
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
  return { rows, vectors, memberships, categoryRows, variants };
}

/**
 * Sort keys of the changed ACTIVE products: a neighbour's key when equal to it, else spread
 * between the neighbours below and above in the order PostgreSQL gave them (rank). Null when a
 * neighbour is not in this index or the keys cannot be told apart (floats exhausted).
 */
export function placeKeys(
  ix: IndexData,
  changes: PatchRow[],
  which: 'name' | 'made',
  keys: Float64Array,
): Map<string, number> | null {
  const out = new Map<string, number>();
  const keyOf = (id: string | null): number | null | undefined => {
    if (id === null) return null;
    const d = ix.docOf.get(id);
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
