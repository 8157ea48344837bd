import { randomBytes } from 'node:crypto';
import {
  PRODUCT_CONTENT_MAX_BYTES,
  type ProductDeleteResult,
  type ProductEditorInput,
  type ProductEditorView,
  type ProductFields,
  type ProductVariantsView,
  productFieldsSchema,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { requireAccess } from '../../../lib/access';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import { type Ok, ok, type Result, returnRefusals } from '../../../lib/result';
import { isPlainObject, takeReadOnly, unchanged } from '../../../lib/write-back';
import type { AuditService } from '../../audit/index';
import type { MediaService, MediaStorage } from '../../media/index';
import { changeStock } from '../inventory/index';
import {
  contentError,
  detectContentType,
  extrasOf,
  hasOrders,
  keepUnchangedLists,
  loadView,
  mediaPath,
  NothingChanged,
  type ProductWriteRefusal,
  readImage,
  readOption,
  VIEW_FIELDS,
  VIEW_READ_ONLY,
  withoutStamp,
  writeError,
  writeFailure,
} from './editor-view';
import { writeProduct } from './product-writer';
import { type VariantGridInput, writeVariantGrid } from './variant-grid';
import { readVariants } from './variant-view';

const p = schema.products;
const pi = schema.productImages;
const pf = schema.productFeatures;
const po = schema.productConfigOptions;
const pch = schema.productConfigChoices;
const pa = schema.productAssociations;
const pct = schema.productContents;
const pc = schema.productCategories;
const m = schema.media;

export interface ProductAdminDeps {
  audit: AuditService;
  events: EventBus;
  media: MediaService;
  storage: MediaStorage;
}

/**
 * The product editor's writes beside the product's own row (writeProduct): pictures, features,
 * options, related products, downloads, first stock; duplicate and delete. Every write runs in one
 * transaction with its audit entries and emits `catalog.changed` with the product's id after commit.
 */
export function createProductAdminService(db: Db, deps: ProductAdminDeps) {
  const { audit, events } = deps;

  /** Writes the pictures, features, options and related products of `input` that are present. */
  async function writeExtras(tx: Tx, ctx: RequestContext, productId: string, input: ProductEditorInput) {
    const t = ctx.tenantId;
    if (input.images) {
      const ids = input.images.map((i) => i.mediaId);
      const found = ids.length
        ? await tx
            .select({ mediaId: m.mediaId, key: m.storageKey })
            .from(m)
            .where(and(eq(m.tenantId, t), inArray(m.mediaId, ids)))
        : [];
      const missing = ids.filter((id) => !found.some((f) => f.mediaId === id));
      if (missing.length) {
        throw AppError.field(
          422,
          'UNPROCESSABLE',
          'images',
          `no picture ${missing.join(', ')} in this store's media library.`,
        );
      }
      const had = await tx
        .select({ mediaId: pi.mediaId })
        .from(pi)
        .where(and(eq(pi.tenantId, t), eq(pi.productId, productId)));
      await tx.delete(pi).where(and(eq(pi.tenantId, t), eq(pi.productId, productId)));
      if (input.images.length) {
        await tx.insert(pi).values(
          input.images.map((i, n) => ({
            tenantId: t,
            productId,
            mediaId: i.mediaId,
            altText: i.altText?.trim() || null,
            sequenceNum: n,
          })),
        );
      }
      // Every reader of the product (cards, the product page, feeds) shows the first picture.
      const first = found.find((f) => f.mediaId === ids[0]);
      if (first || had.length) {
        const url = first ? mediaPath(first.key) : null;
        await tx
          .update(p)
          .set({ smallImageUrl: url, mediumImageUrl: url, detailImageUrl: url })
          .where(and(eq(p.tenantId, t), eq(p.productId, productId)));
      }
    }
    if (input.features) {
      await tx.delete(pf).where(and(eq(pf.tenantId, t), eq(pf.productId, productId)));
      if (input.features.length) {
        await tx
          .insert(pf)
          .values(
            input.features.map((f, n) => ({ tenantId: t, productId, featureId: `F${n + 1}`, ...f, sequenceNum: n })),
          );
      }
    }
    if (input.options) {
      // Options are written whole; ids follow position, so an unchanged option keeps its ids (carts name them).
      await tx.delete(po).where(and(eq(po.tenantId, t), eq(po.productId, productId)));
      for (const [n, o] of input.options.entries()) {
        const optionId = `O${n + 1}`;
        await tx.insert(po).values({ tenantId: t, productId, optionId, optionName: o.optionName, sequenceNum: n });
        const defaults = o.choices.some((c) => c.isDefault);
        await tx.insert(pch).values(
          o.choices.map((c, k) => ({
            tenantId: t,
            productId,
            optionId,
            choiceId: `${optionId}C${k + 1}`,
            label: c.label,
            priceDelta: c.priceDelta,
            isDefault: defaults ? !!c.isDefault : k === 0,
            sequenceNum: k,
          })),
        );
      }
      await tx
        .update(p)
        .set({ productType: input.options.length ? 'CONFIGURABLE' : 'FINISHED_GOOD' })
        .where(and(eq(p.tenantId, t), eq(p.productId, productId)));
    }
    if (input.relatedProductIds) {
      const ids = [...new Set(input.relatedProductIds)];
      if (ids.includes(productId)) {
        throw AppError.field(422, 'UNPROCESSABLE', 'relatedProductIds', 'a product cannot be related to itself.');
      }
      const found = ids.length
        ? await tx
            .select({ id: p.productId })
            .from(p)
            .where(and(eq(p.tenantId, t), inArray(p.productId, ids)))
        : [];
      const missing = ids.filter((id) => !found.some((f) => f.id === id));
      if (missing.length) {
        throw AppError.field(
          422,
          'UNPROCESSABLE',
          'relatedProductIds',
          `no product ${missing.join(', ')} in this store.`,
        );
      }
      await tx.delete(pa).where(and(eq(pa.tenantId, t), eq(pa.productId, productId)));
      if (ids.length) {
        await tx
          .insert(pa)
          .values(ids.map((id, n) => ({ tenantId: t, productId, relatedProductId: id, sequenceNum: n })));
      }
    }
  }

  async function saveInTx(
    ctx: RequestContext,
    productId: string | null,
    input: ProductEditorInput,
    grid?: VariantGridInput,
  ) {
    const id = await events.transaction(async (tx) => {
      const before = productId ? await loadView(tx, ctx, productId) : null;
      if (productId && !before) throw AppError.notFound('This product does not exist.');
      const written = await writeProduct(
        tx,
        ctx,
        { audit },
        { productId: productId ?? undefined, fields: input.fields },
      );
      if (!written.ok) throw writeFailure(written);
      await writeExtras(tx, ctx, written.productId, before ? keepUnchangedLists(input, before) : input);
      // The variant grid in the same transaction: a refused row leaves nothing of the save written.
      const variants = grid
        ? await writeVariantGrid(tx, ctx, { audit }, written.productId, grid)
        : { changed: false, stockMoved: false };
      if (variants.stockMoved) {
        events.emitAfterCommit(tx, 'stock.changed', { tenantId: ctx.tenantId, productIds: [written.productId] });
      }
      const after = await loadView(tx, ctx, written.productId);
      // The row (isFeatured too) and categories say `changed`; the lists and type, the view; the grid, itself.
      if (before && !written.changed && !variants.changed && unchanged(withoutStamp(before), withoutStamp(after))) {
        throw new NothingChanged(before);
      }
      await audit.record(tx, ctx, {
        entity: 'product',
        entityId: written.productId,
        action: 'update-details',
        before: extrasOf(before),
        after: extrasOf(after),
      });
      if (written.created && input.initialStock) {
        const moved = await changeStock(tx, ctx, [
          { productId: written.productId, reason: 'RECEIVED', delta: input.initialStock, note: 'First stock' },
        ]);
        if (!moved.ok) throw new Error(`first stock of a new product failed: ${moved.code}`);
        events.emitAfterCommit(tx, 'stock.changed', { tenantId: ctx.tenantId, productIds: [written.productId] });
      }
      events.emitAfterCommit(tx, 'catalog.changed', { tenantId: ctx.tenantId, productIds: [written.productId] });
      return written.productId;
    });
    return (await loadView(db, ctx, id)) as ProductEditorView;
  }

  return {
    /** The product's options and variants as the editor's grid shows them; null when not this store's. */
    async variants(ctx: RequestContext, productId: string): Promise<ProductVariantsView | null> {
      requireAccess(ctx, 'catalog');
      return readVariants(db, ctx.tenantId, productId);
    },

    /** The product as the editor shows it; null when it is not this store's. */
    async view(ctx: RequestContext, productId: string): Promise<ProductEditorView | null> {
      requireAccess(ctx, 'catalog');
      return loadView(db, ctx, productId);
    },

    /** The store's categories for the editor's picker, by name. */
    async categories(ctx: RequestContext) {
      requireAccess(ctx, 'catalog');
      const c = schema.categories;
      const rows = await db
        .select({ productCategoryId: c.productCategoryId, name: c.categoryName, description: c.description })
        .from(c)
        .where(eq(c.tenantId, ctx.tenantId))
        .orderBy(asc(c.categoryName))
        .limit(500);
      return rows.map((r) => ({
        productCategoryId: r.productCategoryId,
        name: r.name ?? r.description ?? r.productCategoryId,
      }));
    },

    /** The store's currency (the editor's prices are typed in it). */
    async currency(ctx: RequestContext): Promise<string> {
      const [row] = await db
        .select({ currency: schema.productStores.currencyUomId })
        .from(schema.productStores)
        .where(
          and(
            eq(schema.productStores.tenantId, ctx.tenantId),
            eq(schema.productStores.productStoreId, ctx.productStoreId),
          ),
        );
      return row?.currency ?? 'USD';
    },

    /** Products of this store by SKU (the related-products field names them so). */
    async idsForSkus(ctx: RequestContext, skus: string[]): Promise<Map<string, string>> {
      requireAccess(ctx, 'catalog');
      if (!skus.length) return new Map();
      const rows = await db
        .select({ sku: p.sku, id: p.productId })
        .from(p)
        .where(and(eq(p.tenantId, ctx.tenantId), inArray(p.sku, skus)));
      return new Map(rows.map((r) => [r.sku, r.id]));
    },

    /** 404 before the body is judged: who may act on a product comes first. */
    async assertProduct(ctx: RequestContext, productId: string): Promise<void> {
      requireAccess(ctx, 'catalog');
      const [hit] = await db
        .select({ one: sql<number>`1` })
        .from(p)
        .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)));
      if (!hit) throw AppError.notFound('This product does not exist.');
    },

    /**
     * The update's body in the write's shape. The editor's shape (`fields` and the lists) is taken as
     * it is. The read's flat shape (GET's `data`) is a patch: the fields it names over the product's
     * current ones; images, options and related products as read (their urls, sizes, ids and names
     * are the read's, dropped); read-only fields taken when equal to the read, else a 400 naming them.
     * Unknown fields stay at the top, where the strict schema refuses them.
     */
    async writeBackBody(ctx: RequestContext, productId: string, body: unknown): Promise<unknown> {
      if (!isPlainObject(body) || 'fields' in body) return body;
      const current = await loadView(db, ctx, productId);
      if (!current) throw AppError.notFound('This product does not exist.');
      const rest = takeReadOnly(body, current as unknown as Record<string, unknown>, VIEW_READ_ONLY);
      const fields: Record<string, unknown> = {};
      for (const k of VIEW_FIELDS) fields[k] = k in rest ? rest[k] : current[k];
      const out: Record<string, unknown> = { fields };
      for (const [k, v] of Object.entries(rest)) {
        if ((VIEW_FIELDS as readonly string[]).includes(k)) continue;
        if (k === 'isFeatured') fields.isFeatured = v;
        else if (k === 'images' && Array.isArray(v)) {
          out.images = v.map((i) => (isPlainObject(i) ? readImage(i) : i));
        } else if (k === 'options' && Array.isArray(v)) {
          out.options = v.map((o) => (isPlainObject(o) ? readOption(o) : o));
        } else if (k === 'related' && Array.isArray(v)) {
          out.relatedProductIds = v.map((r) => (isPlainObject(r) ? r.productId : r));
        } else out[k] = v;
      }
      return out;
    },

    /**
     * Creates (no productId) or updates a product with everything the editor writes. An update that
     * changes nothing writes nothing: no row, no updated_at, no audit entry, no event (its
     * transaction is rolled back) and answers the product as it is. `grid`, the editor's options and
     * variants, is written in the same transaction (variant-grid.ts).
     */
    async save(
      ctx: RequestContext,
      productId: string | null,
      input: ProductEditorInput,
      grid?: VariantGridInput,
    ): Promise<Result<ProductEditorView, ProductWriteRefusal>> {
      requireAccess(ctx, 'catalog');
      try {
        return await returnRefusals<Ok<ProductEditorView>, ProductWriteRefusal>(async () =>
          ok(await saveInTx(ctx, productId, input, grid)),
        );
      } catch (e) {
        if (e instanceof NothingChanged) return ok(e.view);
        throw e;
      }
    },

    /**
     * A copy of a product as a DRAFT named "Copy of ...", with its pictures, features, options,
     * related products, categories and downloads, and no stock. Its SKU is `sku`, or the
     * original's with -COPY (-COPY-2...), so the copy never takes another product's SKU.
     */
    async duplicate(
      ctx: RequestContext,
      productId: string,
      opts: { sku?: string },
    ): Promise<Result<ProductEditorView, ProductWriteRefusal>> {
      requireAccess(ctx, 'catalog');
      return returnRefusals<Ok<ProductEditorView>, ProductWriteRefusal>(async () => {
        const id = await events.transaction(async (tx) => {
          const source = await loadView(tx, ctx, productId);
          if (!source) throw AppError.notFound('This product does not exist.');
          let sku = opts.sku;
          if (!sku) {
            const base = `${source.sku}-COPY`.slice(0, 58);
            const taken = new Set(
              (
                await tx
                  .select({ sku: p.sku })
                  .from(p)
                  .where(and(eq(p.tenantId, ctx.tenantId), sql`${p.sku} LIKE ${`${base}%`}`))
              ).map((r) => r.sku),
            );
            sku = base;
            for (let n = 2; taken.has(sku); n++) sku = `${base}-${n}`;
          }
          const fields: ProductFields = productFieldsSchema.parse({
            productName: `Copy of ${source.productName}`.slice(0, 200),
            sku,
            brandName: source.brandName,
            shortDescription: source.shortDescription,
            description: source.description,
            listPrice: source.listPrice,
            salePrice: source.salePrice,
            currencyUomId: source.currencyUomId,
            status: 'DRAFT',
            weightGrams: source.weightGrams,
            seoTitle: source.seoTitle,
            seoDescription: source.seoDescription,
            categoryIds: source.categoryIds,
          });
          const written = await writeProduct(tx, ctx, { audit }, { fields });
          if (!written.ok) throw writeFailure(written);
          await writeExtras(tx, ctx, written.productId, {
            fields,
            images: source.images.map((i) => ({ mediaId: i.mediaId, altText: i.altText })),
            features: source.features,
            options: source.options.map((o) => ({
              optionName: o.optionName,
              choices: o.choices.map((c) => ({ label: c.label, priceDelta: c.priceDelta, isDefault: c.isDefault })),
            })),
            relatedProductIds: source.related.map((r) => r.productId),
          });
          // A seeded product's pictures are addresses, not library rows: the copy shows the same ones.
          if (!source.images.length) {
            const [row] = await tx
              .select({ s: p.smallImageUrl, md: p.mediumImageUrl, d: p.detailImageUrl })
              .from(p)
              .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)));
            if (row) {
              await tx
                .update(p)
                .set({ smallImageUrl: row.s, mediumImageUrl: row.md, detailImageUrl: row.d })
                .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, written.productId)));
            }
          }
          const contents = await tx
            .select()
            .from(pct)
            .where(and(eq(pct.tenantId, ctx.tenantId), eq(pct.productId, productId)));
          if (contents.length) {
            await tx.insert(pct).values(contents.map((c) => ({ ...c, productId: written.productId })));
          }
          await audit.record(tx, ctx, {
            entity: 'product',
            entityId: written.productId,
            action: 'duplicate',
            after: { from: productId, sku },
          });
          events.emitAfterCommit(tx, 'catalog.changed', { tenantId: ctx.tenantId, productIds: [written.productId] });
          return written.productId;
        });
        return ok((await loadView(db, ctx, id)) as ProductEditorView);
      });
    },

    /**
     * Deletes a product no order names; a product with orders is archived instead (orders, returns
     * and reports keep pointing at it), and the answer says which happened.
     */
    async remove(ctx: RequestContext, productId: string): Promise<ProductDeleteResult> {
      requireAccess(ctx, 'catalog');
      return events.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(p)
          .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)))
          .for('update');
        if (!row) throw AppError.notFound('This product does not exist.');
        let outcome: ProductDeleteResult['outcome'];
        if (await hasOrders(tx, ctx, productId)) {
          const categoryIds = (
            await tx
              .select({ id: pc.productCategoryId })
              .from(pc)
              .where(and(eq(pc.tenantId, ctx.tenantId), eq(pc.productId, productId)))
          ).map((c) => c.id);
          const written = await writeProduct(
            tx,
            ctx,
            { audit },
            {
              productId,
              fields: {
                productName: row.productName,
                slug: row.slug,
                sku: row.sku,
                brandName: row.brandName,
                shortDescription: row.shortDescription,
                description: row.description,
                listPrice: row.listPrice,
                salePrice: row.salePrice,
                currencyUomId: row.currencyUomId,
                status: 'ARCHIVED',
                weightGrams: row.weightGrams,
                isFeatured: row.isFeatured,
                seoTitle: row.seoTitle,
                seoDescription: row.seoDescription,
                categoryIds,
              },
            },
          );
          if (!written.ok) throw writeError(written);
          outcome = 'archived';
        } else {
          await tx.delete(p).where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)));
          await audit.record(tx, ctx, {
            entity: 'product',
            entityId: productId,
            action: 'delete',
            before: { productName: row.productName, sku: row.sku, slug: row.slug, stockQuantity: row.stockQuantity },
            after: null,
          });
          outcome = 'deleted';
        }
        events.emitAfterCommit(tx, 'catalog.changed', { tenantId: ctx.tenantId, productIds: [productId] });
        return { productId, outcome };
      });
    },

    /** Adds a downloadable file (PDF or ZIP, told by its bytes) to a product, kept in media storage. */
    async addContent(
      ctx: RequestContext,
      productId: string,
      file: Uint8Array,
      meta: { fileName: string; title: string },
    ): Promise<ProductEditorView> {
      requireAccess(ctx, 'catalog');
      if (file.length === 0) throw AppError.field(422, 'UNPROCESSABLE', 'contentFile', 'the file is empty.');
      if (file.length > PRODUCT_CONTENT_MAX_BYTES) {
        throw contentError(
          413,
          'PAYLOAD_TOO_LARGE',
          `the file is larger than ${PRODUCT_CONTENT_MAX_BYTES / 1024 / 1024} MB.`,
        );
      }
      const kind = detectContentType(file);
      if (!kind) {
        throw contentError(415, 'UNSUPPORTED_MEDIA_TYPE', 'only PDF and ZIP files can be offered for download.');
      }
      const exists = await loadView(db, ctx, productId);
      if (!exists) throw AppError.notFound('This product does not exist.');
      const contentId = randomBytes(12).toString('hex');
      const mediaKey = `t/${ctx.tenantId}/c/${contentId}.${kind.ext}`;
      // Stored first: a row never points at a missing file.
      await deps.storage.put(mediaKey, { body: Buffer.from(file), contentType: kind.contentType });
      const fileName =
        meta.fileName
          .replace(/[^\w.\- ]+/g, '_')
          .trim()
          .slice(0, 120) || `download.${kind.ext}`;
      const title = meta.title.trim().slice(0, 120) || fileName;
      await events.transaction(async (tx) => {
        await tx.insert(pct).values({
          tenantId: ctx.tenantId,
          productId,
          contentId,
          title,
          fileName,
          mediaKey,
          contentType: kind.contentType,
        });
        await audit.record(tx, ctx, {
          entity: 'product',
          entityId: productId,
          action: 'add-content',
          after: { contentId, title, fileName, bytes: file.length },
        });
        events.emitAfterCommit(tx, 'catalog.changed', { tenantId: ctx.tenantId, productIds: [productId] });
      });
      return (await loadView(db, ctx, productId)) as ProductEditorView;
    },

    async removeContent(ctx: RequestContext, productId: string, contentId: string): Promise<ProductEditorView> {
      requireAccess(ctx, 'catalog');
      await events.transaction(async (tx) => {
        const gone = await tx
          .delete(pct)
          .where(and(eq(pct.tenantId, ctx.tenantId), eq(pct.productId, productId), eq(pct.contentId, contentId)))
          .returning({ title: pct.title });
        if (!gone.length) throw AppError.notFound('This download does not exist.');
        await audit.record(tx, ctx, {
          entity: 'product',
          entityId: productId,
          action: 'remove-content',
          before: { contentId, title: gone[0]?.title },
          after: null,
        });
        events.emitAfterCommit(tx, 'catalog.changed', { tenantId: ctx.tenantId, productIds: [productId] });
      });
      return (await loadView(db, ctx, productId)) as ProductEditorView;
    },

    /** A picture for a product, through the media library's one upload pipeline, with the catalog permission. */
    uploadImage(ctx: RequestContext, file: Buffer, altText?: string | null) {
      return deps.media.upload(ctx, file, { altText, access: 'catalog' });
    },

    library(ctx: RequestContext) {
      return deps.media.list(ctx, { limit: 24 }, 'catalog');
    },
  };
}

export type ProductAdminService = ReturnType<typeof createProductAdminService>;
