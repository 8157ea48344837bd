import { type BannerItem, bannersDraftSchema } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { defineDraftKind } from '../drafts/index';

const b = schema.banners;

/** A picture path of this tenant's own media (uploaded, or the seed's): nothing else goes live. */
export function isOwnMediaPath(tenantId: string, path: string): boolean {
  return path.startsWith(`/media/t/${tenantId}/`) || path.startsWith(`/media/seed/${tenantId}/`);
}

/** The live banners of a store, as a draft payload, in display order. */
export async function readLiveBanners(q: Tx | Db, ctx: TenantContext, productStoreId: string): Promise<BannerItem[]> {
  const rows = await q
    .select()
    .from(b)
    .where(and(eq(b.tenantId, ctx.tenantId), eq(b.productStoreId, productStoreId)))
    .orderBy(asc(b.sequenceNum), asc(b.bannerId));
  return rows.map((r) => ({
    bannerId: r.bannerId,
    mediaId: r.mediaId,
    imageUrl: r.imageUrl,
    // Banners from before alt text was required describe themselves by their title.
    altText: r.altText || r.title || 'Banner',
    title: r.title || null,
    text: r.subtitle,
    ctaLabel: r.ctaLabel,
    linkUrl: r.linkUrl,
    startsAt: r.startsAt?.toISOString() ?? null,
    endsAt: r.endsAt?.toISOString() ?? null,
  }));
}

/**
 * The banners of one product store (key: its productStoreId) as a draft kind (decision 029): the
 * payload is the whole ordered list, so adding, editing, deleting and reordering are edits of one
 * draft, and publishing replaces the store's live rows in the publish transaction.
 */
export const bannersKind = defineDraftKind<BannerItem[]>({
  kind: 'banners',
  entity: 'banners',
  what: 'banners',
  payload: bannersDraftSchema,
  readLive: (q, ctx, key) => readLiveBanners(q, ctx, key),
  async applyLive(tx, ctx, key, payload) {
    const [store] = await tx
      .select({ id: schema.productStores.productStoreId })
      .from(schema.productStores)
      .where(and(eq(schema.productStores.tenantId, ctx.tenantId), eq(schema.productStores.productStoreId, key)));
    if (!store) throw AppError.notFound(`Product store ${key.slice(0, 32)} is not a store of this site.`);
    for (const item of payload) {
      // A version restored or a draft saved by another path still cannot point at another store's media.
      if (!isOwnMediaPath(ctx.tenantId, item.imageUrl))
        throw AppError.badRequest('imageUrl: not a picture of this store.');
    }
    await tx.delete(b).where(and(eq(b.tenantId, ctx.tenantId), eq(b.productStoreId, key)));
    if (!payload.length) return;
    await tx.insert(b).values(
      payload.map((item, i) => ({
        tenantId: ctx.tenantId,
        bannerId: item.bannerId,
        productStoreId: key,
        title: item.title ?? '',
        subtitle: item.text,
        imageUrl: item.imageUrl,
        linkUrl: item.linkUrl,
        ctaLabel: item.ctaLabel,
        sequenceNum: (i + 1) * 10,
        altText: item.altText,
        mediaId: item.mediaId,
        startsAt: item.startsAt ? new Date(item.startsAt) : null,
        endsAt: item.endsAt ? new Date(item.endsAt) : null,
      })),
    );
  },
});
