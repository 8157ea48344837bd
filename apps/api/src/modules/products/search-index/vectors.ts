/**
 * tsvector texts ('lexeme':1A,7 'other':3B ...) parsed into typed arrays: lexemes numbered in order
 * of appearance (TenantIndex renumbers them in PostgreSQL's order), each document's entries and
 * each entry's positions.
 */
import { Grow } from './index-data';
import type { ProductRow } from './rows';

export interface ParsedVectors {
  temps: string[];
  docEntryStart: Int32Array;
  entryLex: Grow<Int32Array>;
  entryPos: Grow<Int32Array>;
  positions: Grow<Uint16Array>;
}

/** Where tsvector texts are parsed to: lexemes numbered in order of appearance, and each entry. */
export interface VectorSink {
  tempOf: Map<string, number>;
  temps: string[];
  entryLex: Grow<Int32Array>;
  entryPos: Grow<Int32Array>;
  positions: Grow<Uint16Array>;
}

export function newSink(temps: string[] = []): VectorSink {
  return {
    tempOf: new Map(temps.map((t, i) => [t, i])),
    temps,
    entryLex: new Grow(new Int32Array(1 << 16), (k) => new Int32Array(k)),
    entryPos: new Grow(new Int32Array(1 << 16), (k) => new Int32Array(k)),
    positions: new Grow(new Uint16Array(1 << 16), (k) => new Uint16Array(k)),
  };
}

/** One tsvector's text form ('lexeme':1A,7 'other':3B ...) into the sink, entry by entry. */
export function parseVector(s: string, sink: VectorSink) {
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
export async function parseVectors(rows: ProductRow[]): Promise<ParsedVectors> {
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
