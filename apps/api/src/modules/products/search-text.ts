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
 * Replaces each word the catalog does not know by the most similar word it does know.
 * Returns null when nothing changed or nothing close enough exists.
 */
export function correctQuery(words: string[], vocabulary: ReadonlySet<string>): string | null {
  let changed = false;
  const out = words.map((w) => {
    if (vocabulary.has(w) || /^\d+$/.test(w)) return w;
    let best = '';
    let bestScore = THRESHOLD;
    for (const v of vocabulary) {
      // Cheap length filter first: words of very different length cannot be similar enough.
      if (Math.abs(v.length - w.length) > 3) continue;
      const s = similarity(w, v);
      if (s > bestScore || (s === bestScore && best && v < best)) {
        best = v;
        bestScore = s;
      }
    }
    if (!best) return w;
    changed = true;
    return best;
  });
  return changed ? out.join(' ') : null;
}
