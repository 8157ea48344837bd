import type { Database } from '@app/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness';
import { createQueryComposer } from './query-words';
import { searchTsQuery, tsQueryOf } from './search-index';
import { prefixTsQuery, queryWords } from './search-text';

// A composed query must be PostgreSQL's parse of the whole text, tree and item order alike: the
// index matches and ranks with it (ts_rank depends on the order), so any difference would change
// which products a shopper sees, or in what order.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const WORDS = [
  'brass',
  'lamps',
  'the',
  'and',
  'a',
  'Pendant',
  'LED',
  'e26',
  '60w',
  '2700',
  'running',
  'glasses',
  'null',
  'it',
  'ceiling',
  'x',
  '0042',
  'caf',
  'abc123def',
  'walnut',
  'being',
  'lighting',
  'ies',
  'sconces',
];

/** Texts of one to five of the words, in many orders, deterministic. */
function texts(count: number): string[] {
  const out: string[] = [];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (let i = 0; i < count; i++) {
    const n = 1 + (next() % 5);
    out.push(Array.from({ length: n }, () => WORDS[next() % WORDS.length]).join(next() % 4 ? ' ' : '  '));
  }
  return out;
}

describe('queries composed from known words', () => {
  it("equal PostgreSQL's parse of the whole text, tree and item order", async () => {
    const composer = createQueryComposer(database.db);
    const list = ['the', 'the a and', 'Brass LAMPS', ' lamps ', ...texts(300)];
    for (const text of list) {
      const composed = await composer.search(text);
      expect(composed, text).not.toBeNull();
      const parsed = await tsQueryOf(database.db, searchTsQuery(text));
      expect(composed, text).toEqual(parsed);
    }
  });

  it('leave to PostgreSQL what is not plain words', async () => {
    const composer = createQueryComposer(database.db);
    for (const text of [
      '"brass lamp"',
      'lamp -brass',
      'lamp or sconce',
      'wi-fi',
      'café',
      '1.5',
      'a/b',
      '',
      '   ',
      'one two three four five six seven eight nine',
    ]) {
      expect(await composer.search(text), text).toBeNull();
    }
  });

  it('asks PostgreSQL once per new word, not once per text', async () => {
    const composer = createQueryComposer(database.db);
    await composer.search('brass lamp');
    expect(composer.stats().words).toBe(2);
    await composer.search('lamp brass');
    await composer.search('brass brass lamp');
    expect(composer.stats().words).toBe(2);
    await composer.search('glass lamp');
    expect(composer.stats().words).toBe(3);
  });
});

describe('prefix queries composed as the shopper types', () => {
  it("equal PostgreSQL's to_tsquery('simple', …) of every prefix, with no round trip for ASCII words", async () => {
    const composer = createQueryComposer(database.db);
    const typed = new Set<string>();
    for (const text of ['brass lamp', 'LED e26 60w', 'abc123def walnut', ...texts(120)]) {
      for (let i = 1; i <= text.length; i++) typed.add(text.slice(0, i));
    }
    for (const text of typed) {
      const words = queryWords(text);
      if (!words.length) continue;
      const composed = await composer.prefix(words);
      expect(composed, text).not.toBeNull();
      const parsed = await tsQueryOf(database.db, sql`to_tsquery('simple', ${prefixTsQuery(words)})`);
      expect(composed, text).toEqual(parsed);
    }
    // Only the words with digits were asked of PostgreSQL: the letters-only ones are their own lexeme.
    const asked = composer.stats().words;
    const withDigits = new Set([...typed].flatMap((t) => queryWords(t)).filter((w) => /\d/.test(w)));
    expect(asked).toBeLessThanOrEqual(withDigits.size);
  });

  it('leave to PostgreSQL the words of other scripts', async () => {
    const composer = createQueryComposer(database.db);
    expect(await composer.prefix(queryWords('café lamp'))).toBeNull();
    expect(await composer.prefix([])).toBeNull();
  });
});
