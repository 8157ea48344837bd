import type { FirstRunChecklist } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, count, eq, inArray, isNotNull, like, not, or } from 'drizzle-orm';
import type { RequestContext } from '../../lib/context';
import type { StoreVisibilityService } from '../tenant/index';

/**
 * The first-run checklist of a store that sign-up opened (decision 103). Every tick is read from the
 * store's real state: a product of the owner's own (not the demo catalog's), the look changed since
 * the store opened, Stripe or PayPal connected (or the store's own PayPal app), the store open to visitors.
 * Stores sign-up did not open (the seeded ones) have no store_setup row and show no checklist.
 */
export function createFirstRun(db: Db, deps: { visibility: StoreVisibilityService }) {
  return {
    async checklist(ctx: RequestContext): Promise<FirstRunChecklist | null> {
      // The owner's list: staff came to do their part, not to set the store up.
      if (ctx.actor.kind !== 'staff' || ctx.actor.role !== 'admin') return null;
      const [setup] = await db
        .select()
        .from(schema.storeSetup)
        .where(eq(schema.storeSetup.tenantId, ctx.tenantId))
        .limit(1);
      if (!setup || setup.checklistDismissedAt) return null;
      const [[products], [settings], [paypal], [ownApp], [stripe], [tenant], [store]] = await Promise.all([
        db
          .select({ n: count() })
          .from(schema.products)
          .where(and(eq(schema.products.tenantId, ctx.tenantId), not(like(schema.products.productId, 'DEMO-%')))),
        db
          .select({ updatedAt: schema.storeSettings.updatedAt, logoUrl: schema.storeSettings.logoUrl })
          .from(schema.storeSettings)
          .where(
            and(
              eq(schema.storeSettings.tenantId, ctx.tenantId),
              eq(schema.storeSettings.productStoreId, ctx.productStoreId),
            ),
          ),
        db
          .select({ n: count() })
          .from(schema.paypalSellers)
          .where(
            and(eq(schema.paypalSellers.tenantId, ctx.tenantId), inArray(schema.paypalSellers.status, ['connected'])),
          ),
        db
          .select({ n: count() })
          .from(schema.paymentConfigs)
          .where(
            and(eq(schema.paymentConfigs.tenantId, ctx.tenantId), or(isNotNull(schema.paymentConfigs.ownClientId))),
          ),
        // The store's own Stripe keys need nothing of the platform: the way to be paid when the
        // platform has no PayPal partner account set up.
        db.select({ n: count() }).from(schema.stripeAccounts).where(eq(schema.stripeAccounts.tenantId, ctx.tenantId)),
        db
          .select({ accessMode: schema.tenants.accessMode })
          .from(schema.tenants)
          .where(eq(schema.tenants.tenantId, ctx.tenantId)),
        db
          .select({ host: schema.productStores.canonicalHost })
          .from(schema.productStores)
          .where(
            and(
              eq(schema.productStores.tenantId, ctx.tenantId),
              eq(schema.productStores.productStoreId, ctx.productStoreId),
            ),
          ),
      ]);
      // A second after opening: sign-up's own write of the settings is not the owner's change.
      const lookChanged =
        Boolean(settings?.logoUrl) ||
        (settings ? settings.updatedAt.getTime() > setup.openedAt.getTime() + 1000 : false);
      const items: FirstRunChecklist['items'] = [
        {
          id: 'product',
          title: 'Add a product',
          description: 'Your first product of your own, with a price and a picture.',
          done: (products?.n ?? 0) > 0,
          href: '/manage-store/products/new',
          linkLabel: 'Add a product',
        },
        {
          id: 'look',
          title: 'Set the look',
          description: 'Your colours and logo, so the store looks like yours.',
          done: lookChanged,
          href: '/manage-store/settings/theme',
          linkLabel: 'Open the theme',
        },
        {
          id: 'payments',
          title: 'Set up payments and shipping',
          description:
            'Connect Stripe or PayPal to be paid. Standard and Express shipping to the US and Canada are set up.',
          done: (paypal?.n ?? 0) + (ownApp?.n ?? 0) + (stripe?.n ?? 0) > 0,
          href: '/manage-store/payments',
          linkLabel: 'Open payments',
        },
        {
          id: 'live',
          title: 'Go live',
          description: 'Until then only you and your staff see the store; visitors are asked to sign in.',
          done: tenant?.accessMode === 'public',
          href: '/manage-store/settings/access',
          linkLabel: 'Access settings',
        },
      ];
      return {
        items,
        done: items.filter((i) => i.done).length,
        storeUrl: store ? `${ctx.origin}/` : '/',
      };
    },

    /** Puts the checklist away for good (the owner's choice; the ticks would read the same). */
    async dismiss(ctx: RequestContext) {
      await db
        .update(schema.storeSetup)
        .set({ checklistDismissedAt: new Date() })
        .where(eq(schema.storeSetup.tenantId, ctx.tenantId));
    },

    /** Opens the store to visitors: the access mode becomes public (owner only, audited there). */
    async goLive(ctx: RequestContext) {
      await deps.visibility.setMode(ctx, 'public');
    },
  };
}

export type FirstRunService = ReturnType<typeof createFirstRun>;
