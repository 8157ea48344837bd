import { describe, expect, it } from 'vitest';
import { buildVocabulary, correctQuery, prefixTsQuery, queryWords, similarity, usesOperators } from './search-text';

describe('search text', () => {
  it('computes trigram similarity as pg_trgm does', () => {
    // SELECT similarity('word', 'two words') = 0.363636
    expect(similarity('word', 'words')).toBeCloseTo(4 / 7, 5);
    expect(similarity('pendant', 'pendant')).toBe(1);
  });

  it('corrects unknown words to the closest known word, and leaves known words and numbers', () => {
    const v = buildVocabulary(['pendant', 'chandelier', 'lamp', 'brass', 'pedal']);
    expect(correctQuery(['pendnat'], v)).toBe('pendant');
    expect(correctQuery(['brass', 'chandalier'], v)).toBe('brass chandelier');
    expect(correctQuery(['lamp', '12'], v)).toBeNull();
    expect(correctQuery(['zzzz'], v)).toBeNull();
  });

  it('builds safe prefix queries and recognises web search syntax', () => {
    expect(queryWords("Brass & 'lamp':* <-> x")).toEqual(['brass', 'lamp', 'x']);
    expect(prefixTsQuery(['brass', 'pend'])).toBe('brass & pend:*');
    expect(usesOperators('"glass globe"')).toBe(true);
    expect(usesOperators('pendant -glass')).toBe(true);
    expect(usesOperators('lamp or sconce')).toBe(true);
    expect(usesOperators('x-ray lamp')).toBe(false);
  });
});
