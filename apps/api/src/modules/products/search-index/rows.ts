/** The rows an index is made from, as PostgreSQL gives them. */
import type { Db } from '@app/db';
import type { SQL } from 'drizzle-orm';

export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** A searchable product: its filterable columns, its sort keys and its tsvector's text. */
export interface ProductRow {
  id: string;
  name: string;
  brand: string | null;
  price: number;
  stock: number;
  featured: boolean;
  made: number;
  named: number;
  v: string | null;
}

/**
 * A product's fresh state for an incremental patch of a loaded index: its row (null when it is
 * gone or not ACTIVE: its document is removed), and where its name and introduction date fall
 * among the other ACTIVE products in PostgreSQL's order (the neighbours below and above, `eq` when
 * the one below has the very same value), so the sort keys stay what dense_rank would give.
 */
export interface PatchRow {
  id: string;
  row: Omit<ProductRow, 'made' | 'named'> | null;
  categories: { id: string; name: string | null; description: string | null }[];
  name: { lo: string | null; loEq: boolean; hi: string | null; rank: number };
  made: { lo: string | null; loEq: boolean; hi: string | null; rank: number };
}
