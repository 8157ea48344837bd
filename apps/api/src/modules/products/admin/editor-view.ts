/** The product editor's read (the view a save answers with) and the pure helpers its writes share. */
import type { ProductEditorInput, ProductEditorView } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { type Refusal, Refused, refuseField } from '../../../lib/result';
import { isPlainObject, unchanged } from '../../../lib/write-back';
import type { ProductWriteError } from './product-writer';

const p = schema.products;
const pi = schema.productImages;
const pf = schema.productFeatures;
const po = schema.productConfigOptions;
const pch = schema.productConfigChoices;
const pa = schema.productAssociations;
const pct = schema.productContents;
const pc = schema.productCategories;
const m = schema.media;

/** The read's own fields that the write's `fields` takes (the flat read written back). */
export const VIEW_FIELDS = [
  'productName',
  'slug',
  'sku',
  'brandName',
  'shortDescription',
  'description',
  'listPrice',
  'salePrice',
  'currencyUomId',
  'status',
  'weightGrams',
  'seoTitle',
  'seoDescription',
  'categoryIds',
] as const;
/** Fields the read answers that no write changes: taken back as read, refused when different. */
export const VIEW_READ_ONLY = [
  'productId',
  'productType',
  'stockQuantity',
  'contents',
  'hasOrders',
  'updatedAt',
  // Set through the tax module (PUT /api/v1/tax/products/:productId; decision 116).
  'taxClass',
] as const;

/** Thrown inside the save's transaction when it changed nothing: the transaction rolls back. */
export class NothingChanged extends Error {
  constructor(readonly view: ProductEditorView) {
    super('nothing changed');
  }
}
/** A picture as read ({mediaId, url, altText, width, height}) as written: its url and size are the media's. */
export function readImage(i: Record<string, unknown>) {
  const { url: _url, width: _width, height: _height, ...rest } = i;
  return rest;
}
/** An option as read: its ids follow position (the write numbers them), so they are dropped. */
export function readOption(o: Record<string, unknown>) {
  const { optionId: _optionId, ...rest } = o;
  const choices = Array.isArray(rest.choices)
    ? rest.choices.map((c) => {
        if (!isPlainObject(c)) return c;
        const { choiceId: _choiceId, ...choice } = c;
        return choice;
      })
    : rest.choices;
  return { ...rest, choices };
}
/**
 * The input without the lists equal to what the product has: those are not rewritten, so an option
 * seeded or imported with its own ids keeps them (carts name them) when the read is written back.
 */
export function keepUnchangedLists(input: ProductEditorInput, v: ProductEditorView): ProductEditorInput {
  const out = { ...input };
  const images = (list: { mediaId: string; altText?: string | null }[]) =>
    list.map((i) => ({ mediaId: i.mediaId, altText: i.altText?.trim() || null }));
  if (out.images && unchanged(images(out.images), images(v.images))) delete out.images;
  if (out.features && unchanged(out.features, v.features)) delete out.features;
  const options = (list: ProductEditorView['options'] | NonNullable<ProductEditorInput['options']>) =>
    list.map((o) => {
      const defaults = o.choices.some((c) => c.isDefault);
      return {
        optionName: o.optionName,
        choices: o.choices.map((c, k) => ({
          label: c.label,
          priceDelta: c.priceDelta,
          isDefault: defaults ? !!c.isDefault : k === 0,
        })),
      };
    });
  if (out.options && unchanged(options(out.options), options(v.options))) delete out.options;
  const related = v.related.map((r) => r.productId);
  if (out.relatedProductIds && unchanged([...new Set(out.relatedProductIds)], related)) delete out.relatedProductIds;
  return out;
}
export const withoutStamp = (v: ProductEditorView | null) => (v ? { ...v, updatedAt: '' } : null);

/** A refusal of writeProduct as the API answers it: the field named, 409 for a taken slug or SKU. */
export function writeError(e: ProductWriteError): AppError {
  if (e.code === 'PRODUCT_NOT_FOUND') return AppError.notFound(e.message);
  const status = e.code === 'CATEGORY_NOT_FOUND' ? 422 : 409;
  return AppError.field(status, status === 409 ? 'CONFLICT' : 'UNPROCESSABLE', e.field, e.message);
}

/**
 * Saving or copying a product (decision 088): its slug or SKU is another product's (CONFLICT, on the
 * `slug` or `sku` field). The owner picks another one.
 */
export type ProductWriteRefusal = Refusal<'CONFLICT'>;

/**
 * A refusal of writeProduct inside a save's transaction, to throw: a taken slug or SKU is the
 * expected outcome (`Refused`, returned by the operation); an unknown category or product stays a guard.
 */
export function writeFailure(e: ProductWriteError): Refused | AppError {
  if (e.code === 'SLUG_TAKEN' || e.code === 'SKU_TAKEN')
    return new Refused(refuseField(409, 'CONFLICT', e.field, e.message));
  return writeError(e);
}

/** What a downloadable file is, from its first bytes (the name and the browser's type are not trusted). */
export function detectContentType(bytes: Uint8Array): { ext: 'pdf' | 'zip'; contentType: string } | null {
  const head = Buffer.from(bytes.subarray(0, 8)).toString('latin1');
  if (head.startsWith('%PDF-')) return { ext: 'pdf', contentType: 'application/pdf' };
  if (head.startsWith('PK\u0003\u0004')) return { ext: 'zip', contentType: 'application/zip' };
  return null;
}

/** A refusal of a download's file, named as the field `contentFile`. */
export function contentError(status: 413 | 415, code: 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE', message: string) {
  const err = new AppError(status, code, `contentFile: ${message}`);
  err.field = 'contentFile';
  err.fieldMessage = message.charAt(0).toUpperCase() + message.slice(1);
  return err;
}

export const mediaPath = (storageKey: string) => `/media/${storageKey}`;

export async function loadView(tx: Db | Tx, ctx: RequestContext, productId: string): Promise<ProductEditorView | null> {
  const [row] = await tx
    .select()
    .from(p)
    .where(and(eq(p.tenantId, ctx.tenantId), eq(p.productId, productId)));
  if (!row) return null;
  const t = ctx.tenantId;
  const [cats, images, features, options, choices, related, contents, orders] = await Promise.all([
    tx
      .select({ id: pc.productCategoryId })
      .from(pc)
      .where(and(eq(pc.tenantId, t), eq(pc.productId, productId))),
    tx
      .select({ mediaId: pi.mediaId, altText: pi.altText, key: m.storageKey, width: m.width, height: m.height })
      .from(pi)
      .innerJoin(m, and(eq(m.tenantId, pi.tenantId), eq(m.mediaId, pi.mediaId)))
      .where(and(eq(pi.tenantId, t), eq(pi.productId, productId)))
      .orderBy(asc(pi.sequenceNum)),
    tx
      .select({ label: pf.label, value: pf.value })
      .from(pf)
      .where(and(eq(pf.tenantId, t), eq(pf.productId, productId)))
      .orderBy(asc(pf.sequenceNum)),
    tx
      .select()
      .from(po)
      .where(and(eq(po.tenantId, t), eq(po.productId, productId)))
      .orderBy(asc(po.sequenceNum)),
    tx
      .select()
      .from(pch)
      .where(and(eq(pch.tenantId, t), eq(pch.productId, productId)))
      .orderBy(asc(pch.sequenceNum)),
    tx
      .select({ productId: p.productId, productName: p.productName, sku: p.sku })
      .from(pa)
      .innerJoin(p, and(eq(p.tenantId, pa.tenantId), eq(p.productId, pa.relatedProductId)))
      .where(and(eq(pa.tenantId, t), eq(pa.productId, productId)))
      .orderBy(asc(pa.sequenceNum)),
    tx
      .select()
      .from(pct)
      .where(and(eq(pct.tenantId, t), eq(pct.productId, productId)))
      .orderBy(asc(pct.title)),
    hasOrders(tx, ctx, productId),
  ]);
  return {
    productId: row.productId,
    productName: row.productName,
    slug: row.slug,
    sku: row.sku,
    brandName: row.brandName,
    shortDescription: row.shortDescription,
    description: row.description,
    listPrice: row.listPrice,
    salePrice: row.salePrice,
    currencyUomId: row.currencyUomId,
    status: row.status,
    productType: row.productType,
    weightGrams: row.weightGrams,
    taxClass: row.taxClass,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    stockQuantity: row.stockQuantity,
    categoryIds: cats.map((c) => c.id),
    images: images.map((i) => ({
      mediaId: i.mediaId,
      url: mediaPath(i.key),
      altText: i.altText,
      width: i.width,
      height: i.height,
    })),
    features,
    options: options.map((o) => ({
      optionId: o.optionId,
      optionName: o.optionName,
      choices: choices
        .filter((c) => c.optionId === o.optionId)
        .map((c) => ({ choiceId: c.choiceId, label: c.label, priceDelta: c.priceDelta, isDefault: c.isDefault })),
    })),
    related,
    contents: contents.map((c) => ({
      contentId: c.contentId,
      title: c.title,
      fileName: c.fileName,
      url: mediaPath(c.mediaKey),
      contentType: c.contentType,
    })),
    hasOrders: orders,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function hasOrders(tx: Db | Tx, ctx: RequestContext, productId: string): Promise<boolean> {
  const [hit] = await tx
    .select({ one: sql<number>`1` })
    .from(schema.orderLines)
    .where(and(eq(schema.orderLines.tenantId, ctx.tenantId), eq(schema.orderLines.productId, productId)))
    .limit(1);
  return !!hit;
}

/** What the editor writes beside the row, for the audit log's before/after. */
export function extrasOf(v: ProductEditorView | null) {
  if (!v) return {};
  return {
    images: v.images.map((i) => `${i.mediaId}${i.altText ? ` "${i.altText}"` : ''}`),
    features: v.features.map((f) => `${f.label}: ${f.value}`),
    options: v.options.map(
      (o) =>
        `${o.optionName}: ${o.choices.map((c) => `${c.label}${c.priceDelta ? ` ${c.priceDelta}` : ''}`).join(', ')}`,
    ),
    related: v.related.map((r) => r.productId),
  };
}
