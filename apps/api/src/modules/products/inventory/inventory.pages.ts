import {
  type InventoryPages,
  inventoryListQuerySchema,
  lowStockSettingSchema,
  STOCK_ADJUST_FIELDS,
  STOCK_REASON_TEXT,
  type StockAdjustField,
  type StockAdjustFormResult,
  stockAdjustSchema,
} from '@app/contracts';
import { requireAccess } from '../../../lib/access';
import { AppError } from '../../../lib/errors';
import type { PageModule } from '../../../lib/page-request';
import { nullIfNotFound, submitForm } from '../../../lib/page-request';
import { formRefusal } from '../../../lib/result';
import type { InventoryService } from './inventory.service';

const FIELDS_MESSAGE = 'Please check the fields marked below.';

/** A whole number typed in a box ("12", "-3", "+5"); anything else is NaN, which the schema names. */
function wholeNumber(text: string | undefined): number {
  const t = (text ?? '').trim();
  return /^[+-]?\d{1,9}$/.test(t) ? Number(t) : Number.NaN;
}

/** The inventory pages' functions; each checks the catalog permission itself. */
export function inventoryPages(deps: { inventory: InventoryService }): PageModule<InventoryPages> {
  const { inventory } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async inventoryPage(raw) {
        requireAccess(ctx, 'catalog');
        // A hand-edited address shows the list unfiltered rather than an error page.
        const parsed = inventoryListQuerySchema.safeParse({
          q: raw.q || undefined,
          stock: raw.stock || undefined,
          sort: raw.sort || undefined,
          cursor: raw.cursor || undefined,
        });
        const query = parsed.success ? parsed.data : {};
        try {
          return { ...(await inventory.list(ctx, query)), ...STOCK_REASON_TEXT, query };
        } catch (err) {
          if (err instanceof AppError && err.field === 'cursor') {
            const { cursor: _dropped, ...rest } = query;
            return { ...(await inventory.list(ctx, rest)), ...STOCK_REASON_TEXT, query: rest };
          }
          throw err;
        }
      },

      async stockHistoryPage(productId, cursor, variantId) {
        requireAccess(ctx, 'catalog');
        const only = variantId ? { variantId } : {};
        try {
          return {
            ...(await inventory.history(ctx, productId, { cursor: cursor || null, ...only })),
            ...STOCK_REASON_TEXT,
          };
        } catch (err) {
          if (err instanceof AppError && err.field === 'cursor') {
            return { ...(await inventory.history(ctx, productId, only)), ...STOCK_REASON_TEXT };
          }
          return nullIfNotFound(err);
        }
      },

      async adjustStock(productId, fields): Promise<StockAdjustFormResult> {
        requireAccess(ctx, 'catalog');
        return submitForm(STOCK_ADJUST_FIELDS, async (): Promise<StockAdjustFormResult> => {
          page.assertFormFromStore();
          const mode = fields.mode === 'set' ? 'set' : 'delta';
          const n = wholeNumber(fields.quantity);
          const parsed = stockAdjustSchema.safeParse({
            reason: fields.reason,
            ...(mode === 'set' ? { set: n } : { delta: n }),
            note: fields.note ?? '',
            ...(fields.variantId ? { variantId: fields.variantId } : {}),
          });
          if (!parsed.success) {
            // The form has one number box for both ways: its messages go next to it.
            const fieldErrors: Partial<Record<StockAdjustField, string>> = {};
            for (const issue of parsed.error.issues) {
              const key = issue.path[0];
              // The variant is the row's or the page's, not typed: a bad one is the whole form's answer.
              if (key === 'variantId')
                return { ok: false, status: 404, message: 'No such variant of this product.', fieldErrors: {} };
              const field: StockAdjustField = key === 'delta' || key === 'set' ? 'quantity' : (key as StockAdjustField);
              const message =
                key === 'delta' || key === 'set'
                  ? mode === 'set'
                    ? 'Enter the count: a whole number, 0 or more.'
                    : 'Enter a whole number to add (or a negative one to take), not 0.'
                  : issue.message.charAt(0).toUpperCase() + issue.message.slice(1);
              fieldErrors[field] ??= message;
            }
            return { ok: false, status: 400, message: FIELDS_MESSAGE, fieldErrors };
          }
          const adjusted = await inventory.adjust(ctx, productId, parsed.data);
          // The form has one number box for both ways: a refusal of delta or set goes next to it.
          // No variant named for a product with several is the whole form's answer, not a field's.
          if (!adjusted.ok && adjusted.code === 'VARIANT_REQUIRED') return formRefusal(adjusted);
          if (!adjusted.ok) return formRefusal({ ...adjusted, field: 'quantity' }, STOCK_ADJUST_FIELDS);
          const r = adjusted.value;
          const what = r.variantTitle ? ` of ${r.variantTitle}` : '';
          return {
            ok: true,
            productId,
            variantId: r.variantId,
            after: r.after,
            message: r.delta === 0 ? `Stock${what} unchanged: ${r.after}.` : `Stock${what} is now ${r.after}.`,
          };
        });
      },

      async saveLowStockThreshold(fields) {
        requireAccess(ctx, 'catalog');
        return submitForm(['lowStockThreshold'] as const, async () => {
          page.assertFormFromStore();
          const parsed = lowStockSettingSchema.safeParse({ lowStockThreshold: wholeNumber(fields.lowStockThreshold) });
          if (!parsed.success) {
            return {
              ok: false as const,
              status: 400 as const,
              message: FIELDS_MESSAGE,
              fieldErrors: { lowStockThreshold: 'Enter a whole number from 0 to 100000.' },
            };
          }
          const r = await inventory.setThreshold(ctx, parsed.data.lowStockThreshold);
          return {
            ok: true as const,
            message:
              r.lowStockThreshold === 0
                ? 'Low-stock alerts are off.'
                : `Products with ${r.lowStockThreshold} or fewer left now count as low in stock.`,
          };
        });
      },
    };
  };
}
