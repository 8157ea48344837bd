import { getTableColumns, is, Param, SQL, StringChunk } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * `INSERT INTO table (columns) SELECT * FROM (VALUES ...) WHERE condition`: drizzle's insert of
 * `rows`, written only when `condition` holds. One statement can then write its rows only when
 * another of its parts (a data-modifying WITH, such as a stock take) says yes, and nothing at all
 * otherwise, without a transaction around it.
 *
 * Each value is cast to its column's type: in a SELECT the server does not take the types from the
 * target columns, as it does for INSERT ... VALUES. A value may be an SQL expression (a subquery).
 * Every row must name the same columns. A column that no row names takes the table's default.
 * Drizzle's `$defaultFn` is not run: name the column.
 */
export function insertWhere<T extends PgTable>(
  table: T,
  rows: { [K in keyof T['$inferInsert']]: T['$inferInsert'][K] | SQL }[],
  condition: SQL,
): SQL {
  const first = rows[0] as Record<string, unknown> | undefined;
  if (!first) throw new Error('insertWhere: no rows');
  const columns = getTableColumns(table);
  const keys = Object.keys(first).filter((k) => first[k] !== undefined);
  for (const k of keys) if (!columns[k]) throw new Error(`insertWhere: no column ${k}`);
  for (const row of rows as Record<string, unknown>[]) {
    const named = Object.keys(row).filter((k) => row[k] !== undefined);
    if (named.length !== keys.length || named.some((k) => !keys.includes(k))) {
      throw new Error('insertWhere: every row must name the same columns');
    }
  }
  const cols = keys.map((k) => columns[k] as NonNullable<(typeof columns)[string]>);
  const names = cols.map((c) => `"${c.name}"`).join(', ');
  // One flat list of chunks (text, value, text, ...) rather than an SQL object per value: on the
  // order path this statement is built for every checkout, and drizzle's cost grows with nesting.
  const chunks: unknown[] = [
    new StringChunk('INSERT INTO '),
    table,
    new StringChunk(` (${names}) SELECT * FROM (VALUES `),
  ];
  (rows as Record<string, unknown>[]).forEach((row, r) => {
    cols.forEach((column, i) => {
      const value = row[keys[i] as string];
      const open = i === 0 ? (r === 0 ? '(' : '), (') : ', ';
      const cast = `::${column.getSQLType()}`;
      if (value === null) chunks.push(new StringChunk(`${open}NULL${cast}`));
      // An expression (a subquery, say) is written as it is, cast like a value.
      else if (is(value, SQL)) chunks.push(new StringChunk(`${open}(`), value, new StringChunk(`)${cast}`));
      else chunks.push(new StringChunk(open), new Param(value, column), new StringChunk(cast));
    });
  });
  chunks.push(new StringChunk(`)) AS v (${names}) WHERE `), condition);
  return new SQL(chunks as SQL['queryChunks']);
}
