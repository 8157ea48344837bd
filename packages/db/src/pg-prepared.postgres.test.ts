import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { prepareEveryStatement } from './pg-prepared';
import { openTestDatabase } from './testing';

// The app's statements are prepared once per PostgreSQL connection (decision 063): what the
// server holds, and that the answers are the same as unprepared ones.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

type Prepared = { name: string; statement: string };
/** The rows of `tx.execute` (typed unknown for either driver). */
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

describe('statements prepared per connection', () => {
  it('prepares a statement with values once and runs it again by name', async () => {
    const { db } = database;
    const held = await db.transaction(async (tx) => {
      // One connection: the transaction's.
      const first = await tx.execute(sql`SELECT ${41}::int + 1 AS answer`);
      const again = await tx.execute(sql`SELECT ${1}::int + 1 AS answer`);
      expect(rowsOf(first)).toEqual([{ answer: 42 }]);
      expect(rowsOf(again)).toEqual([{ answer: 2 }]);
      const rows = await tx.execute(sql`SELECT name, statement FROM pg_prepared_statements`);
      return rowsOf(rows) as Prepared[];
    });
    const mine = held.filter((p) => p.statement.includes('AS answer'));
    expect(mine).toHaveLength(1);
    expect(mine[0]?.name).toMatch(/^s_/);
  });

  it('leaves a statement without values unnamed (BEGIN, COMMIT, DDL)', async () => {
    const held = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 7 AS seven`);
      return rowsOf(await tx.execute(sql`SELECT name, statement FROM pg_prepared_statements`)) as Prepared[];
    });
    expect(held.some((p) => /begin|seven/i.test(p.statement))).toBe(false);
  });

  it('prepares at most the bound per connection and still answers every text', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
    pool.on('connect', (client) => prepareEveryStatement(client, 2));
    try {
      const answers: unknown[] = [];
      for (const n of [1, 2, 3]) {
        const res = await pool.query({ text: `SELECT $1::int * ${n} AS v`, values: [10] });
        answers.push(res.rows[0].v);
      }
      // The first two again: by name; the third again: unnamed, and right.
      for (const n of [1, 2, 3]) {
        const res = await pool.query({ text: `SELECT $1::int * ${n} AS v`, values: [5] });
        answers.push(res.rows[0].v);
      }
      expect(answers).toEqual([10, 20, 30, 5, 10, 15]);
      const held = await pool.query('SELECT statement FROM pg_prepared_statements ORDER BY statement');
      expect(held.rows.map((r) => r.statement)).toEqual(['SELECT $1::int * 1 AS v', 'SELECT $1::int * 2 AS v']);
    } finally {
      await pool.end();
    }
  });
});
