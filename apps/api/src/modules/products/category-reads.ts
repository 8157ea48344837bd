/** The category reads of the storefront: a category's row, its breadcrumb, autocomplete's matches. */
import { categoryLabel } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import type { MemoryBudget } from '../../lib/memory-budget';
import { StoreValues } from '../../lib/store-generations';

const cat = schema.categories;

/** Category reads over `db`, with the per-store list autocomplete keeps (dropped by `catalog.changed`). */
export function createCategoryReads(db: Db, opts: { memory?: MemoryBudget; maxStores?: number } = {}) {
  async function categoryRow(ctx: TenantContext, id: string) {
    const [row] = await db
      .select()
      .from(cat)
      .where(and(eq(cat.tenantId, ctx.tenantId), eq(cat.productCategoryId, id)));
    return row;
  }

  /** The category and its parents up the rollup, root first (first parent at each level). */
  async function breadcrumb(ctx: TenantContext, categoryId: string) {
    const r = schema.categoryRollups;
    const chain: { productCategoryId: string; label: string }[] = [];
    let current: string | undefined = categoryId;
    const seen = new Set<string>();
    while (current && !seen.has(current) && chain.length < 6) {
      seen.add(current);
      const row = await categoryRow(ctx, current);
      if (!row) break;
      chain.unshift({ productCategoryId: row.productCategoryId, label: categoryLabel(row) });
      const [parent] = await db
        .select({ id: r.parentProductCategoryId })
        .from(r)
        .where(and(eq(r.tenantId, ctx.tenantId), eq(r.productCategoryId, current)))
        .orderBy(asc(r.sequenceNum))
        .limit(1);
      current = parent?.id;
    }
    return chain;
  }

  /**
   * A store's categories in id order (PostgreSQL's collation), for the suggestions autocomplete
   * makes on every keystroke: read once instead of a LIKE query per keystroke. Only the catalog
   * tools write categories, and their `catalog.changed` names them, which drops the list.
   */
  type CategoryRow = typeof cat.$inferSelect;
  const categoryLists = new StoreValues<{ row: CategoryRow; text: string[] }[]>(
    5 * 60_000,
    opts.maxStores ?? 1_000,
    undefined,
    { memory: opts.memory, name: 'category lists' },
  );
  /** Up to four categories whose name or description holds the (lower-cased) text, for autocomplete. */
  async function categoriesLike(ctx: TenantContext, lower: string): Promise<CategoryRow[]> {
    const list = await categoryLists.get(ctx.tenantId, async () => {
      const rows = await db
        .select()
        .from(cat)
        .where(eq(cat.tenantId, ctx.tenantId))
        .orderBy(asc(cat.productCategoryId));
      return rows.map((row) => ({
        row,
        text: [(row.categoryName ?? '').toLowerCase(), (row.description ?? '').toLowerCase()],
      }));
    });
    const out: CategoryRow[] = [];
    for (const { row, text } of list) {
      if (text.some((t) => t.includes(lower))) out.push(row);
      if (out.length === 4) break;
    }
    return out;
  }

  return { categoryRow, breadcrumb, categoriesLike, categoryLists };
}
