import {
  CSV_OPTION_COLUMNS,
  changedProductCsvColumns,
  MAX_VARIANTS,
  mediaKeyOfUrl,
  type ProductCsvVariant,
  type ProductFields,
  type ProductVariantsView,
  parseProductCsvVariant,
  repeatedProductProblems,
  splitImages,
  type TaxClass,
  variantDisplayName,
  variantTitle,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { DataRow } from './csv-file';
import {
  c,
  existingOf,
  FIELD_COLUMNS,
  NOT_UTF8,
  type Problem,
  type ProductState,
  p,
  pc,
  planRow,
  type RowPlan,
  type StoreFacts,
} from './row-plan';

/**
 * A product's rows together (decision 112, section 5): the file has one row per variant, the
 * product's columns on its first row. `planProduct` is the one plan of a product for the dry run and
 * the run, as planRow is of a row (decision 074): the run writes what it plans, and a product it
 * plans unchanged is not written at all.
 */

const vr = schema.productVariants;
const vi = schema.productVariantImages;
const po = schema.productOptions;
const pov = schema.productOptionValues;
const pim = schema.productImages;
const md = schema.media;

/** The rows of one product: its first row and the variants after it. */
export interface ProductGroup {
  rows: DataRow[];
}

/** What a product holds today beyond its own fields: options, live variants, pictures. */
export interface ProductFull extends ProductState {
  view: ProductVariantsView;
  /** The product's pictures in order: media id and its URL (`/media/<key>`). */
  images: { mediaId: string; url: string }[];
}

/** What the plan reads about the store for a batch of products. */
export interface GroupFacts extends StoreFacts {
  slugHolders: Map<string, string | null>;
  byId: Map<string, ProductFull>;
  /** Live variants of the store met by the file's variant ids and SKUs: variant → product. */
  variantOwner: Map<string, string>;
  /** SKU → the live variant holding it (with its product and a name for the refusal). */
  skuHolder: Map<string, { variantId: string; productId: string; name: string }>;
  slugProduct: Map<string, string>;
}

export type VariantStep =
  | {
      kind: 'create';
      row: number;
      sku: string;
      title: string;
      variant: ProductCsvVariant;
      imageIds: string[];
      /** The first row of a product the run creates: its default variant, given the values. */
      first: boolean;
    }
  | {
      kind: 'update';
      row: number;
      sku: string;
      variantId: string;
      values: string[];
      variant: ProductCsvVariant;
      imageIds: string[];
      /** The count the plan saw: the run moves stock by the difference (a sale meanwhile stays). */
      stockSeen: number;
      changes: string[];
    }
  | { kind: 'unchanged'; row: number; sku: string; variantId: string };

export type ProductPlan =
  /** A single-variant product's one row, planned as before variants (planRow), plus its variant's own columns. */
  | { kind: 'single'; row: DataRow; plan: RowPlan; existing: ProductState | null; extra: VariantStep | null }
  | { kind: 'refused'; rows: { row: number; sku: string | null; problems: Problem[] }[] }
  | {
      kind: 'variants';
      productId: string | null;
      name: string;
      /** Product fields to write (null: unchanged). */
      fields: ProductFields | null;
      /** The tax class to write after the product (null: leave it; writeProduct has none). */
      taxClass: TaxClass | null;
      productChanges: string[];
      firstRow: number;
      /** The options to write (null: unchanged). */
      options:
        | {
            name: string;
            optionId?: string;
            values: { valueId?: string; label: string; swatchColor?: string | null; swatchMediaId?: string | null }[];
          }[]
        | null;
      steps: VariantStep[];
      leftOut: { variantId: string; sku: string; title: string }[];
    };

const cellOf = (r: DataRow, col: keyof DataRow['cells']) => (r.cells[col] ?? '').trim();

/** Which product the rows name: product_id, else a row's variant_id, else the first row's SKU, else the slug. */
function matchProduct(g: ProductGroup, facts: GroupFacts, withOptions: boolean): ProductFull | null {
  const first = g.rows[0] as DataRow;
  const byId = cellOf(first, 'product_id');
  if (byId && facts.byId.has(byId)) return facts.byId.get(byId) ?? null;
  for (const r of g.rows) {
    const owner = facts.variantOwner.get(cellOf(r, 'variant_id'));
    if (owner) return facts.byId.get(owner) ?? null;
  }
  const holder = facts.skuHolder.get(cellOf(first, 'sku'));
  if (holder) return facts.byId.get(holder.productId) ?? null;
  const slug = cellOf(first, 'slug').toLowerCase();
  if (withOptions && slug && facts.slugProduct.has(slug))
    return facts.byId.get(facts.slugProduct.get(slug) ?? '') ?? null;
  return null;
}

/** Picture URLs to the product's media ids; a URL that is not one of its pictures is a problem. */
function imageIdsOf(urls: readonly string[], product: ProductFull | null, column: string, problems: Problem[]) {
  const ids: string[] = [];
  for (const url of urls) {
    const key = mediaKeyOfUrl(url);
    const hit = key ? product?.images.find((i) => i.url === `/media/${key}`) : undefined;
    if (hit) ids.push(hit.mediaId);
    else
      problems.push({
        column,
        message: key
          ? `${url} is not one of this product's pictures: add it to the product in the editor first.`
          : `${url} is not a picture of this store: upload it to the media library first, then use its address.`,
      });
  }
  return ids;
}

/** The columns of `v` that differ from the stored variant `cur` (those the file has). */
function variantChanges(
  cur: ProductVariantsView['variants'][number],
  curLabels: string[],
  v: ProductCsvVariant,
  values: string[],
  imageIds: string[] | undefined,
): string[] {
  const out: string[] = [];
  values.forEach((label, i) => {
    if ((curLabels[i] ?? '') !== label) out.push(CSV_OPTION_COLUMNS[i]?.[1] ?? 'option1_value');
  });
  if (v.sku !== cur.sku) out.push('sku');
  if (v.barcode !== undefined && v.barcode !== cur.barcode) out.push('barcode');
  if (v.listPrice !== cur.listPrice) out.push('list_price');
  if (v.salePrice !== undefined && v.salePrice !== cur.salePrice) out.push('sale_price');
  if (v.stock !== null && v.stock !== cur.stock) out.push('stock');
  if (v.weightGrams !== undefined && v.weightGrams !== cur.weightGrams) out.push('weight_grams');
  if (v.enabled !== undefined && v.enabled !== cur.enabled) out.push('enabled');
  if (imageIds !== undefined && imageIds.join(' ') !== cur.imageIds.join(' ')) out.push('variant_images');
  return out;
}

const labelsOf = (view: ProductVariantsView, valueIds: readonly string[]) =>
  valueIds.map((id, i) => view.options[i]?.values.find((x) => x.valueId === id)?.label ?? '');

/**
 * One product's plan. A product of one row without option values, and without options in the store,
 * is planned by planRow as before variants (its SKU, prices, weight and stock are the product's);
 * its barcode, enabled flag and pictures are its one variant's. Any other product is planned
 * variant by variant: matched by variant_id, else by SKU; new values and options after the stored
 * ones are added; variants the file leaves out are kept (listed).
 */
export function planProduct(g: ProductGroup, facts: GroupFacts, currency: string): ProductPlan {
  const first = g.rows[0] as DataRow;
  const notUtf8 = g.rows.find((r) => r.notUtf8);
  if (notUtf8) {
    return {
      kind: 'refused',
      rows: g.rows.map((r) => ({
        row: r.row,
        sku: cellOf(r, 'sku') || null,
        problems: r.notUtf8 ? [{ column: r.notUtf8, message: NOT_UTF8 }] : [withProduct(notUtf8.row)],
      })),
    };
  }
  const names = CSV_OPTION_COLUMNS.map(([n]) => cellOf(first, n)).filter(Boolean);
  const anyValues = g.rows.some((r) => CSV_OPTION_COLUMNS.some(([, v]) => cellOf(r, v) !== ''));
  const existing = matchProduct(g, facts, names.length > 0 || anyValues);
  if (g.rows.length === 1 && !anyValues && names.length === 0 && (!existing || existing.view.options.length === 0)) {
    return planSingle(first, existing, facts, currency);
  }
  return planVariants(g, existing, facts, currency, names);
}

const withProduct = (row: number) => ({
  column: 'row',
  message: `Not imported: row ${row} of the same product is refused, and a product's rows are imported together.`,
});

function planSingle(r: DataRow, existing: ProductFull | null, facts: GroupFacts, currency: string): ProductPlan {
  // A SKU another product's variant holds is the writer's refusal (SKU_TAKEN); planRow only meets the product it names.
  const plan = planRow(r, existing, facts, currency);
  if (plan.kind === 'refused') return { kind: 'single', row: r, plan, existing, extra: null };
  const problems: Problem[] = [];
  const v = parseProductCsvVariant(r.cells, currency);
  const imagesCell = r.cells.images;
  if (imagesCell !== undefined && cellOf(r, 'images') !== '') {
    const ids = imageIdsOf(splitImages(imagesCell), existing, 'images', problems);
    if (!problems.length && existing && ids.join(' ') !== existing.images.map((i) => i.mediaId).join(' ')) {
      problems.push({ column: 'images', message: "A product's pictures are changed in the product editor." });
    }
  }
  const urls = v.ok ? v.variant.images : undefined;
  const imageIds = urls ? imageIdsOf(urls, existing, 'variant_images', problems) : undefined;
  if (!v.ok)
    problems.push(
      ...v.problems.filter((x) => !['sku', 'list_price', 'sale_price', 'stock', 'weight_grams'].includes(x.column)),
    );
  if (problems.length)
    return { kind: 'single', row: r, plan: { kind: 'refused', sku: plan.sku, problems }, existing, extra: null };
  if (!v.ok) return { kind: 'single', row: r, plan, existing, extra: null };
  const cur = existing?.view.variants[0];
  // Only the variant's own columns: SKU, prices, weight and stock go through the product (planRow).
  const own: string[] = [];
  if (cur) {
    if (v.variant.barcode !== undefined && v.variant.barcode !== cur.barcode) own.push('barcode');
    if (v.variant.enabled !== undefined && v.variant.enabled !== cur.enabled) own.push('enabled');
    if (imageIds !== undefined && imageIds.join(' ') !== cur.imageIds.join(' ')) own.push('variant_images');
  } else if ((v.variant.barcode ?? null) !== null || v.variant.enabled === false || (imageIds ?? []).length) {
    own.push('barcode');
  }
  const extra: VariantStep | null = own.length
    ? {
        kind: 'update',
        row: r.row,
        sku: v.variant.sku,
        variantId: cur?.variantId ?? '',
        values: [],
        variant: v.variant,
        imageIds: imageIds ?? cur?.imageIds ?? [],
        stockSeen: cur?.stock ?? 0,
        changes: own,
      }
    : null;
  if (extra && plan.kind === 'unchanged') {
    return {
      kind: 'single',
      row: r,
      plan: {
        kind: 'update',
        sku: plan.sku,
        productId: plan.productId,
        fields: existing?.fields as ProductFields,
        stock: null,
        taxClass: null,
        changes: own,
      },
      existing,
      extra,
    };
  }
  if (extra && plan.kind === 'update') plan.changes.push(...own);
  return { kind: 'single', row: r, plan, existing, extra };
}

function planVariants(
  g: ProductGroup,
  existing: ProductFull | null,
  facts: GroupFacts,
  currency: string,
  names: string[],
): ProductPlan {
  const first = g.rows[0] as DataRow;
  const problems = new Map<number, Problem[]>();
  const refuse = (row: number, x: Problem) => problems.set(row, [...(problems.get(row) ?? []), x]);
  // The product's own fields from its first row; SKU, prices and weight are its variants' (the rollup writes them).
  const row: RowPlan = planRow(first, existing, facts, currency);
  let fields: ProductFields | null = null;
  let taxClass: TaxClass | null = null;
  let productChanges: string[] = [];
  if (row.kind === 'refused') {
    for (const x of row.problems)
      if (!['sku', 'list_price', 'sale_price', 'stock', 'weight_grams'].includes(x.column)) refuse(first.row, x);
  } else if (row.kind === 'create' || row.kind === 'update') {
    fields = { ...row.fields };
    taxClass = row.taxClass;
    if (existing) {
      fields.sku = existing.fields.sku;
      fields.listPrice = existing.fields.listPrice;
      fields.salePrice = existing.fields.salePrice;
      fields.weightGrams = existing.fields.weightGrams;
      productChanges = changedProductCsvColumns(existing, fields, existing.categoryIds, null, row.taxClass);
      if (!productChanges.includes('tax_class')) taxClass = null;
      // Only the class changes: the product's other columns are not rewritten (applyVariants writes the class).
      if (productChanges.every((c) => c === 'tax_class')) fields = null;
    }
  }
  if (cellOf(first, 'images') !== '') {
    const imgProblems: Problem[] = [];
    const ids = imageIdsOf(splitImages(cellOf(first, 'images')), existing, 'images', imgProblems);
    if (!imgProblems.length && existing && ids.join(' ') !== existing.images.map((i) => i.mediaId).join(' ')) {
      imgProblems.push({ column: 'images', message: "A product's pictures are changed in the product editor." });
    }
    for (const x of imgProblems) refuse(first.row, x);
  }
  for (const r of g.rows.slice(1))
    for (const x of repeatedProductProblems(first.cells, first.row, r.cells)) refuse(r.row, x);

  // Options: the stored ones come first, unchanged; the file may add values and options after them.
  const stored = existing?.view.options ?? [];
  const keepValues = names.length === 0 && stored.length > 0;
  if (!keepValues) {
    stored.forEach((o, i) => {
      if ((names[i] ?? '').toLowerCase() !== o.name.toLowerCase()) {
        refuse(first.row, {
          column: CSV_OPTION_COLUMNS[i]?.[0] ?? 'option1_name',
          message: `This product's options are ${stored.map((x) => x.name).join(', ')}: options are renamed, reordered or removed in the product editor.`,
        });
      }
    });
  }
  const optionNames = keepValues ? stored.map((o) => o.name) : names;
  const newValues = optionNames.map(() => [] as string[]);
  const view = existing?.view;
  const live = view?.variants.filter((v) => !v.removed) ?? [];
  const matched = new Map<string, number>();
  const combos = new Map<string, number>();
  const steps: VariantStep[] = [];
  for (const r of g.rows) {
    const parsed = parseProductCsvVariant(r.cells, currency);
    if (!parsed.ok) {
      for (const x of parsed.problems) refuse(r.row, x);
      continue;
    }
    const v = parsed.variant;
    const imgProblems: Problem[] = [];
    const imageIds = v.images ? imageIdsOf(v.images, existing, 'variant_images', imgProblems) : undefined;
    for (const x of imgProblems) refuse(r.row, x);
    // Match: variant_id, else SKU, among this product's live variants.
    let cur = v.variantId ? live.find((x) => x.variantId === v.variantId) : undefined;
    if (v.variantId && !cur) {
      refuse(r.row, { column: 'variant_id', message: `${v.variantId} is not a variant of this product.` });
      continue;
    }
    cur ??= live.find((x) => x.sku === v.sku);
    const holder = facts.skuHolder.get(v.sku);
    if (holder && holder.variantId !== cur?.variantId) {
      refuse(r.row, {
        column: 'sku',
        message: `SKU ${v.sku} is already used by ${holder.name} (variant ${holder.variantId}).`,
      });
      continue;
    }
    const values = keepValues && cur && view ? labelsOf(view, cur.valueIds) : v.values;
    if (values.length !== optionNames.length) {
      refuse(r.row, {
        column:
          CSV_OPTION_COLUMNS[Math.min(values.length, optionNames.length)]?.[optionNames.length ? 1 : 0] ??
          'option1_value',
        message: optionNames.length
          ? `Give a value of each option (${optionNames.join(', ')}), in order.`
          : "Name the option on the product's first row (option1_name).",
      });
      continue;
    }
    if (cur) {
      const seen = matched.get(cur.variantId);
      if (seen !== undefined) {
        refuse(r.row, { column: 'variant_id', message: `Row ${seen} already gives this variant.` });
        continue;
      }
      matched.set(cur.variantId, r.row);
    }
    const key = values.map((x) => x.toLowerCase()).join('\u0000');
    const twin = combos.get(key);
    if (twin !== undefined) {
      refuse(r.row, {
        column: 'option1_value',
        message: `Row ${twin} already has ${variantTitle(values) || 'this combination'}.`,
      });
      continue;
    }
    combos.set(key, r.row);
    values.forEach((label, i) => {
      const known = stored[i]?.values.some((x) => x.label.toLowerCase() === label.toLowerCase());
      const list = newValues[i] as string[];
      if (!known && !list.some((x) => x.toLowerCase() === label.toLowerCase())) list.push(label);
    });
    if (cur && view) {
      const changes = variantChanges(cur, labelsOf(view, cur.valueIds), v, values, imageIds);
      steps.push(
        changes.length
          ? {
              kind: 'update',
              row: r.row,
              sku: v.sku,
              variantId: cur.variantId,
              values,
              variant: v,
              imageIds: imageIds ?? cur.imageIds,
              stockSeen: cur.stock,
              changes,
            }
          : { kind: 'unchanged', row: r.row, sku: v.sku, variantId: cur.variantId },
      );
    } else {
      // A new variant whose combination a live one has (not given by another row) would be refused by the writer.
      const taken = live.find(
        (x) =>
          view &&
          !matched.has(x.variantId) &&
          labelsOf(view, x.valueIds)
            .map((l) => l.toLowerCase())
            .join('\u0000') === key,
      );
      if (taken) {
        refuse(r.row, {
          column: 'variant_id',
          message: `${variantTitle(values)} is variant ${taken.variantId} (SKU ${taken.sku}): give its variant_id or its SKU.`,
        });
        continue;
      }
      steps.push({
        kind: 'create',
        row: r.row,
        sku: v.sku,
        title: variantTitle(values),
        variant: v,
        imageIds: imageIds ?? [],
        first: !existing && r === first,
      });
    }
  }
  // The writer refuses a product past its variant limit; the dry run says so first, naming its rows.
  const total = (existing ? live.length : 0) + steps.filter((s) => s.kind === 'create').length;
  if (total > MAX_VARIANTS) {
    const last = g.rows[g.rows.length - 1] as DataRow;
    refuse(first.row, {
      column: 'option1_value',
      message: `${existing?.fields.productName ?? (cellOf(first, 'name') || 'This product')} would have ${total} variants (rows ${first.row} to ${last.row}${existing ? `, with ${live.length} it has` : ''}); a product has at most ${MAX_VARIANTS}.`,
    });
  }
  if (problems.size) {
    return {
      kind: 'refused',
      rows: g.rows.map((r) => ({
        row: r.row,
        sku: cellOf(r, 'sku') || null,
        problems: problems.get(r.row) ?? [withProduct(Math.min(...problems.keys()))],
      })),
    };
  }
  const optionsChange = optionNames.length > stored.length || newValues.some((l) => l.length > 0);
  const options = optionsChange
    ? optionNames.map((name, i) => {
        const o = stored[i];
        return {
          ...(o ? { optionId: o.optionId } : {}),
          name: o?.name ?? name,
          values: [
            ...(o?.values.map((x) => ({
              valueId: x.valueId,
              label: x.label,
              swatchColor: x.swatchColor,
              swatchMediaId: x.swatchMediaId,
            })) ?? []),
            ...(newValues[i] ?? []).map((label) => ({ label })),
          ],
        };
      })
    : null;
  if (optionsChange && existing && !productChanges.includes('options')) productChanges.push('options');
  const leftOut = live
    .filter((x) => !matched.has(x.variantId))
    .map((x) => ({ variantId: x.variantId, sku: x.sku, title: x.title }));
  return {
    kind: 'variants',
    productId: existing?.productId ?? null,
    name: fields?.productName ?? existing?.fields.productName ?? cellOf(first, 'name'),
    fields: existing ? fields : (fields ?? null),
    taxClass,
    productChanges,
    firstRow: first.row,
    options,
    steps,
    leftOut,
  };
}

/** How a plan counts row by row (created, updated, unchanged, refused), as the dry run and the run count. */
export function rowOutcomes(
  plan: ProductPlan,
): { row: number; sku: string; kind: 'created' | 'updated' | 'unchanged'; changes: string[]; name: string }[] {
  if (plan.kind !== 'variants') return [];
  return plan.steps.map((s) => {
    const productChanges = s.row === plan.firstRow ? plan.productChanges : [];
    if (s.kind === 'create') {
      return { row: s.row, sku: s.sku, kind: 'created', changes: [], name: variantDisplayName(plan.name, s.title) };
    }
    const changes = [...productChanges, ...(s.kind === 'update' ? s.changes : [])];
    return { row: s.row, sku: s.sku, kind: changes.length ? 'updated' : 'unchanged', changes, name: plan.name };
  });
}

/** Reads what planProduct compares a batch of products with: one query per table, whatever the batch's size. */
export async function readGroupFacts(
  q: Db | Tx,
  tenantId: string,
  groups: readonly ProductGroup[],
): Promise<GroupFacts> {
  const rows = groups.flatMap((g) => g.rows);
  const uniq = (xs: string[]) => [...new Set(xs.filter(Boolean))];
  const productIds = uniq(groups.map((g) => cellOf(g.rows[0] as DataRow, 'product_id')));
  const variantIds = uniq(rows.map((r) => cellOf(r, 'variant_id')));
  const skus = uniq(rows.map((r) => cellOf(r, 'sku')));
  const slugs = uniq(rows.map((r) => cellOf(r, 'slug').toLowerCase()));
  const held =
    variantIds.length || skus.length
      ? await q
          .select({
            variantId: vr.variantId,
            productId: vr.productId,
            sku: vr.sku,
            title: vr.title,
            name: p.productName,
          })
          .from(vr)
          .innerJoin(p, and(eq(p.tenantId, vr.tenantId), eq(p.productId, vr.productId)))
          .where(
            and(
              eq(vr.tenantId, tenantId),
              isNull(vr.removedAt),
              or(
                variantIds.length ? inArray(vr.variantId, variantIds) : undefined,
                skus.length ? inArray(vr.sku, skus) : undefined,
              ),
            ),
          )
      : [];
  const slugRows = slugs.length
    ? await q
        .select({ slug: p.slug, productId: p.productId })
        .from(p)
        .where(and(eq(p.tenantId, tenantId), inArray(p.slug, slugs)))
    : [];
  const ids = uniq([...productIds, ...held.map((h) => h.productId), ...slugRows.map((s) => s.productId)]);
  const found = ids.length
    ? await q
        .select(FIELD_COLUMNS)
        .from(p)
        .where(and(eq(p.tenantId, tenantId), inArray(p.productId, ids)))
    : [];
  const foundIds = found.map((r) => r.productId as string);
  const [links, options, values, variants, vimages, images, cats] = await Promise.all([
    foundIds.length
      ? q
          .select({ productId: pc.productId, id: pc.productCategoryId })
          .from(pc)
          .where(and(eq(pc.tenantId, tenantId), inArray(pc.productId, foundIds)))
      : [],
    foundIds.length
      ? q
          .select()
          .from(po)
          .where(and(eq(po.tenantId, tenantId), inArray(po.productId, foundIds)))
          .orderBy(asc(po.position))
      : [],
    foundIds.length
      ? q
          .select()
          .from(pov)
          .where(and(eq(pov.tenantId, tenantId), inArray(pov.productId, foundIds)))
          .orderBy(asc(pov.position), asc(pov.valueId))
      : [],
    foundIds.length
      ? q
          .select()
          .from(vr)
          .where(and(eq(vr.tenantId, tenantId), inArray(vr.productId, foundIds), isNull(vr.removedAt)))
          .orderBy(asc(vr.position), asc(vr.variantId))
      : [],
    foundIds.length
      ? q
          .select()
          .from(vi)
          .where(and(eq(vi.tenantId, tenantId), inArray(vi.productId, foundIds)))
          .orderBy(asc(vi.position))
      : [],
    foundIds.length
      ? q
          .select({ productId: pim.productId, mediaId: pim.mediaId, key: md.storageKey })
          .from(pim)
          .innerJoin(md, and(eq(md.tenantId, pim.tenantId), eq(md.mediaId, pim.mediaId)))
          .where(and(eq(pim.tenantId, tenantId), inArray(pim.productId, foundIds)))
          .orderBy(asc(pim.sequenceNum), asc(pim.mediaId))
      : [],
    q.select({ id: c.productCategoryId }).from(c).where(eq(c.tenantId, tenantId)),
  ]);
  const byId = new Map<string, ProductFull>();
  for (const r of found) {
    const id = r.productId as string;
    const state = existingOf(
      r,
      links.filter((l) => l.productId === id).map((l) => l.id),
    );
    const view: ProductVariantsView = {
      productId: id,
      options: options
        .filter((o) => o.productId === id)
        .map((o) => ({
          optionId: o.optionId,
          name: o.name,
          position: o.position,
          values: values
            .filter((v) => v.productId === id && v.optionId === o.optionId)
            .map((v) => ({
              valueId: v.valueId,
              label: v.label,
              swatchColor: v.swatchColor,
              swatchMediaId: v.swatchMediaId,
            })),
        })),
      variants: variants
        .filter((v) => v.productId === id)
        .map((v) => ({
          variantId: v.variantId,
          productId: id,
          title: v.title,
          valueIds: [v.option1ValueId, v.option2ValueId, v.option3ValueId].filter((x): x is string => !!x),
          sku: v.sku,
          barcode: v.barcode,
          listPrice: v.listPrice,
          salePrice: v.salePrice,
          weightGrams: v.weightGrams,
          stock: v.stockQuantity,
          enabled: v.enabled,
          removed: false,
          imageIds: vimages.filter((i) => i.variantId === v.variantId).map((i) => i.mediaId),
        })),
    };
    byId.set(id, {
      ...state,
      view,
      images: images.filter((i) => i.productId === id).map((i) => ({ mediaId: i.mediaId, url: `/media/${i.key}` })),
    });
  }
  const slugHolders = new Map<string, string | null>(
    slugRows.map((s): [string, string | null] => [s.slug, s.productId]),
  );
  return {
    categoryIds: new Set(cats.map((x) => x.id)),
    slugHolders,
    byId,
    variantOwner: new Map(held.filter((h) => variantIds.includes(h.variantId)).map((h) => [h.variantId, h.productId])),
    skuHolder: new Map(
      held.map((h) => [
        h.sku,
        { variantId: h.variantId, productId: h.productId, name: variantDisplayName(h.name, h.title) },
      ]),
    ),
    slugProduct: new Map(slugRows.map((s) => [s.slug, s.productId])),
  };
}
