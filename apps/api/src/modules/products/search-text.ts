/**
 * Query text helpers for product search: the word being typed, and typo correction by trigram
 * similarity, computed as pg_trgm computes it (lower-cased words padded with two spaces in front
 * and one behind; similarity = shared trigrams / all trigrams).
 */

/** Words of a query: letters and digits only, so they are safe inside a to_tsquery string. */
export function queryWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** True when the text uses web search syntax (quotes, -exclusion, or): no prefix matching then. */
export function usesOperators(text: string): boolean {
  return /["]|(^|\s)-\S|\bor\b/i.test(text);
}

/** A prefix tsquery for typing: every word complete except the last, which may be a prefix. */
export function prefixTsQuery(words: string[]): string | null {
  if (!words.length) return null;
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
}

export function trigrams(word: string): Set<string> {
  const padded = `  ${word.toLowerCase()} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

export function similarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

/** pg_trgm's default similarity threshold is 0.3; one wrong letter in a 6-letter word scores ~0.4. */
const THRESHOLD = 0.3;

/**
 * A store's words with an inverted trigram index, so a correction looks only at words that share
 * a trigram with the misspelt one instead of scanning the whole vocabulary.
 */
export interface Vocabulary {
  words: ReadonlySet<string>;
  byTrigram: ReadonlyMap<string, readonly string[]>;
  sizes: ReadonlyMap<string, number>;
}

export function buildVocabulary(words: Iterable<string>): Vocabulary {
  const set = new Set<string>();
  const byTrigram = new Map<string, string[]>();
  const sizes = new Map<string, number>();
  for (const w of words) {
    if (set.has(w)) continue;
    set.add(w);
    const tri = trigrams(w);
    sizes.set(w, tri.size);
    for (const t of tri) {
      const list = byTrigram.get(t);
      if (list) list.push(w);
      else byTrigram.set(t, [w]);
    }
  }
  return { words: set, byTrigram, sizes };
}

/**
 * Replaces each word the catalog does not know by the most similar word it does know.
 * Returns null when nothing changed or nothing close enough exists.
 */
export function correctQuery(words: string[], vocabulary: Vocabulary): string | null {
  let changed = false;
  const out = words.map((w) => {
    if (vocabulary.words.has(w) || /^\d+$/.test(w)) return w;
    const tri = trigrams(w);
    const shared = new Map<string, number>();
    for (const t of tri) for (const v of vocabulary.byTrigram.get(t) ?? []) shared.set(v, (shared.get(v) ?? 0) + 1);
    let best = '';
    let bestScore = THRESHOLD;
    for (const [v, n] of shared) {
      const score = n / (tri.size + (vocabulary.sizes.get(v) ?? 0) - n);
      if (score > bestScore || (score === bestScore && best && v < best)) {
        best = v;
        bestScore = score;
      }
    }
    if (!best) return w;
    changed = true;
    return best;
  });
  return changed ? out.join(' ') : null;
}
