import v8 from 'node:v8';
import vm from 'node:vm';
import { PGlite, TransactionAbortedError, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparedPglite } from './pglite-prepared';

// PGlite's client for the app's queries (decision 061): every text prepared once, one exchange a
// query. It must answer exactly what PGlite's own `query` answers, fail the same way, and keep
// transactions whole.

let pg: PGlite;
beforeAll(async () => {
  pg = await PGlite.create('memory://');
  await pg.exec(`
    CREATE TABLE items (
      id integer PRIMARY KEY,
      name text NOT NULL UNIQUE,
      tags text[],
      meta jsonb,
      active boolean NOT NULL DEFAULT true,
      at timestamptz,
      data bytea
    );
    INSERT INTO items VALUES
      (1, 'lamp', '{a,"b c"}', '{"x":1}', true, '2026-11-28T05:00:00Z', '\\x0102'),
      (2, 'desk', NULL, NULL, false, NULL, NULL);
  `);
});
afterAll(() => pg.close());

const select = 'SELECT id, name, tags, meta, active, at, data FROM items WHERE id = ANY($1) ORDER BY id';
const preparedIn = async (client: PreparedPglite) =>
  (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0]?.n;

describe('PreparedPglite', () => {
  it("answers what PGlite's own query answers, in rows and in arrays, with values of every kind", async () => {
    const client = new PreparedPglite(pg);
    for (const options of [undefined, { rowMode: 'array' as const }]) {
      const own = await pg.query(select, [[1, 2]], options);
      expect(await client.query(select, [[1, 2]], options)).toEqual(own);
    }
    // What drizzle asks for: dates as PostgreSQL writes them, not as Date objects.
    const asText = { rowMode: 'array' as const, parsers: { [types.TIMESTAMPTZ]: (v: string) => v } };
    expect(await client.query(select, [[1]], asText)).toEqual(await pg.query(select, [[1]], asText));
    const row = (await client.query<{ tags: string[]; meta: unknown }>(select, [[1]])).rows[0];
    expect(row).toMatchObject({ tags: ['a', 'b c'], meta: { x: 1 } });

    // Values as node-postgres sends them: a date, an object as JSON, an array, a Buffer, a boolean.
    await client.query(
      'INSERT INTO items (id, name, tags, meta, active, at, data) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [3, 'chair', ['x', 'y"z'], { nested: [1, 2] }, false, new Date('2026-01-02T03:04:05.006Z'), Buffer.from([7, 8])],
    );
    const inserted = await client.query<Record<string, unknown>>(select, [[3]]);
    expect(inserted.rows[0]).toMatchObject({ tags: ['x', 'y"z'], meta: { nested: [1, 2] }, active: false });
    const [chair] = inserted.rows as [{ at: Date; data: Uint8Array }];
    expect(chair.at.toISOString()).toBe('2026-01-02T03:04:05.006Z');
    expect(Array.from(chair.data)).toEqual([7, 8]);
    const update = 'UPDATE items SET active = $1 WHERE id >= $2';
    const changed = await client.query(update, [true, 2]);
    expect(changed).toEqual(await pg.query(update, [true, 2]));
    expect(changed.affectedRows).toBe(2);
    await client.query('DELETE FROM items WHERE id = $1', [3]);
  });

  it('prepares a text once however often it runs', async () => {
    const client = new PreparedPglite(pg);
    const before = await preparedIn(client);
    for (let i = 0; i < 20; i++) await client.query('SELECT name FROM items WHERE id = $1', [(i % 2) + 1]);
    // The count query is a statement of its own.
    expect(await preparedIn(client)).toBe((before ?? 0) + 1);
    expect(client.statements()).toBe(2);
  });

  it('keeps at most its bound of statements, closing the least recently used', async () => {
    const client = new PreparedPglite(pg, 2);
    const own = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
    const start = own.rows[0]?.n ?? 0;
    await client.query('SELECT 1 AS one');
    await client.query('SELECT 2 AS two');
    await client.query('SELECT 1 AS one'); // used again: now the most recent
    await client.query('SELECT 3 AS three'); // past the bound: "two" goes
    expect(client.statements()).toBe(2);
    await client.query('SELECT 1 AS one'); // the exchange that closes "two"
    const after = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
    expect((after.rows[0]?.n ?? 0) - start).toBe(2);
    expect((await client.query<{ two: number }>('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  });

  it('fails as PGlite fails, with the SQL state, the constraint and the query, and goes on working', async () => {
    const client = new PreparedPglite(pg);
    const insert = 'INSERT INTO items (id, name) VALUES ($1, $2)';
    const err = await client.query(insert, [9, 'lamp']).catch((e) => e);
    expect(err).toMatchObject({ code: '23505', constraint: 'items_name_key', query: insert });
    const bad = await client.query('SELEC nothing').catch((e) => e);
    expect(bad).toMatchObject({ code: '42601' });
    expect(client.statements()).toBe(1); // the insert was prepared; the bad text was not
    await client.query(insert, [9, 'lamp 9']);
    expect((await client.query('SELECT name FROM items WHERE id = $1', [9])).rows).toEqual([{ name: 'lamp 9' }]);
    await client.query('DELETE FROM items WHERE id = $1', [9]);
  });

  it('commits a transaction whole, and rolls it back whole when the callback throws', async () => {
    const client = new PreparedPglite(pg);
    await client.transaction(async (tx) => {
      await tx.query('INSERT INTO items (id, name) VALUES ($1, $2)', [10, 'ten']);
      await tx.query('INSERT INTO items (id, name) VALUES ($1, $2)', [11, 'eleven']);
    });
    const failed = client.transaction(async (tx) => {
      await tx.query('INSERT INTO items (id, name) VALUES ($1, $2)', [12, 'twelve']);
      await tx.query('INSERT INTO items (id, name) VALUES ($1, $2)', [13, 'ten']); // duplicate name
    });
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    const ids = await client.query<{ id: number }>('SELECT id FROM items WHERE id >= 10 ORDER BY id');
    expect(ids.rows.map((r) => r.id)).toEqual([10, 11]);
    await client.query('DELETE FROM items WHERE id >= $1', [10]);
  });

  it('refuses to commit a transaction whose statement failed, and prepares nothing in it', async () => {
    const client = new PreparedPglite(pg);
    const aborted = client.transaction(async (tx) => {
      await tx.query('INSERT INTO items (id, name) VALUES ($1, $2)', [14, 'lamp']).catch(() => {});
      // The transaction has failed: this text cannot even be prepared.
      await tx.query('SELECT $1::int + 40 AS n', [2]).catch(() => {});
    });
    await expect(aborted).rejects.toBeInstanceOf(TransactionAbortedError);
    expect((await client.query('SELECT $1::int + 40 AS n', [2])).rows).toEqual([{ n: 42 }]);
    expect((await client.query('SELECT count(*)::int AS n FROM items WHERE id = $1', [14])).rows).toEqual([{ n: 0 }]);
  });

  it('runs a statement on its own only between transactions, never inside one', async () => {
    const client = new PreparedPglite(pg);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const tx = client.transaction(async (t) => {
      await t.query('INSERT INTO items (id, name) VALUES ($1, $2)', [20, 'twenty']);
      await held;
      await t.query('DELETE FROM items WHERE id = $1', [20]);
    });
    // Started while the transaction is open: it must see the state after COMMIT, not the row.
    const outside = client.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE id = $1', [20]);
    await new Promise((r) => setTimeout(r, 20));
    release();
    await tx;
    expect((await outside).rows).toEqual([{ n: 0 }]);
  });

  it('keeps nothing of a statement once it has answered: the heap after GC stays flat over thousands', async () => {
    // Vitest's forks do not start with --expose-gc; the flag can still be set, and a new context
    // then has the global gc.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const heapAfterGc = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const client = new PreparedPglite(pg);
    // 50 rows of about 200 bytes each: what a list page reads.
    const list = "SELECT g AS id, repeat('x', 200) || $1::text AS name FROM generate_series(1, 50) AS g";
    const run = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const rows = (await client.query<{ name: string }>(list, [String(i)])).rows;
        expect(rows).toHaveLength(50);
        await client.transaction(async (tx) => {
          await tx.query('UPDATE items SET active = $1 WHERE id = $2', [true, 1]);
        });
      }
    };
    await run(300); // warm up: prepared statements, parsers, JIT
    const before = heapAfterGc();
    await run(2_000);
    const grown = heapAfterGc() - before;
    // Kept answers were 2,000 × 50 rows of 200 bytes and more (59 MB over 3,000 rounds); now about
    // 0.5 MB of noise: allow 3 MB.
    expect(grown).toBeLessThan(3 * 1024 * 1024);
  }, 90_000);
});
