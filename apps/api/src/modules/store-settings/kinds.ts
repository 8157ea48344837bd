import {
  DEFAULT_THEME,
  type DetailsDraft,
  detailsDraftSchema,
  type ThemeDraft,
  themeDraftSchema,
} from '@app/contracts';
import { schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { AppError } from '../../lib/errors';
import { defineDraftKind } from '../drafts/index';
import { COUNTRIES } from '../geo/index';
import { newsletterEmbedProblem } from './newsletter-embed';

const ss = schema.storeSettings;

const seo = schema.seoMeta;
const COUNTRY_IDS = new Set(COUNTRIES.map((c) => c.geoId));

/** The store's template, theme name and four colours (decision 033): one draft per store. */
export const themeKind = defineDraftKind<ThemeDraft>({
  kind: 'theme',
  entity: 'store.theme',
  payload: themeDraftSchema,
  async readLive(tx, ctx, key) {
    const [row] = await tx
      .select()
      .from(ss)
      .where(and(eq(ss.tenantId, ctx.tenantId), eq(ss.productStoreId, key)))
      .limit(1);
    if (!row) return null;
    return {
      // A stored value other than DEFAULT or ONE (no footer) is shown to the editor as DEFAULT.
      template: row.template === 'ONE' ? 'ONE' : 'DEFAULT',
      theme: row.theme || DEFAULT_THEME,
      themeColors: {
        primary: row.colorPrimary,
        secondary: row.colorSecondary,
        banner: row.colorBanner,
        action: row.colorAction,
      },
    };
  },
  async applyLive(tx, ctx, key, p) {
    const done = await tx
      .update(ss)
      .set({
        template: p.template,
        theme: p.theme,
        colorPrimary: p.themeColors.primary,
        colorSecondary: p.themeColors.secondary,
        colorBanner: p.themeColors.banner,
        colorAction: p.themeColors.action,
        updatedAt: new Date(),
      })
      .where(and(eq(ss.tenantId, ctx.tenantId), eq(ss.productStoreId, key)))
      .returning({ id: ss.productStoreId });
    if (done.length === 0) throw AppError.notFound(`Store ${key} is not a store of this site.`);
  },
});

/** The details schema plus the checks only the server can make (the embed's markup, known countries). */
export const detailsPayloadSchema = detailsDraftSchema.superRefine((d, c) => {
  if (d.newsLetter.iframe) {
    const problem = newsletterEmbedProblem(d.newsLetter.iframe);
    if (problem) c.addIssue({ code: 'custom', path: ['newsLetter', 'iframe'], message: problem });
  }
  const country = d.companyAddress.countryGeoId;
  if (country && !COUNTRY_IDS.has(country)) {
    c.addIssue({ code: 'custom', path: ['companyAddress', 'countryGeoId'], message: 'choose a country from the list' });
  }
  const state = d.companyAddress.stateProvinceGeoId;
  if (state) {
    const regions = COUNTRIES.find((x) => x.geoId === country)?.regions ?? [];
    if (!regions.some((r) => r.geoId === state)) {
      const name = COUNTRIES.find((x) => x.geoId === country)?.name;
      c.addIssue({
        code: 'custom',
        path: ['companyAddress', 'stateProvinceGeoId'],
        message: !country
          ? 'choose the country first'
          : regions.length === 0
            ? `${name ?? 'this country'} addresses have no state or region`
            : `choose a state or region of ${name}`,
      });
    }
  }
});

/**
 * Logo, company, contact, newsletter, chat, titles and the SEO entries of the store (decision 033).
 * SEO entries are the tenant's (one table for its storefront); the key is the store id all the same.
 */
export const detailsKind = defineDraftKind<DetailsDraft>({
  kind: 'details',
  entity: 'store.details',
  payload: detailsPayloadSchema,
  async readLive(tx, ctx, key) {
    const [row] = await tx
      .select()
      .from(ss)
      .where(and(eq(ss.tenantId, ctx.tenantId), eq(ss.productStoreId, key)))
      .limit(1);
    if (!row) return null;
    const entries = await tx.select().from(seo).where(eq(seo.tenantId, ctx.tenantId)).orderBy(asc(seo.route));
    return {
      logo: { url: row.logoUrl, headerTitle: row.headerTitle, headerDescription: row.headerDescription },
      companyName: row.companyName,
      companyAddress: {
        address1: row.address1,
        address2: row.address2,
        city: row.city,
        stateProvinceGeoId: row.stateProvinceGeoId,
        countryGeoId: row.countryGeoId,
        postalCode: row.postalCode,
      },
      emailAddress: row.emailAddress,
      companyContact: { countryCode: row.countryCode, areaCode: row.areaCode, contactNumber: row.contactNumber },
      promotionTitle: row.promotionTitle,
      pageTitle: row.pageTitle,
      newsLetter: { iframe: row.newsletterEmbed },
      chat: { dataWidgetId: row.chatWidgetId },
      contactPage: row.contactPage === 'N' ? 'N' : 'Y',
      // `default` first: the brand entry the others fall back to.
      seoMeta: [...entries]
        .sort((a, b) => (a.route === 'default' ? -1 : b.route === 'default' ? 1 : 0))
        .map((e) => ({ route: e.route, title: e.title, keywords: e.keywords, description: e.description })),
    };
  },
  async applyLive(tx, ctx, key, p) {
    const done = await tx
      .update(ss)
      .set({
        logoUrl: p.logo.url,
        headerTitle: p.logo.headerTitle,
        headerDescription: p.logo.headerDescription,
        companyName: p.companyName,
        address1: p.companyAddress.address1,
        address2: p.companyAddress.address2,
        city: p.companyAddress.city,
        stateProvinceGeoId: p.companyAddress.stateProvinceGeoId,
        countryGeoId: p.companyAddress.countryGeoId,
        postalCode: p.companyAddress.postalCode,
        emailAddress: p.emailAddress,
        countryCode: p.companyContact.countryCode,
        areaCode: p.companyContact.areaCode,
        contactNumber: p.companyContact.contactNumber,
        promotionTitle: p.promotionTitle,
        pageTitle: p.pageTitle,
        newsletterEmbed: p.newsLetter.iframe,
        chatWidgetId: p.chat.dataWidgetId,
        contactPage: p.contactPage,
        updatedAt: new Date(),
      })
      .where(and(eq(ss.tenantId, ctx.tenantId), eq(ss.productStoreId, key)))
      .returning({ id: ss.productStoreId });
    if (done.length === 0) throw AppError.notFound(`Store ${key} is not a store of this site.`);
    // The entries are replaced as a whole: the draft is the whole intended list.
    await tx.delete(seo).where(eq(seo.tenantId, ctx.tenantId));
    if (p.seoMeta.length) await tx.insert(seo).values(p.seoMeta.map((e) => ({ tenantId: ctx.tenantId, ...e })));
  },
});
