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
  /** Its enabled live variants with option values (none when it has no options or is gone). */
  variants: VariantRow[];
  name: { lo: string | null; loEq: boolean; hi: string | null; rank: number };
  made: { lo: string | null; loEq: boolean; hi: string | null; rank: number };
}

/**
 * An enabled live variant of a product with options: whether it is in stock and its option values,
 * each a `valueKey` (null past the product's option count).
 */
export interface VariantRow {
  productId: string;
  inStock: boolean;
  values: [string | null, string | null, string | null];
}

/**
 * One option value as the facets need it, in one string (PostgreSQL builds it; the index interns
 * it): the option's folded name, its name, its position, the value's folded label, its label, its
 * position, separated by U+0001. Folded by PostgreSQL's lower(), as the oracle folds.
 */
export const VALUE_KEY_SEP = '\u0001';
export interface OptionValueKey {
  optionKey: string;
  optionName: string;
  optionPosition: number;
  valueKey: string;
  label: string;
  valuePosition: number;
}
export function parseValueKey(s: string): OptionValueKey {
  const [optionKey, optionName, op, valueKey, label, vp] = s.split(VALUE_KEY_SEP);
  return {
    optionKey: optionKey ?? '',
    optionName: optionName ?? '',
    optionPosition: Number(op),
    valueKey: valueKey ?? '',
    label: label ?? '',
    valuePosition: Number(vp),
  };
}
