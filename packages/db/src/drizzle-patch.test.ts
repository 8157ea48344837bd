import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entityKind, is, SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from './index';

// drizzle-orm's `is` is patched to remember its answer per class (patches/, decision 063). What it
// answers must not change: by class, by a kind met further up the chain, and for plain values.

describe("drizzle's is(), remembered per class", () => {
  it('is patched in both builds of drizzle-orm (npm install applies patches/)', () => {
    const dir = dirname(fileURLToPath(import.meta.resolve('drizzle-orm')));
    for (const file of ['entity.js', 'entity.cjs']) {
      expect(readFileSync(join(dir, file), 'utf8')).toContain('const isMemo = new WeakMap()');
    }
  });

  it('answers the same on the first call and every call after', () => {
    for (let i = 0; i < 3; i++) {
      expect(is(sql`select 1`, SQL)).toBe(true);
      expect(is(schema.products.productId, SQL)).toBe(false);
      expect(is({ a: 1 }, SQL)).toBe(false);
      expect(is(null, SQL)).toBe(false);
    }
  });

  it('recognises a class of another copy of drizzle by its kind, not by instanceof', () => {
    // As a second copy of drizzle-orm in node_modules would define it: same kind, other class.
    // biome-ignore lint/complexity/noStaticOnlyClass: a drizzle entity is a class known by its static kind
    class OtherSql {
      static readonly [entityKind] = 'SQL';
    }
    // biome-ignore lint/complexity/noStaticOnlyClass: as above
    class Unrelated {
      static readonly [entityKind] = 'NotSQL';
    }
    class Derived extends OtherSql {}
    for (let i = 0; i < 2; i++) {
      expect(is(new OtherSql(), SQL)).toBe(true);
      expect(is(new Derived(), SQL)).toBe(true);
      expect(is(new Unrelated(), SQL)).toBe(false);
    }
  });

  it('still refuses, every time, to answer for a class that is no drizzle entity', () => {
    class Plain {}
    for (let i = 0; i < 2; i++)
      expect(() => is(sql`select 1`, Plain as never)).toThrow(/doesn't look like a Drizzle entity/);
  });
});
