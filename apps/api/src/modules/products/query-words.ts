import type { Db } from '@app/db';
import { sql } from 'drizzle-orm';
import { decodeTsQuery, type TsNode, type TsOperand, type TsQuery } from './search-index';
import { usesOperators } from './search-text';

/** What PostgreSQL makes of one word: its english lexeme (none for a stop word) and its simple one. */
interface WordLexemes {
  english: TsOperand | null;
  simple: TsOperand;
}

/** Words kept in all (the same analysis serves every store): past this, the lot is dropped. */
const MAX_WORDS = 50_000;
/** Longer texts, or words, are rare enough to go to PostgreSQL whole. */
const MAX_TEXT_WORDS = 8;
const PLAIN_WORD = /^[A-Za-z0-9]{1,64}$/;
const ASCII_LETTERS = /^[a-z]+$/;

const and = (left: TsNode, right: TsNode): TsNode => ({ op: 'and', left, right });
const or = (left: TsNode, right: TsNode): TsNode => ({ op: 'or', left, right });
/** An AND of the nodes, left-deep, as websearch_to_tsquery and to_tsquery build `a & b & c`. */
const allOf = (nodes: TsNode[]): TsNode | null => (nodes.length ? nodes.reduce((l, r) => and(l, r)) : null);

/** The operands in tsquerysend's item order: each operator is followed by its right side, then its left. */
function itemOrder(node: TsNode | null, out: TsOperand[] = []): TsOperand[] {
  if (!node) return out;
  if (node.op === 'val') out.push(node);
  else if (node.op === 'not') itemOrder(node.arg, out);
  else {
    itemOrder(node.right, out);
    itemOrder(node.left, out);
  }
  return out;
}

/**
 * Queries of plain words composed in process from each word's analysis, so a text the server has
 * never seen costs no round trip when its words are known. PostgreSQL stays the
 * analyser: each word is stemmed by it once (in one statement for all the new words of a text) and
 * remembered; only the composition, which for plain words is an AND of the words' lexemes, is done
 * here. The tests compare the result with PostgreSQL's parse of the whole text, tree and item order
 * (ts_rank depends on it). Anything else (quotes, exclusions, "or", punctuation, other scripts)
 * returns null: the caller asks PostgreSQL for the whole text as before.
 */
export function createQueryComposer(db: Db) {
  const words = new Map<string, WordLexemes | 'complex'>();

  /** The plain words of the text, lower-cased; null when it is not made of plain words only. */
  function plainWords(text: string): string[] | null {
    if (usesOperators(text)) return null;
    const tokens = text.trim().split(/\s+/);
    if (!tokens[0] || tokens.length > MAX_TEXT_WORDS || !tokens.every((t) => PLAIN_WORD.test(t))) return null;
    return tokens.map((t) => t.toLowerCase());
  }

  async function learn(list: string[]): Promise<void> {
    const missing = [...new Set(list.filter((w) => !words.has(w)))];
    if (!missing.length) return;
    const result = await db.execute(sql`
      SELECT w,
        encode(tsquerysend(websearch_to_tsquery('english', w)), 'hex') AS english,
        encode(tsquerysend(websearch_to_tsquery('simple', w)), 'hex') AS simple
      FROM unnest(${`{${missing.map((w) => `"${w}"`).join(',')}}`}::text[]) AS w`);
    if (words.size + missing.length > MAX_WORDS) words.clear();
    for (const row of (result as unknown as { rows: { w: string; english: string; simple: string }[] }).rows) {
      const english = decodeTsQuery(Uint8Array.from(Buffer.from(row.english, 'hex')));
      const simple = decodeTsQuery(Uint8Array.from(Buffer.from(row.simple, 'hex')));
      // Plain words only reach here, quoted in the array literal (so "null" stays a word).
      // One word, one token: anything else (a word the parser splits) is left to PostgreSQL whole.
      const single = (q: TsQuery) => (q.root?.op === 'val' ? q.root : null);
      const s = single(simple);
      words.set(
        row.w,
        s && (english.root === null || single(english)) ? { english: single(english), simple: s } : 'complex',
      );
    }
  }

  return {
    /**
     * The search query of `searchTsQuery` for a text of plain words:
     * (websearch english || websearch simple) || the prefix query of the words, the last one a prefix.
     */
    async search(text: string): Promise<TsQuery | null> {
      const list = plainWords(text);
      if (!list) return null;
      await learn(list);
      const known = list.map((w) => words.get(w));
      if (known.some((k) => k === undefined || k === 'complex')) return null;
      const lex = known as WordLexemes[];
      const english = allOf(lex.flatMap((w) => (w.english ? [{ ...w.english }] : [])));
      const simple = allOf(lex.map((w) => ({ ...w.simple })));
      const prefix = allOf(lex.map((w, i) => ({ ...w.simple, prefix: i === lex.length - 1 })));
      if (!simple || !prefix) return null;
      // `'' || q` is q: a text of stop words only has no english part.
      const root = or(english ? or(english, simple) : simple, prefix);
      return { root, operands: itemOrder(root) };
    },

    /**
     * `to_tsquery('simple', prefixTsQuery(words))` (autocomplete): an AND of the words' simple
     * lexemes, the last one a prefix. The last word changes on every keystroke; a word of ASCII
     * letters alone is its own simple lexeme (the parser's asciiword, which the simple dictionary
     * only lower-cases: it has no stop words), so typing one costs no round trip either.
     */
    async prefix(list: string[]): Promise<TsQuery | null> {
      if (!list.length || list.length > MAX_TEXT_WORDS || !list.every((w) => PLAIN_WORD.test(w))) return null;
      const lower = list.map((w) => w.toLowerCase());
      await learn(lower.filter((w) => !ASCII_LETTERS.test(w)));
      const operands: TsOperand[] = [];
      for (const [i, w] of lower.entries()) {
        const prefix = i === lower.length - 1;
        if (ASCII_LETTERS.test(w)) {
          operands.push({ op: 'val', lexeme: w, prefix, weight: 0 });
          continue;
        }
        const known = words.get(w);
        if (known === undefined || known === 'complex') return null;
        operands.push({ ...known.simple, prefix });
      }
      const root = allOf(operands);
      return { root, operands: itemOrder(root) };
    },

    stats() {
      return { words: words.size };
    },
  };
}
