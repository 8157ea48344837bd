import {
  adminProductQuerySchema,
  type ProductBulkAction,
  type ProductBulkField,
  type ProductBulkFormResult,
  type ProductBulkResult,
  type ProductListPages,
  parseDecimalMoney,
  productBulkRequestSchema,
  productListFilterSchema,
} from '@app/contracts';
import { requireAccess } from '../../../lib/access';
import { AppError } from '../../../lib/errors';
import { fieldFailure, lenient, type PageModule, submitForm } from '../../../lib/page-request';
import type { ProductListService } from './product-list.service';

const FIELDS: readonly ProductBulkField[] = ['action', 'categoryId', 'value', 'reason', 'productIds'];

const refuse = (field: ProductBulkField, message: string) => {
  throw AppError.field(422, 'VALIDATION_FAILED', field, message);
};

/** "-12.50" in the store's currency -> -1250 (exact; the sign kept apart from parseDecimalMoney). */
function signedMoney(text: string, currency: string): number {
  const t = text.trim();
  const negative = t.startsWith('-');
  const parsed = parseDecimalMoney(negative ? t.slice(1) : t.replace(/^\+/, ''), currency);
  if (!parsed.ok) return refuse('value', parsed.message);
  return negative ? -parsed.minor : parsed.minor;
}

/** "-12.5" (percent) -> -1250 hundredths of a percent. */
function percentHundredths(text: string): number {
  const m = /^([+-]?)(\d{1,4})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return refuse('value', 'write a percent like 10 or -12.5 (at most two decimals)');
  const v = Number((m[2] as string) + (m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -v : v;
}

/** The form's action select and its fields as the API's action. */
function actionOf(f: Record<string, string>, currency: string): ProductBulkAction {
  const kind = f.action ?? '';
  if (kind.startsWith('status:')) return { kind: 'status', to: kind.slice(7) as 'ACTIVE' };
  if (kind === 'category.add' || kind === 'category.remove') {
    if (!f.categoryId) return refuse('categoryId', 'choose a category');
    return { kind, categoryId: f.categoryId };
  }
  if (kind === 'price') {
    const mode = (f.priceMode ?? 'set') as 'set' | 'amount' | 'percent';
    const text = f.value ?? '';
    if (!text.trim()) return refuse('value', 'enter a price, an amount or a percent');
    const value = mode === 'percent' ? percentHundredths(text) : signedMoney(text, currency);
    return { kind: 'price', field: f.priceField === 'sale' ? 'sale' : 'list', mode, value };
  }
  if (kind === 'stock') {
    const text = (f.value ?? '').trim();
    if (!/^[+-]?\d{1,8}$/.test(text)) return refuse('value', 'enter a whole number of units');
    if (!f.reason) return refuse('reason', 'choose a reason');
    return {
      kind: 'stock',
      mode: f.stockMode === 'set' ? 'set' : 'delta',
      value: Number(text),
      reason: f.reason as 'RECEIVED',
    };
  }
  if (kind === 'delete') return { kind: 'delete' };
  return refuse('action', 'choose an action');
}

function summary(r: ProductBulkResult): string {
  const parts: string[] = [];
  if (r.deleted) parts.push(`${r.deleted} deleted`);
  const updated = r.changed - r.deleted;
  if (updated) parts.push(`${updated} updated`);
  if (r.archivedInstead) parts.push(`${r.archivedInstead} archived instead of deleted (they have orders)`);
  if (r.unchanged - r.archivedInstead > 0) parts.push(`${r.unchanged - r.archivedInstead} unchanged`);
  const head = parts.length ? `${parts.join(', ')}.` : 'Nothing to change.';
  // Why some were left (a few examples), apart from the archived ones already said.
  const why = r.notes.filter((n) => !n.includes('archived instead')).slice(0, 3);
  return why.length ? `${head} ${why.join('; ')}.` : head;
}

export function productListPages(deps: { productList: ProductListService }): PageModule<ProductListPages> {
  const { productList } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async productListPage(params) {
        requireAccess(ctx, 'catalog');
        const query = lenient(adminProductQuerySchema, params);
        const [rows, choices] = await Promise.all([
          productList.list(ctx, query).catch((err) => {
            // A cursor from another sort (an old link): the first page instead of an error page.
            if (err instanceof AppError && err.field === 'cursor')
              return productList.list(ctx, { ...query, cursor: undefined });
            throw err;
          }),
          productList.choices(ctx),
        ]);
        return { query, page: rows, ...choices };
      },

      productBulkAction(fields, productIds): Promise<ProductBulkFormResult> {
        requireAccess(ctx, 'catalog');
        return submitForm(FIELDS, async () => {
          page.assertFormFromStore();
          const currency = await productList.currency(ctx);
          const action = actionOf(fields, currency);
          const all = fields.scope === 'all';
          if (!all && !productIds.length) refuse('productIds', 'choose at least one product');
          const body = all
            ? { action, filter: lenient(productListFilterSchema, filterFields(fields)) }
            : { action, productIds };
          const parsed = productBulkRequestSchema.safeParse(body);
          if (!parsed.success) return fieldFailure(parsed.error, FIELDS);
          const answer = await productList.bulk(ctx, parsed.data);
          if (answer.mode === 'job') {
            return {
              ok: true as const,
              message: `Changing ${answer.total} products in the background…`,
              jobId: answer.jobId,
              result: null,
            };
          }
          return { ok: true as const, message: summary(answer.result), jobId: null, result: answer.result };
        });
      },

      async productBulkJob(jobId) {
        requireAccess(ctx, 'catalog');
        return productList.job(ctx, jobId);
      },
    };
  };
}

/** The list's filters as the form carries them (hidden f_q, f_status... fields). */
function filterFields(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (k.startsWith('f_')) out[k.slice(2)] = v;
  return out;
}

export { summary as bulkSummary };
