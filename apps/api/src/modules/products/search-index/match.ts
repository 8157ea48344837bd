/**
 * Which documents match a tsquery, as `search_vector @@ q` decides: each operand's documents from
 * the postings (a prefix is a range of lexeme ids), combined by the operators over bit sets; a
 * phrase first as the AND of its parts, then checked at the positions as TS_phrase_execute does.
 */
import { emptySet, entryFrom, entryOf, forEachDoc, type IndexData, lexemeIdOf } from './index-data';
import type { TsNode, TsOperand, TsQuery } from './tsquery';

function weightAllowed(ix: IndexData, d: number, lo: number, hi: number, mask: number): boolean {
  const end = ix.docEntryStart[d + 1] as number;
  for (let e = entryFrom(ix, d, lo); e < end && (ix.entryLex[e] as number) < hi; e++) {
    for (let k = ix.entryPosStart[e] as number; k < (ix.entryPosStart[e + 1] as number); k++) {
      if (mask & (1 << ((ix.positions[k] as number) >> 14))) return true;
    }
  }
  return false;
}

function operandSet(ix: IndexData, o: TsOperand): Uint32Array {
  const set = emptySet(ix.n);
  const [lo, hi] = ix.range(o);
  for (let l = lo; l < hi; l++) {
    for (let k = ix.postStart[l] as number; k < (ix.postStart[l + 1] as number); k++) {
      const d = ix.postDocs[k] as number;
      set[d >>> 5] = (set[d >>> 5] as number) | (1 << (d & 31));
    }
  }
  if (o.weight && o.weight !== 15) {
    forEachDoc(set, (d) => {
      if (!weightAllowed(ix, d, lo, hi, o.weight)) set[d >>> 5] = (set[d >>> 5] as number) & ~(1 << (d & 31));
    });
  }
  return set;
}

/** Documents matching the node; a phrase as the AND of its parts when `loose` (candidates). */
export function evaluate(ix: IndexData, node: TsNode, loose = false): Uint32Array {
  switch (node.op) {
    case 'val':
      return operandSet(ix, node);
    case 'not': {
      if (loose) throw new Error('a negation inside a phrase is not supported');
      const a = evaluate(ix, node.arg);
      for (let w = 0; w < a.length; w++) a[w] = ~(a[w] as number);
      const tail = ix.n & 31;
      if (tail && a.length) a[a.length - 1] = (a[a.length - 1] as number) & ((1 << tail) - 1);
      return a;
    }
    case 'and':
    case 'or': {
      const a = evaluate(ix, node.left, loose);
      const b = evaluate(ix, node.right, loose);
      if (node.op === 'and') for (let w = 0; w < a.length; w++) a[w] = (a[w] as number) & (b[w] as number);
      else for (let w = 0; w < a.length; w++) a[w] = (a[w] as number) | (b[w] as number);
      return a;
    }
    case 'phrase': {
      const a = evaluate(ix, node.left, true);
      const b = evaluate(ix, node.right, true);
      for (let w = 0; w < a.length; w++) a[w] = (a[w] as number) & (b[w] as number);
      if (!loose) {
        const chain = chainOf(ix, node);
        const found = chain ? (d: number) => chainAt(ix, chain, d) : phrase(ix, node).at;
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
function chainOf(ix: IndexData, node: TsNode): { lexeme: number; offset: number }[] | null {
  const out: { lexeme: number; offset: number }[] = [];
  const walk = (n: TsNode, end: number): boolean => {
    // `end`: where this part must end, relative to the chain's end; returns false if not plain.
    if (n.op === 'val') {
      if (n.prefix || n.weight) return false;
      out.push({ lexeme: lexemeIdOf(ix.lexemes, n.lexeme), offset: end });
      return true;
    }
    if (n.op !== 'phrase') return false;
    const right = phrase(ix, n.right).width;
    return walk(n.right, end) && walk(n.left, end - right - n.distance);
  };
  if (!walk(node, 0)) return null;
  return out.sort((x, y) => x.offset - y.offset);
}

/** chainAt's scratch: the entry of each word of the chain in the document at hand. */
const chainEntries: number[] = [];

/** Whether document d has the chain's words at their distances (no allocation: it runs per candidate). */
function chainAt(ix: IndexData, chain: { lexeme: number; offset: number }[], d: number): boolean {
  const first = chain[0] as { lexeme: number; offset: number };
  const entries = chainEntries;
  for (let i = 0; i < chain.length; i++) {
    const e = entryOf(ix, d, (chain[i] as { lexeme: number }).lexeme);
    if (e < 0) return false;
    entries[i] = e;
  }
  const e0 = entries[0] as number;
  for (let k = ix.entryPosStart[e0] as number; k < (ix.entryPosStart[e0 + 1] as number); k++) {
    const start = ((ix.positions[k] as number) & 0x3fff) - first.offset;
    let all = true;
    for (let i = 1; i < chain.length && all; i++) {
      const want = start + (chain[i] as { offset: number }).offset;
      const e = entries[i] as number;
      all = false;
      for (let j = ix.entryPosStart[e] as number; j < (ix.entryPosStart[e + 1] as number); j++) {
        if (((ix.positions[j] as number) & 0x3fff) === want) {
          all = true;
          break;
        }
      }
    }
    if (all) return true;
  }
  return false;
}

/**
 * A phrase part compiled to a function of the document giving its positions, as
 * TS_phrase_execute computes them (a match's position is where it ends; width is how far back
 * it starts), with the width known before any document is read.
 */
function phrase(ix: IndexData, node: TsNode): { at: (d: number) => number[]; width: number } {
  switch (node.op) {
    case 'val': {
      const [lo, hi] = ix.range(node);
      const weight = node.weight;
      const at = (d: number) => {
        const out: number[] = [];
        const end = ix.docEntryStart[d + 1] as number;
        let entries = 0;
        for (let e = entryFrom(ix, d, lo); e < end && (ix.entryLex[e] as number) < hi; e++, entries++) {
          for (let k = ix.entryPosStart[e] as number; k < (ix.entryPosStart[e + 1] as number); k++) {
            const p = ix.positions[k] as number;
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
      const l = phrase(ix, node.left);
      const r = phrase(ix, node.right);
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
      const l = phrase(ix, node.left);
      const r = phrase(ix, node.right);
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
export function match(ix: IndexData, q: TsQuery): Uint32Array {
  return q.root ? evaluate(ix, q.root) : emptySet(ix.n);
}
