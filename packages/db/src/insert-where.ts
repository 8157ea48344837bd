import { getTableColumns, is, SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * `INSERT INTO table (columns) SELECT * FROM (VALUES ...) WHERE condition`: drizzle's insert of
 * `rows`, written only when `condition` holds. One statement can then write its rows only when
 * another of its parts (a data-modifying WITH, such as a stock take) says yes, and nothing at all
 * otherwise, without a transaction around it.
 *
 * Each value is cast to its column's type: in a SELECT the server does not take the types from the
 * target columns, as it does for INSERT ... VALUES. A value may be an SQL expression (a subquery).
 * Every row must name the same columns. A column
 * that no row names takes the table's default. Drizzle's `$defaultFn` is not run: name the column.
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
  const names = sql.join(
    keys.map((k) => sql.identifier(columns[k]?.name as string)),
    sql`, `,
  );
  const tuples = (rows as Record<string, unknown>[]).map(
    (row) =>
      sql`(${sql.join(
        keys.map((k) => {
          const column = columns[k] as NonNullable<(typeof columns)[string]>;
          const value = row[k];
          const type = sql.raw(column.getSQLType());
          if (value === null) return sql`NULL::${type}`;
          // An expression (a subquery, say) is written as it is, cast like a value.
          if (is(value, SQL)) return sql`(${value})::${type}`;
          return sql`${sql.param(value, column)}::${type}`;
        }),
        sql`, `,
      )})`,
  );
  return sql`INSERT INTO ${table} (${names}) SELECT * FROM (VALUES ${sql.join(tuples, sql`, `)}) AS v (${names}) WHERE ${condition}`;
}
