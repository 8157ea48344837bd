import {
  type OrderListFilter,
  type OrderListPageData,
  type OrderListPages,
  type OrderViewField,
  orderListFilterSchema,
  orderListQuerySchema,
  orderViewCreateSchema,
} from '@app/contracts';
import { requireAccess } from '../../../lib/access';
import { AppError } from '../../../lib/errors';
import { fieldFailure, lenient, type PageModule, submitForm } from '../../../lib/page-request';
import { formRefusal } from '../../../lib/result';
import { canonicalFilter, type OrderListService } from './order-list.service';

const VIEW_FIELDS: readonly OrderViewField[] = ['name'];

/** Two filters are the same view when their set keys and values are (status in any order). */
const sameFilter = (a: OrderListFilter, b: OrderListFilter) =>
  JSON.stringify(canonicalFilter(a)) === JSON.stringify(canonicalFilter(b));

export function orderListPages(deps: { orderList: OrderListService }): PageModule<OrderListPages> {
  const { orderList } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async orderListPage(params): Promise<OrderListPageData> {
        requireAccess(ctx, 'orders');
        // URL params the list cannot use are dropped (an old link still opens the list).
        let query = lenient(orderListQuerySchema, params as Record<string, string>);
        let filterError: OrderListPageData['filterError'] = null;
        try {
          await orderList.resolve(ctx, query);
        } catch (err) {
          // A total that is not an amount: the list without it, the form says why next to the field.
          if (!(err instanceof AppError) || !err.field) throw err;
          const field = err.field as 'totalMin' | 'totalMax' | 'to';
          filterError = { field, message: err.fieldMessage ?? err.message };
          query = { ...query, [field]: undefined };
        }
        const [list, views, currency] = await Promise.all([
          orderList.list(ctx, query).catch((err) => {
            // A cursor from another sort (an old link): the first page instead of an error page.
            if (err instanceof AppError && err.field === 'cursor')
              return orderList.list(ctx, { ...query, cursor: undefined });
            throw err;
          }),
          orderList.views(ctx),
          orderList.currency(ctx),
        ]);
        const storeHasOrders = list.rows.length > 0 || (await orderList.hasOrders(ctx));
        const active = views.find((v) => sameFilter(v.filters, query));
        return {
          query,
          page: list,
          views,
          activeViewId: active?.viewId ?? null,
          currency,
          storeHasOrders,
          filterError,
        };
      },

      orderViewCreate(fields) {
        requireAccess(ctx, 'orders');
        return submitForm(VIEW_FIELDS, async () => {
          page.assertFormFromStore();
          const { name, ...rest } = fields;
          const filters = lenient(orderListFilterSchema, rest as Record<string, string>);
          const parsed = orderViewCreateSchema.safeParse({ name: typeof name === 'string' ? name : '', filters });
          if (!parsed.success) return fieldFailure(parsed.error, VIEW_FIELDS);
          const saved = await orderList.createView(ctx, parsed.data);
          if (!saved.ok) return formRefusal(saved, VIEW_FIELDS);
          return { ok: true as const, message: `View "${saved.value.name}" saved.`, viewId: saved.value.viewId };
        });
      },

      orderViewDelete(viewId) {
        requireAccess(ctx, 'orders');
        return submitForm(VIEW_FIELDS, async () => {
          page.assertFormFromStore();
          await orderList.deleteView(ctx, viewId.slice(0, 64));
          return { ok: true as const, message: 'View deleted.', viewId: null };
        });
      },
    };
  };
}
