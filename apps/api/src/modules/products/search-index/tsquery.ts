/**
 * tsquery: PostgreSQL's binary form (tsquerysend), which keeps the order of the query's items.
 * ts_rank depends on that order (see rankPlan in rank.ts), which the text form does not preserve.
 */
import type { Db } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';
import { prefixTsQuery, queryWords, usesOperators } from '../search-text';
import { rowsOf } from './rows';

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
