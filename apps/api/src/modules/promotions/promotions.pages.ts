import {
  PROMO_CODE_FIELDS,
  PROMO_STATUS_LABELS,
  PROMO_STATUS_OPTIONS,
  type PromoCodeFormResult,
  type PromoCodesPages,
  promoCodeFormValues,
  promoCodeFromForm,
  promoCodeListQuerySchema,
} from '@app/contracts';
import type { Db } from '@app/db';
import { requireAccess } from '../../lib/access';
import { AppError } from '../../lib/errors';
import type { PageModule } from '../../lib/page-request';
import { nullIfNotFound, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import { storeIdentity } from '../store/index';
import type { PromotionsService } from './promotions.service';

const FIELDS_MESSAGE = 'Please check the fields marked below.';

/** The promo codes pages' functions; each checks the orders permission itself. */
export function promotionsPages(deps: { db: Db; promotions: PromotionsService }): PageModule<PromoCodesPages> {
  const { promotions } = deps;
  return (page) => {
    const { ctx } = page;
    const currencyOf = async () => (await storeIdentity(deps.db, ctx))?.currency ?? 'USD';

    /** The form's checks (contracts), then the service's; a taken code is shown next to the code. */
    async function save(creating: boolean, code: string | null, fields: Record<string, string | undefined>) {
      requireAccess(ctx, 'orders');
      return submitForm(PROMO_CODE_FIELDS, async (): Promise<PromoCodeFormResult> => {
        page.assertFormFromStore();
        const parsed = promoCodeFromForm(fields, { currency: await currencyOf(), creating });
        if (!parsed.ok) return { ok: false, status: 400, message: FIELDS_MESSAGE, fieldErrors: parsed.fieldErrors };
        if (creating) {
          const created = await promotions.create(ctx, { ...parsed.payload, code: parsed.payload.code ?? '' });
          if (!created.ok) return formRefusal(created, PROMO_CODE_FIELDS);
          return { ok: true, code: created.value.code, message: `${created.value.code} created.` };
        }
        const saved = await promotions.update(ctx, code ?? '', parsed.payload);
        return { ok: true, code: saved.code, message: `${saved.code} saved.` };
      });
    }

    return {
      async promoCodesPage(raw) {
        requireAccess(ctx, 'orders');
        // A hand-edited address shows the list unfiltered rather than an error page.
        const parsed = promoCodeListQuerySchema.safeParse({
          status: raw.status || undefined,
          cursor: raw.cursor || undefined,
        });
        const query = parsed.success ? parsed.data : {};
        const [list, currency] = await Promise.all([
          promotions.list(ctx, query).catch((err) => {
            if (err instanceof AppError && err.field === 'cursor')
              return promotions.list(ctx, { status: query.status });
            throw err;
          }),
          currencyOf(),
        ]);
        return { ...list, query, statuses: PROMO_STATUS_OPTIONS, currency };
      },

      async promoCodePage(code) {
        requireAccess(ctx, 'orders');
        try {
          const detail = await promotions.get(ctx, code);
          return {
            ...detail,
            values: promoCodeFormValues(detail.code),
            statusLabel: PROMO_STATUS_LABELS[detail.code.status],
          };
        } catch (err) {
          return nullIfNotFound(err);
        }
      },

      async newPromoCodePage() {
        requireAccess(ctx, 'orders');
        return { currency: await currencyOf() };
      },

      createPromoCode: (fields) => save(true, null, fields),
      updatePromoCode: (code, fields) => save(false, code, fields),

      async promoCodeAction(code, intent) {
        requireAccess(ctx, 'orders');
        return submitForm([] as const, async () => {
          page.assertFormFromStore();
          if (intent === 'delete') {
            const r = await promotions.remove(ctx, code);
            if (!r.ok) return formRefusal(r);
            return { ok: true as const, message: `${r.value.code} deleted.` };
          }
          const r =
            intent === 'activate' ? await promotions.activate(ctx, code) : await promotions.deactivate(ctx, code);
          return {
            ok: true as const,
            message: r.active ? `${r.code} activated.` : `${r.code} deactivated.`,
          };
        });
      },
    };
  };
}
