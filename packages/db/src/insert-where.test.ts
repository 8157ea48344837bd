import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { insertWhere } from './insert-where';
import { openTestDatabase } from './testing';

// A table of every kind of column the order path writes through insertWhere.
const t = pgTable('insert_where_probe', {
  id: text('id').notNull(),
  n: integer('n').notNull(),
  data: jsonb('data').$type<{ a: number }>(),
  at: timestamp('at', { withTimezone: true }),
  made: timestamp('made', { withTimezone: true }).notNull().defaultNow(),
});

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.execute(
    sql`CREATE TABLE insert_where_probe (id text NOT NULL, n integer NOT NULL, data jsonb, at timestamptz, made timestamptz NOT NULL DEFAULT now())`,
  );
});
afterAll(async () => {
  await database?.close();
});

const rows = [
  { id: 'a', n: 1, data: { a: 1 }, at: new Date('2026-01-02T03:04:05.000Z') },
  { id: 'b', n: 2, data: null, at: null },
];

describe('insertWhere', () => {
  it('writes the rows, each value as its column type, when the condition holds', async () => {
    await database.db.execute(insertWhere(t, rows, sql`true`));
    const got = await database.db.select().from(t).orderBy(t.id);
    expect(got.map(({ made, ...r }) => r)).toEqual(rows);
    // The column no row named took its default.
    expect(got.every((r) => r.made instanceof Date)).toBe(true);
  });

  it('writes nothing when the condition does not hold', async () => {
    await database.db.execute(insertWhere(t, [{ id: 'c', n: 3, data: null, at: null }], sql`1 = 2`));
    const got = await database.db.select({ id: t.id }).from(t).where(sql`${t.id} = 'c'`);
    expect(got).toEqual([]);
  });

  it('refuses rows that name different columns', () => {
    expect(() =>
      insertWhere(
        t,
        [
          { id: 'd', n: 4 },
          { id: 'e', n: 5, data: { a: 5 } },
        ],
        sql`true`,
      ),
    ).toThrow(/same columns/);
  });
});
