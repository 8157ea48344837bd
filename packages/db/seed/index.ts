/**
 * The three demo stores of README.md "Demo stores". `seedDatabase` fills an empty database
 * in one transaction; on a database that already has stores it does nothing unless forced, so a
 * restart never overwrites what a store owner changed.
 */
import { count, inArray, sql } from 'drizzle-orm';
import type { Db } from '../src/client';
import { insertDefaultVariants } from '../src/default-variants';
import { hashPassword } from '../src/password';
import * as s from '../src/schema/index';
import { type BuiltStore, builtStores, mediaPath, SEED_STORES } from './build';
import { commerceSeed } from './commerce';
import { SEED_ACCOUNTS_CREATED, seedOrders } from './orders';

export { renderSeedImage } from './images';
export { SEED_STORES };

/** Demo logins, listed in the README. */
export const SEED_USERS = SEED_STORES.flatMap((store) => [
  {
    tenantId: store.tenantId,
    userId: `${store.prefix}-U-OWNER`,
    email: `owner@${store.tenantId}.test`,
    password: 'owner-demo-1',
    firstName: 'Olivia',
    lastName: 'Owner',
    role: 'admin' as const,
  },
  {
    tenantId: store.tenantId,
    userId: `${store.prefix}-U-SHOPPER`,
    email: `shopper@${store.tenantId}.test`,
    password: 'shopper-demo-1',
    firstName: 'Sam',
    lastName: 'Shopper',
    role: 'shopper' as const,
  },
]);

/**
 * The demo platform operator (README "Platform operator"): signs in on the platform host. Outside
 * production the TOTP step is skipped; the fixed secret lets an authenticator app show its codes.
 * Never seeded in production, where its published password and secret would open every store.
 */
export const SEED_OPERATOR = {
  operatorId: 'OP-DEMO',
  email: 'operator@platform.localhost',
  name: 'Demo Operator',
  password: 'operator-demo-1',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
} as const;

// Hashing is deliberately slow; tests seed many databases in one process, so hash once.
let hashed: Promise<Map<string, string>> | undefined;
function passwordHashes(): Promise<Map<string, string>> {
  hashed ??= (async () => {
    const out = new Map<string, string>();
    for (const pw of new Set([...SEED_USERS.map((u) => u.password), SEED_OPERATOR.password])) {
      out.set(pw, await hashPassword(pw));
    }
    return out;
  })();
  return hashed;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Deletes the seeded tenants' rows, children first, so `--force` can seed again. */
async function removeSeededTenants(tx: Tx, tenantIds: string[]) {
  const byTenant = [
    s.returnStatusHistory,
    s.returnLines,
    s.returnRequests,
    s.orderStatusHistory,
    s.orderLines,
    s.promoRedemptions,
    s.orders,
    s.promoCodes,
    s.shippingMethods,
    s.shippingZones,
    s.taxRates,
    s.storeTaxSettings,
    s.wishlistItems,
    s.cartLines,
    s.carts,
    s.productReviews,
    s.productContents,
    s.productAssociations,
    s.productConfigChoices,
    s.productConfigOptions,
    s.productFeatures,
    s.contactMessages,
    s.productCategories,
    s.products,
    // After the products: their pictures (product_images, gone with them) point at it.
    s.media,
    s.catalogCategories,
    s.categoryRollups,
    s.categories,
    s.catalogs,
    s.cmsPages,
    s.faqs,
    s.banners,
    s.seoMeta,
    s.storeSettings,
    s.storeHosts,
    s.users,
    s.productStores,
  ] as const;
  for (const table of byTenant) await tx.delete(table).where(inArray(table.tenantId, tenantIds));
  await tx.delete(s.tenants).where(inArray(s.tenants.tenantId, tenantIds));
}

/**
 * The products sold in variants (decision 112): their pictures, options, values, variants and which
 * variant shows which picture, in a few multi-row inserts. The products' rows already carry the
 * rollup (build.ts computes it by refreshProductRollup's rules), so nothing is read back.
 */
async function insertVariants(tx: Tx, b: BuiltStore) {
  const t = b.store.tenantId;
  const v = b.variants;
  if (v.variants.length === 0) return;
  if (v.media.length) {
    await tx.insert(s.media).values(
      v.media.map((m) => ({
        tenantId: t,
        ...m,
        contentType: 'image/webp',
        // Drawn on first request (images.ts) at the detail size; the size in bytes is not known before.
        width: 1200,
        height: 1200,
        bytes: 0,
        sourceFormat: 'webp',
        createdBy: 'seed',
        createdAt: SEED_ACCOUNTS_CREATED,
      })),
    );
    await tx.insert(s.productImages).values(v.images.map((x) => ({ tenantId: t, ...x })));
  }
  await tx.insert(s.productOptions).values(v.options.map((x) => ({ tenantId: t, ...x })));
  await tx.insert(s.productOptionValues).values(v.values.map((x) => ({ tenantId: t, ...x })));
  const introduced = new Map(b.products.map((p) => [p.productId, p.introductionDate]));
  await tx.insert(s.productVariants).values(
    v.variants.map((x) => {
      const at = introduced.get(x.productId) as Date;
      return { tenantId: t, ...x, createdAt: at, updatedAt: at };
    }),
  );
  if (v.variantImages.length) {
    await tx.insert(s.productVariantImages).values(v.variantImages.map((x) => ({ tenantId: t, ...x })));
  }
}

async function insertStore(tx: Tx, b: BuiltStore, hashes: Map<string, string>) {
  const { store } = b;
  const t = store.tenantId;
  const st = store.settings;
  await tx.insert(s.tenants).values({ tenantId: t, name: store.tenantName, accessMode: 'public', erpUrl: null });
  // Every store has a lifecycle state (decision 099); the demo stores are open.
  await tx.insert(s.storeLifecycle).values({ tenantId: t, state: 'active', seq: 1 });
  await tx.insert(s.storeLifecycleHistory).values({
    tenantId: t,
    seq: 1,
    fromState: null,
    toState: 'active',
    reason: 'Demo store created by the seed.',
    actorKind: 'system',
    actorId: 'seed',
  });
  await tx.insert(s.productStores).values({
    tenantId: t,
    productStoreId: store.productStoreId,
    storeName: store.storeName,
    currencyUomId: 'USD',
    canonicalHost: store.canonicalHost,
  });
  await tx
    .insert(s.storeHosts)
    .values(store.hosts.map((hostName) => ({ hostName, tenantId: t, productStoreId: store.productStoreId })));
  await tx.insert(s.storeSettings).values({
    tenantId: t,
    productStoreId: store.productStoreId,
    template: st.template,
    theme: 'THEME_FASHION',
    colorPrimary: st.colors.primary,
    colorSecondary: st.colors.secondary,
    colorBanner: st.colors.banner,
    colorAction: st.colors.action,
    logoUrl: mediaPath(t, 'logo.svg'),
    headerTitle: st.headerTitle,
    headerDescription: st.headerDescription,
    pageTitle: st.pageTitle,
    promotionTitle: st.promotionTitle,
    companyName: st.companyName,
    address1: st.address1,
    address2: st.address2,
    city: st.city,
    stateProvinceGeoId: st.stateProvinceGeoId,
    countryGeoId: st.countryGeoId,
    postalCode: st.postalCode,
    emailAddress: st.emailAddress,
    countryCode: st.countryCode,
    areaCode: st.areaCode,
    contactNumber: st.contactNumber,
    newsletterEmbed: st.newsletterEmbed,
    contactPage: null,
    chatWidgetId: null,
  });

  const categoryImage = (id: string, image: 'http' | 's3' | 'none') => {
    const path = mediaPath(t, `categories/${id.toLowerCase()}.webp`);
    return {
      linkTwoImageUrl: image === 'http' ? path : null,
      // The object-storage key of an S3-only image is served by our media route under the same path.
      linkTwoImageUrlS3: image === 's3' ? path : null,
    };
  };
  await tx.insert(s.categories).values([
    ...store.categories.map((c) => ({
      tenantId: t,
      productCategoryId: c.id,
      categoryName: c.name,
      description: c.description,
      longDescription: c.longDescription,
      ...categoryImage(c.id, c.image),
    })),
    ...store.subcategories.map((c) => ({
      tenantId: t,
      productCategoryId: c.id,
      categoryName: c.name,
      description: c.name,
      longDescription: null,
      ...categoryImage(c.id, 'http'),
    })),
  ]);
  if (store.subcategories.length) {
    await tx.insert(s.categoryRollups).values(
      store.subcategories.map((c, i) => ({
        tenantId: t,
        parentProductCategoryId: c.parent,
        productCategoryId: c.id,
        sequenceNum: i,
      })),
    );
  }
  await tx.insert(s.catalogs).values(
    store.catalogs.map((c, i) => ({
      tenantId: t,
      prodCatalogId: c.id,
      productStoreId: store.productStoreId,
      catalogName: c.name,
      sequenceNum: i,
    })),
  );
  await tx.insert(s.catalogCategories).values(
    store.catalogs.flatMap((c) =>
      c.categories.map((productCategoryId, i) => ({
        tenantId: t,
        prodCatalogId: c.id,
        productCategoryId,
        sequenceNum: i,
      })),
    ),
  );
  // A seeded product was last changed when it came out; its stock is the opening balance of the books.
  await tx.insert(s.products).values(b.products.map((p) => ({ ...p, updatedAt: p.introductionDate })));
  await insertVariants(tx, b);
  // Every other product: its one default variant, as migration 0044 gave every product.
  await insertDefaultVariants(tx, t);
  const withVariants = new Set(b.variants.variants.map((v) => v.productId));
  const introduced = new Map(b.products.map((p) => [p.productId, p.introductionDate]));
  // The opening balance of the books: one movement per variant that has stock.
  const opening = [
    ...b.products
      .filter((p) => !withVariants.has(p.productId))
      .map((p) => ({ productId: p.productId, variantId: p.productId, stock: p.stockQuantity })),
    ...b.variants.variants.map((v) => ({ productId: v.productId, variantId: v.variantId, stock: v.stockQuantity })),
  ].filter((x) => x.stock > 0);
  if (opening.length) {
    await tx.insert(s.stockMovements).values(
      opening.map((x) => ({
        tenantId: t,
        movementId: `opening-${x.variantId}`,
        productId: x.productId,
        variantId: x.variantId,
        delta: x.stock,
        quantityBefore: 0,
        quantityAfter: x.stock,
        reason: 'RECEIVED' as const,
        note: 'Opening stock',
        actorId: 'seed',
        createdAt: introduced.get(x.productId) as Date,
      })),
    );
  }
  await tx.insert(s.productCategories).values(
    b.productCategories.map(([productCategoryId, productId, sequenceNum]) => ({
      tenantId: t,
      productCategoryId,
      productId,
      sequenceNum,
    })),
  );
  await tx.insert(s.productFeatures).values(b.features.map((f) => ({ tenantId: t, ...f })));
  if (b.options.length) {
    await tx.insert(s.productConfigOptions).values(b.options.map(({ choices: _, ...o }) => ({ tenantId: t, ...o })));
    await tx.insert(s.productConfigChoices).values(
      b.options.flatMap((o) =>
        o.choices.map((c, i) => ({
          tenantId: t,
          productId: o.productId,
          optionId: o.optionId,
          sequenceNum: i,
          ...c,
        })),
      ),
    );
  }
  await tx.insert(s.productAssociations).values(
    b.associations.map(([productId, relatedProductId, assocType, sequenceNum]) => ({
      tenantId: t,
      productId,
      relatedProductId,
      assocType,
      sequenceNum,
    })),
  );
  await tx.insert(s.productContents).values(
    b.specSheets.map((productId) => ({
      tenantId: t,
      productId,
      contentId: 'SPEC_SHEET',
      title: 'Specification sheet',
      fileName: `${productId.toLowerCase()}-spec-sheet.pdf`,
      mediaKey: `seed/${t}/content/${productId.toLowerCase()}-spec-sheet.pdf`,
      contentType: 'application/pdf',
    })),
  );
  if (b.reviews.length) {
    await tx
      .insert(s.productReviews)
      .values(b.reviews.map((r) => ({ tenantId: t, status: 'PUBLISHED' as const, ...r })));
  }
  await tx.insert(s.cmsPages).values(
    store.pages.map((p, i) => ({
      tenantId: t,
      pageId: p.id,
      productStoreId: store.productStoreId,
      pageTitle: p.title,
      pageUrl: p.url,
      content: p.content,
      pageLinks: [...p.links],
      sequenceNum: i,
    })),
  );
  await tx.insert(s.banners).values(
    store.banners.map((x, i) => ({
      tenantId: t,
      bannerId: x.id,
      productStoreId: store.productStoreId,
      title: x.title,
      subtitle: x.subtitle,
      imageUrl: mediaPath(t, `banners/${x.id.toLowerCase()}.webp`),
      linkUrl: x.link,
      ctaLabel: x.cta,
      sequenceNum: i,
    })),
  );
  await tx.insert(s.faqs).values(
    store.faqs.map(([question, answer], i) => ({
      tenantId: t,
      productStoreSurveyId: 'HELP_AND_FAQS',
      faqId: `FAQ${String(i + 1).padStart(2, '0')}`,
      question,
      answer,
      sequenceNum: i,
    })),
  );
  await tx.insert(s.seoMeta).values([
    // The store's brand name is the default keywords and description.
    { tenantId: t, route: 'default', title: store.storeName, keywords: store.storeName, description: store.storeName },
    ...store.seo.map((e) => ({ tenantId: t, ...e })),
  ]);
  const commerce = commerceSeed(store.prefix);
  await tx.insert(s.shippingZones).values(commerce.shippingZones.map((z) => ({ tenantId: t, ...z })));
  await tx.insert(s.shippingMethods).values(commerce.shipping.map((m) => ({ tenantId: t, ...m })));
  await tx.insert(s.taxRates).values(commerce.taxes.map((x) => ({ tenantId: t, ...x })));
  await tx.insert(s.promoCodes).values(commerce.promos.map((x) => ({ tenantId: t, ...x })));
  await tx.insert(s.users).values(
    SEED_USERS.filter((u) => u.tenantId === t).map((u) => ({
      tenantId: t,
      userId: u.userId,
      email: u.email,
      passwordHash: hashes.get(u.password) as string,
      firstName: u.firstName,
      lastName: u.lastName,
      role: u.role,
      createdAt: SEED_ACCOUNTS_CREATED,
      emailConfirmedAt: SEED_ACCOUNTS_CREATED,
    })),
  );
  const past = seedOrders(
    b,
    SEED_USERS.filter((u) => u.tenantId === t),
  );
  await tx.insert(s.orders).values(past.orders);
  await tx.insert(s.orderLines).values(past.lines);
  await tx.insert(s.orderStatusHistory).values(past.history);
  if (past.returns.length) {
    await tx.insert(s.returnRequests).values(past.returns);
    await tx.insert(s.returnLines).values(past.returnLines);
    await tx.insert(s.returnStatusHistory).values(past.returnHistory);
  }
  if (past.refunds.length) await tx.insert(s.orderRefunds).values(past.refunds);
}

export interface SeedOptions {
  /** Replace the demo stores even if the database already has stores. */
  force?: boolean;
  /** Add the demo platform operator if missing (default: yes; the server says no in production). */
  demoOperator?: boolean;
}

/** What a seed made, per store. */
export interface SeedReport {
  stores: { tenantId: string; products: number; orders: number }[];
}

/** One line per store, for the console. */
export function describeSeed(report: SeedReport): string {
  const rows = report.stores.map((st) => `  ${st.tenantId}: ${st.products} products, ${st.orders} orders`);
  return [`Seeded ${report.stores.length} demo stores:`, ...rows].join('\n');
}

export async function seedDatabase(db: Db, opts: SeedOptions = {}): Promise<{ seeded: boolean; report?: SeedReport }> {
  const hashes = await passwordHashes();
  return db.transaction(async (tx) => {
    // Several app processes may start together on one PostgreSQL: only one of them seeds.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727002)`);
    if (opts.demoOperator !== false) {
      await tx
        .insert(s.operators)
        .values({
          operatorId: SEED_OPERATOR.operatorId,
          email: SEED_OPERATOR.email,
          name: SEED_OPERATOR.name,
          passwordHash: hashes.get(SEED_OPERATOR.password) as string,
          totpSecret: SEED_OPERATOR.totpSecret,
        })
        .onConflictDoNothing();
    }
    const [row] = await tx.select({ n: count() }).from(s.tenants);
    if ((row?.n ?? 0) > 0 && !opts.force) return { seeded: false };
    const stores = builtStores();
    await removeSeededTenants(
      tx,
      stores.map((b) => b.store.tenantId),
    );
    for (const b of stores) await insertStore(tx, b, hashes);
    const report: SeedReport = { stores: [] };
    for (const b of stores) {
      const tenantId = b.store.tenantId;
      const [p] = await tx.select({ n: count() }).from(s.products).where(sql`${s.products.tenantId} = ${tenantId}`);
      const [o] = await tx.select({ n: count() }).from(s.orders).where(sql`${s.orders.tenantId} = ${tenantId}`);
      report.stores.push({ tenantId, products: p?.n ?? 0, orders: o?.n ?? 0 });
    }
    return { seeded: true, report };
  });
}
