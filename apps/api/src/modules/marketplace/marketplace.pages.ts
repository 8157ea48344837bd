import {
  BONANZA_FIELDS,
  type BonanzaFormValues,
  bonanzaConnectSchema,
  type MarketplaceActionResult,
  type MarketplacePages,
} from '@app/contracts';
import { requireAccess } from '../../lib/access';
import type { PageModule } from '../../lib/page-request';
import { fieldFailure, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import { type MarketplaceService, TOKEN_NEEDED } from './marketplace.service';

/** The bonanza-connect page's functions; each checks access itself. */
export function marketplacePages(deps: { marketplace: MarketplaceService }): PageModule<MarketplacePages> {
  return (page) => ({
    async marketplacePage() {
      requireAccess(page.ctx, 'catalog');
      return deps.marketplace.state(page.ctx);
    },
    async saveBonanzaConnection(values: BonanzaFormValues): Promise<MarketplaceActionResult> {
      return submitForm(BONANZA_FIELDS, async () => {
        page.assertFormFromStore();
        requireAccess(page.ctx, 'catalog');
        const parsed = bonanzaConnectSchema.safeParse(values);
        if (!parsed.success) {
          const failure = fieldFailure(parsed.error, BONANZA_FIELDS);
          // Every field's problem at once: a first connection's missing token too.
          if (!values.token?.trim() && !failure.fieldErrors.token && !(await deps.marketplace.keepsToken(page.ctx))) {
            failure.fieldErrors.token = TOKEN_NEEDED;
          }
          return failure;
        }
        const { created } = await deps.marketplace.connect(page.ctx, page.ctx.tenantId, parsed.data);
        return {
          ok: true as const,
          message: created ? 'Connected to Bonanza. Your product feed is ready.' : 'Connection saved.',
        };
      });
    },
    async disconnectBonanza(): Promise<MarketplaceActionResult> {
      return submitForm([], async () => {
        page.assertFormFromStore();
        requireAccess(page.ctx, 'catalog');
        const done = await deps.marketplace.disconnect(page.ctx, page.ctx.tenantId);
        if (!done.ok) return formRefusal(done);
        return { ok: true as const, message: 'Disconnected from Bonanza. Your feed URL no longer answers.' };
      });
    },
    async regenerateFeedUrl(): Promise<MarketplaceActionResult> {
      return submitForm([], async () => {
        page.assertFormFromStore();
        requireAccess(page.ctx, 'catalog');
        await deps.marketplace.regenerateFeedUrl(page.ctx, page.ctx.tenantId);
        return { ok: true as const, message: 'New feed URL made. Give it to Bonanza: the old one no longer works.' };
      });
    },
  });
}
