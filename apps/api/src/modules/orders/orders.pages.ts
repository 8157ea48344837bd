import type { OrdersPages } from '@app/contracts';
import { requireSignedIn } from '../../lib/access';
import { signedInUser } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { nullIfNotFound, type PageModule } from '../../lib/page-request';
import type { OrdersService } from './orders.service';

export function ordersPages(deps: { orders: OrdersService }): PageModule<OrdersPages> {
  return ({ ctx }) => ({
    order: (orderId, key) =>
      deps.orders
        .read(ctx, orderId.slice(0, 64), { userId: signedInUser(ctx)?.userId ?? null, key: key?.slice(0, 200) })
        .catch((err: unknown) => {
          if (err instanceof AppError && err.statusCode === 429) {
            return { retryAfterSeconds: Number(err.headers['Retry-After'] ?? 60) };
          }
          return nullIfNotFound(err);
        }),
    async orderHistory(page) {
      const me = requireSignedIn(ctx);
      return deps.orders.history(ctx, me.userId, Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1);
    },
  });
}
