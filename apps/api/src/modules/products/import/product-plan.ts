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
import type { DataRow } from './csv-file';
import { cellOf, type GroupFacts, type ProductFull, type ProductGroup } from './product-facts';
import { NOT_UTF8, type Problem, type ProductState, planRow, type RowPlan } from './row-plan';

/**
 * A product's rows together (decision 112, section 5): the file has one row per variant, the
 * product's columns on its first row. `planProduct` is the one plan of a product for the dry run and
 * the run, as planRow is of a row (decision 074): the run writes what it plans, and a product it
 * plans unchanged is not written at all. What the plans read of the store is product-facts.ts.
 */

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
