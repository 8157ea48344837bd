import type { Db } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';

/**
 * Every table that holds a store's rows, read from the database's own catalog rather than a list
 * in the code: a table added by a later migration is exported, imported and purged without anyone
 * remembering to name it here (decision 122). A store's row is one whose `tenant_id` names it.
 */

export interface TenantColumn {
  name: string;
  /** `format_type` of the column, e.g. `text`, `timestamp with time zone`, `bigint`. */
  type: string;
  notNull: boolean;
  hasDefault: boolean;
  /** A generated column (`GENERATED ALWAYS AS (...) STORED`): never written, never exported. */
  generated: boolean;
  /** An identity column written only with `OVERRIDING SYSTEM VALUE` (`GENERATED ALWAYS AS IDENTITY`). */
  identityAlways: boolean;
  /** The sequence behind a serial or identity column, to move past imported ids. */
  sequence: string | null;
}

export interface TenantTable {
  name: string;
  columns: TenantColumn[];
  /** The primary key's columns in key order (tenant_id first, decision 004); empty when none. */
  primaryKey: string[];
  /** Tables this one refers to by foreign key (other than itself). */
  refersTo: string[];
}

/** The rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
export const rowsOf = async <T>(db: Pick<Db, 'execute'>, q: SQL): Promise<T[]> =>
  ((await db.execute(q)) as unknown as { rows: T[] }).rows;

/** A quoted SQL identifier (catalog names only; never a client's input). */
export const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

/**
 * The store's tables, parents before children (a table comes after every table it refers to), so
 * an import inserts in this order and a purge deletes in the reverse. Read once per process: the
 * schema changes only by a migration, which a restart applies.
 */
export async function readTenantTables(db: Db): Promise<TenantTable[]> {
  const cols = await rowsOf<{
    table_name: string;
    name: string;
    type: string;
    not_null: boolean;
    has_default: boolean;
    generated: string;
    identity: string;
    sequence: string | null;
  }>(
    db,
    sql`SELECT c.relname AS table_name, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
          a.attnotnull AS not_null, a.atthasdef AS has_default, a.attgenerated::text AS generated,
          a.attidentity::text AS identity,
          pg_get_serial_sequence(quote_ident(c.relname), a.attname) AS sequence
        FROM pg_class c
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
          AND EXISTS (SELECT 1 FROM pg_attribute t WHERE t.attrelid = c.oid AND t.attname = 'tenant_id'
                      AND NOT t.attisdropped)
        ORDER BY c.relname, a.attnum`,
  );
  const keys = await rowsOf<{ table_name: string; name: string }>(
    db,
    sql`SELECT c.relname AS table_name, a.attname AS name
        FROM pg_index i
        JOIN pg_class c ON c.oid = i.indrelid AND c.relnamespace = 'public'::regnamespace
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
        WHERE i.indisprimary
        ORDER BY c.relname, array_position(i.indkey::int2[], a.attnum)`,
  );
  const fks = await rowsOf<{ src: string; dst: string }>(
    db,
    sql`SELECT DISTINCT s.relname AS src, d.relname AS dst
        FROM pg_constraint k
        JOIN pg_class s ON s.oid = k.conrelid
        JOIN pg_class d ON d.oid = k.confrelid
        WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace AND s.oid <> d.oid`,
  );
  const tables = new Map<string, TenantTable>();
  for (const c of cols) {
    let t = tables.get(c.table_name);
    if (!t) {
      t = { name: c.table_name, columns: [], primaryKey: [], refersTo: [] };
      tables.set(c.table_name, t);
    }
    t.columns.push({
      name: c.name,
      type: c.type,
      notNull: c.not_null,
      hasDefault: c.has_default,
      generated: c.generated === 's',
      identityAlways: c.identity === 'a',
      sequence: c.sequence,
    });
  }
  for (const k of keys) tables.get(k.table_name)?.primaryKey.push(k.name);
  for (const f of fks) {
    const t = tables.get(f.src);
    if (t && tables.has(f.dst)) t.refersTo.push(f.dst);
  }
  return parentsFirst([...tables.values()]);
}

/** Depth-first order over the foreign keys, names sorted so the order is the same on every database. */
function parentsFirst(tables: TenantTable[]): TenantTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const out: TenantTable[] = [];
  const visit = (t: TenantTable, path: Set<string>) => {
    if (done.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const p of [...t.refersTo].sort()) {
      const parent = byName.get(p);
      if (parent) visit(parent, path);
    }
    path.delete(t.name);
    done.add(t.name);
    out.push(t);
  };
  for (const t of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(t, new Set());
  return out;
}
