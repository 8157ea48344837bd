import type { SignupTemplate } from '@app/contracts';
import { schema, type Tx } from '@app/db';

/** A new store's palette until the owner sets theirs: dark enough for white text everywhere (axe). */
const DEFAULT_COLORS = {
  primary: '30, 64, 175',
  secondary: '71, 85, 105',
  banner: '15, 23, 42',
  action: '29, 78, 216',
};

/**
 * A new store's settings and default SEO, in the opening transaction: the template the merchant
 * picked, the default palette, the store's name wherever a title shows, and the owner's email as the
 * store's contact until they set another. Settings are this domain's tables (decision 110).
 */
export async function openStoreSettings(
  tx: Tx,
  store: { tenantId: string; productStoreId: string; name: string; template: SignupTemplate; contactEmail: string },
  at: Date,
): Promise<void> {
  await tx.insert(schema.storeSettings).values({
    tenantId: store.tenantId,
    productStoreId: store.productStoreId,
    template: store.template,
    theme: 'THEME_FASHION',
    colorPrimary: DEFAULT_COLORS.primary,
    colorSecondary: DEFAULT_COLORS.secondary,
    colorBanner: DEFAULT_COLORS.banner,
    colorAction: DEFAULT_COLORS.action,
    headerTitle: store.name,
    pageTitle: store.name,
    companyName: store.name,
    emailAddress: store.contactEmail,
    updatedAt: at,
  });
  await tx.insert(schema.seoMeta).values({
    tenantId: store.tenantId,
    route: 'default',
    title: store.name,
    keywords: store.name,
    description: store.name,
  });
}
