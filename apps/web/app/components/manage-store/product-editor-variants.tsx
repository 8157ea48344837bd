import {
  type ProductEditorForm,
  type ProductEditorPageData,
  type ProductVariantsView,
  type VariantGridCell,
  variantGridErrorKey,
} from '@app/contracts';
import { decimalAmount, formatMoney } from '@app/contracts/client';
import { type KeyboardEvent, memo, useCallback, useMemo, useRef, useState } from 'react';
import { Banner } from '../ui/banner';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { FieldError } from '../ui/field';
import { type Errors, list, str } from './product-editor-form';

/**
 * The editor's Options and Variants cards (decision 112): up to three options with ordered values,
 * and a dense grid, one row per variant, saved with the rest of the editor's form. The options post
 * as one JSON field (`gridOptions`); each row's cells are plain inputs (variantSku, variantPrice...),
 * so a row can be edited without JavaScript; with it, options add and remove rows, "Set all" fills a
 * column, and Enter or the arrow keys move up and down a column. Rows are keyed by their values'
 * keys (a value's id, or a key made when it is added), so renaming a value keeps its rows.
 */

export const MAX_OPTIONS = 3;

type Value = { key: string; valueId?: string; label: string; swatchColor: string | null };
type Option = { key: string; optionId?: string; name: string; values: Value[] };
export type GridRow = {
  /** One value key per option, in the options' order. */
  keys: string[];
  variantId?: string;
  sku: string;
  price: string;
  sale: string;
  stock: string;
  stockSeen: string;
  image: string;
  enabled: boolean;
};
type Cell = 'price' | 'sale' | 'sku' | 'stock';
const ERROR_CELL: Record<Cell, VariantGridCell> = { price: 'listPrice', sale: 'salePrice', sku: 'sku', stock: 'stock' };

const NO_PICTURES: { mediaId: string; url: string; altText: string | null }[] = [];
let made = 0;
const newKey = (p: string) => `${p}${++made}`;

/** The grid's state from what was saved (or, after a refused save, from what was posted). */
export function gridState(
  view: ProductVariantsView | null | undefined,
  values: ProductEditorForm,
  currency: string,
): { options: Option[]; rows: GridRow[] } {
  const posted = str(values, 'gridOptions');
  if (posted) {
    try {
      const raw = JSON.parse(posted) as {
        optionId?: string;
        name: string;
        values: { valueId?: string; label: string; swatchColor?: string | null }[];
      }[];
      const options: Option[] = raw.map((o, i) => ({
        key: `o${i}`,
        optionId: o.optionId,
        name: o.name,
        values: o.values.map((v, j) => ({
          key: v.valueId ?? `p${i}-${j}`,
          valueId: v.valueId,
          label: v.label,
          swatchColor: v.swatchColor ?? null,
        })),
      }));
      const at = (name: string) => list(values, name);
      const enabled = new Set(at('variantEnabled'));
      const rows = at('variantRow').map((text, n) => {
        const head = JSON.parse(text) as { variantId?: string; values: string[] };
        return {
          variantId: head.variantId,
          keys: head.values.map(
            (label, i) => options[i]?.values.find((v) => v.label === label)?.key ?? `missing-${i}-${label}`,
          ),
          sku: at('variantSku')[n] ?? '',
          price: at('variantPrice')[n] ?? '',
          sale: at('variantSalePrice')[n] ?? '',
          stock: at('variantStock')[n] ?? '',
          stockSeen: at('variantStockSeen')[n] ?? '',
          image: at('variantImage')[n] ?? '',
          enabled: enabled.has(String(n)),
        };
      });
      return { options, rows };
    } catch {
      // A posted grid that cannot be read is drawn from what was saved.
    }
  }
  if (!view) return { options: [], rows: [blankRow([], str(values, 'listPrice'))] };
  const options: Option[] = view.options.map((o) => ({
    key: o.optionId,
    optionId: o.optionId,
    name: o.name,
    values: o.values.map((v) => ({ key: v.valueId, valueId: v.valueId, label: v.label, swatchColor: v.swatchColor })),
  }));
  const rows = view.variants
    .filter((v) => !v.removed)
    .map((v) => ({
      variantId: v.variantId,
      keys: v.valueIds,
      sku: v.sku,
      price: decimalAmount(v.listPrice, currency),
      sale: v.salePrice == null ? '' : decimalAmount(v.salePrice, currency),
      stock: String(v.stock),
      stockSeen: String(v.stock),
      image: v.imageIds[0] ?? '',
      enabled: v.enabled,
    }));
  return { options, rows };
}

function blankRow(keys: string[], price = ''): GridRow {
  return { keys, sku: '', price, sale: '', stock: '0', stockSeen: '', image: '', enabled: true };
}

/** Every combination of the options' values, as key lists, in the options' order. */
function combinations(options: Option[]): string[][] {
  return options.reduce<string[][]>((acc, o) => acc.flatMap((keys) => o.values.map((v) => [...keys, v.key])), [[]]);
}

/** "$99.00 – $149.00" for the saved enabled variants; one price when they agree. */
export function priceRange(view: ProductVariantsView | null | undefined, currency: string): string | null {
  const prices = (view?.variants ?? []).filter((v) => !v.removed && v.enabled).map((v) => v.salePrice ?? v.listPrice);
  if (!prices.length) return null;
  const lo = Math.min(...prices);
  const hi = Math.max(...prices);
  return lo === hi ? formatMoney(lo, currency) : `${formatMoney(lo, currency)} – ${formatMoney(hi, currency)}`;
}

export function VariantsCards({
  page,
  values,
  errors,
  onOptionsChange,
}: {
  page: ProductEditorPageData;
  values: ProductEditorForm;
  errors: Errors;
  /** Whether the product has options now: its own SKU and price fields then read "set per variant". */
  onOptionsChange: (has: boolean) => void;
}) {
  const { currency, product } = page;
  const initial = useMemo(() => gridState(page.variants, values, currency), [page.variants, values, currency]);
  const [options, setOptions] = useState(initial.options);
  const [rows, setRows] = useState(initial.rows);
  const hadOptions = (page.variants?.options.length ?? 0) > 0;
  const cellErrors = errors as Record<string, string | undefined>;
  const tableRef = useRef<HTMLTableElement>(null);

  const labelOf = useCallback(
    (keys: string[]) => keys.map((k, i) => options[i]?.values.find((v) => v.key === k)?.label ?? '').filter(Boolean),
    [options],
  );

  const changeOptions = (next: Option[], nextRows: GridRow[]) => {
    setOptions(next);
    // Rows in the options' order (all of 2 Ah, then all of 5 Ah), so a column reads as the options do.
    const order = new Map(combinations(next).map((keys, i) => [keys.join('|'), i]));
    const at = (r: GridRow) => order.get(r.keys.join('|')) ?? Number.MAX_SAFE_INTEGER;
    setRows([...nextRows].sort((a, b) => at(a) - at(b)));
    onOptionsChange(next.length > 0);
  };

  const addOption = () => {
    if (options.length >= MAX_OPTIONS) return;
    const value: Value = { key: newKey('v'), label: '', swatchColor: null };
    const next = [...options, { key: newKey('o'), name: '', values: [value] }];
    // Every row takes the new option's first value, as the writer does: the product's variant (or each
    // variant) keeps its SKU, price and stock as the first value's.
    const kept = rows.length ? rows : [blankRow([], str(values, 'listPrice'))];
    changeOptions(
      next,
      kept.map((r) => ({ ...r, keys: [...r.keys, value.key] })),
    );
  };

  const removeOption = (oi: number) => {
    const next = options.filter((_, i) => i !== oi);
    const seen = new Set<string>();
    const nextRows = rows
      .map((r) => ({ ...r, keys: r.keys.filter((_, i) => i !== oi) }))
      .filter((r) => {
        const k = r.keys.join('|');
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
    changeOptions(next, nextRows);
  };

  const moveOption = (oi: number, by: -1 | 1) => {
    const j = oi + by;
    if (j < 0 || j >= options.length) return;
    const swap = <T,>(xs: T[]) => {
      const out = [...xs];
      [out[oi], out[j]] = [out[j] as T, out[oi] as T];
      return out;
    };
    changeOptions(
      swap(options),
      rows.map((r) => ({ ...r, keys: swap(r.keys) })),
    );
  };

  const renameOption = (oi: number, name: string) =>
    setOptions((os) => os.map((o, i) => (i === oi ? { ...o, name } : o)));

  const setValue = (oi: number, key: string, patch: Partial<Value>) =>
    setOptions((os) =>
      os.map((o, i) =>
        i === oi ? { ...o, values: o.values.map((v) => (v.key === key ? { ...v, ...patch } : v)) } : o,
      ),
    );

  const addValue = (oi: number, label: string) => {
    const option = options[oi];
    if (!option || !label.trim()) return;
    if (option.values.some((v) => v.label.toLowerCase() === label.trim().toLowerCase())) return;
    const value: Value = { key: newKey('v'), label: label.trim(), swatchColor: null };
    const next = options.map((o, i) => (i === oi ? { ...o, values: [...o.values, value] } : o));
    // The new value's combinations with every value of the other options become rows.
    const have = new Set(rows.map((r) => r.keys.join('|')));
    const added = combinations(next)
      .filter((keys) => keys[oi] === value.key && !have.has(keys.join('|')))
      .map((keys) => blankRow(keys, rows[0]?.price ?? ''));
    changeOptions(next, [...rows, ...added]);
  };

  const removeValue = (oi: number, key: string) => {
    const option = options[oi];
    if (!option || option.values.length < 2) return;
    const next = options.map((o, i) => (i === oi ? { ...o, values: o.values.filter((v) => v.key !== key) } : o));
    changeOptions(
      next,
      rows.filter((r) => r.keys[oi] !== key),
    );
  };

  const setCell = useCallback((n: number, patch: Partial<GridRow>) => {
    setRows((rs) => rs.map((r, i) => (i === n ? { ...r, ...patch } : r)));
  }, []);

  const setAll = (cell: 'price' | 'sale' | 'stock', value: string) =>
    setRows((rs) => rs.map((r) => ({ ...r, [cell]: value })));

  /** Enter and ArrowDown go down a column, ArrowUp up it; Tab goes along the row, as in a sheet. */
  const onGridKey = useCallback((e: KeyboardEvent<HTMLTableElement>) => {
    const target = e.target as HTMLElement;
    const cell = target.dataset.cell;
    const row = Number(target.dataset.row);
    if (!cell || Number.isNaN(row)) return;
    const by = e.key === 'ArrowDown' || (e.key === 'Enter' && !e.shiftKey) ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (!by || (target instanceof HTMLSelectElement && e.key !== 'Enter')) return;
    e.preventDefault();
    const next = tableRef.current?.querySelector<HTMLElement>(`[data-cell="${cell}"][data-row="${row + by}"]`);
    next?.focus();
    if (next instanceof HTMLInputElement) next.select();
  }, []);

  const postedOptions = JSON.stringify(
    options.map((o) => ({
      ...(o.optionId ? { optionId: o.optionId } : {}),
      name: o.name.trim(),
      values: o.values.map((v) => ({
        ...(v.valueId ? { valueId: v.valueId } : {}),
        label: v.label.trim(),
        ...(v.swatchColor ? { swatchColor: v.swatchColor } : {}),
      })),
    })),
  );
  const pictures = product?.images ?? NO_PICTURES;
  const gridRows = options.length ? rows : [];

  return (
    <>
      <Card
        title="Options"
        description="Up to three ways this product varies, like Finish or Size, each with its values in order."
      >
        <input type="hidden" name="gridOptions" value={postedOptions} />
        {!hadOptions && options.length > 0 && (
          <Banner tone="info" testId="first-option-note">
            With options, each variant has its own SKU, price, sale price and stock: this product's move to its first
            variant, and the product's own fields show the variants' range.
          </Banner>
        )}
        <div className="space-y-3">
          {options.map((o, oi) => (
            <fieldset key={o.key} className="rounded-lg border border-neutral-200 p-3">
              <legend className="sr-only">Option {oi + 1}</legend>
              <div className="flex flex-wrap items-end gap-2">
                <label className="w-full min-w-0 sm:w-auto sm:flex-1">
                  <span className="kit-label">Option {oi + 1} name</span>
                  <input
                    className="kit-input"
                    value={o.name}
                    onChange={(e) => renameOption(oi, e.target.value)}
                    placeholder="Size"
                  />
                </label>
                <Button
                  slim
                  onClick={() => moveOption(oi, -1)}
                  disabled={oi === 0}
                  aria-label={`Move ${o.name || `option ${oi + 1}`} up`}
                >
                  ↑
                </Button>
                <Button
                  slim
                  onClick={() => moveOption(oi, 1)}
                  disabled={oi === options.length - 1}
                  aria-label={`Move ${o.name || `option ${oi + 1}`} down`}
                >
                  ↓
                </Button>
                <Button slim variant="plain" onClick={() => removeOption(oi)}>
                  Remove {o.name || `option ${oi + 1}`}
                </Button>
              </div>
              <ul className="mt-2 flex flex-wrap gap-2">
                {o.values.map((v, vi) => (
                  <li key={v.key} className="flex items-center gap-1 rounded border border-neutral-200 px-1 py-1">
                    <input
                      className="kit-input"
                      style={{ width: '8rem' }}
                      aria-label={`${o.name || `Option ${oi + 1}`} value ${vi + 1}`}
                      value={v.label}
                      onChange={(e) => setValue(oi, v.key, { label: e.target.value })}
                      onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
                    />
                    {v.swatchColor ? (
                      <input
                        type="color"
                        className="h-8 w-8"
                        aria-label={`Swatch colour of ${v.label}`}
                        value={v.swatchColor}
                        onChange={(e) => setValue(oi, v.key, { swatchColor: e.target.value.toLowerCase() })}
                      />
                    ) : (
                      <Button slim variant="plain" onClick={() => setValue(oi, v.key, { swatchColor: '#888888' })}>
                        <span className="sr-only">Add a swatch colour to {v.label}</span>
                        <span aria-hidden="true">Swatch</span>
                      </Button>
                    )}
                    {o.values.length > 1 && (
                      <Button
                        slim
                        variant="icon"
                        aria-label={`Remove ${v.label || `value ${vi + 1}`}`}
                        onClick={() => removeValue(oi, v.key)}
                      >
                        ×
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
              <NewValue option={o.name || `option ${oi + 1}`} onAdd={(label) => addValue(oi, label)} />
            </fieldset>
          ))}
        </div>
        {options.length < MAX_OPTIONS && (
          <Button className="mt-3" onClick={addOption}>
            {options.length ? 'Add another option' : 'Add options like size or colour'}
          </Button>
        )}
      </Card>
      {gridRows.length > 0 && (
        <Card
          title="Variants"
          description={`${gridRows.length} variants. Enter or the arrow keys move down a column; Tab moves along a row.`}
          flush
        >
          {errors.variants && <FieldError id="variants-error" message={errors.variants} testId="error-variants" />}
          <SetAll currency={currency} onSet={setAll} />
          <div className="kit-table-wrap">
            <table ref={tableRef} className="kit-table" onKeyDown={onGridKey}>
              <caption className="sr-only">
                Variants: price, sale price, SKU, stock, picture and whether each is sold
              </caption>
              <thead>
                <tr>
                  <th scope="col">Variant</th>
                  <th scope="col">Price ({currency})</th>
                  <th scope="col">Sale price</th>
                  <th scope="col">SKU</th>
                  <th scope="col">Stock</th>
                  <th scope="col">Picture</th>
                  <th scope="col">Sold</th>
                </tr>
              </thead>
              <tbody>
                {gridRows.map((r, n) => (
                  <VariantRow
                    key={r.keys.join('|')}
                    n={n}
                    row={r}
                    labels={JSON.stringify(labelOf(r.keys))}
                    pictures={pictures}
                    errors={cellErrors}
                    onChange={setCell}
                  />
                ))}
              </tbody>
            </table>
          </div>
          {!product && (
            <p className="kit-hint px-4 pb-3">
              Pictures for variants can be chosen once the product is saved with them.
            </p>
          )}
        </Card>
      )}
    </>
  );
}

function NewValue({ option, onAdd }: { option: string; onAdd: (label: string) => void }) {
  const [text, setText] = useState('');
  const add = () => {
    onAdd(text);
    setText('');
  };
  return (
    <div className="mt-2 flex gap-2">
      <input
        className="kit-input"
        style={{ width: '10rem' }}
        aria-label={`New value of ${option}`}
        placeholder="Add a value"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
      />
      <Button slim onClick={add}>
        Add value
      </Button>
    </div>
  );
}

function SetAll({
  currency,
  onSet,
}: {
  currency: string;
  onSet: (cell: 'price' | 'sale' | 'stock', v: string) => void;
}) {
  const [texts, setTexts] = useState({ price: '', sale: '', stock: '' });
  const items = [
    { cell: 'price', label: `Price for all (${currency})`, button: 'Set all prices' },
    { cell: 'sale', label: 'Sale price for all', button: 'Set all sale prices' },
    { cell: 'stock', label: 'Stock for all', button: 'Set all stock' },
  ] as const;
  return (
    <div className="flex flex-wrap items-end gap-3 px-4 py-3">
      {items.map((it) => (
        <div key={it.cell} className="flex items-end gap-1">
          <label>
            <span className="kit-label">{it.label}</span>
            <input
              className="kit-input"
              style={{ width: '7rem' }}
              inputMode={it.cell === 'stock' ? 'numeric' : 'decimal'}
              value={texts[it.cell]}
              onChange={(e) => setTexts((t) => ({ ...t, [it.cell]: e.target.value }))}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  onSet(it.cell, texts[it.cell].trim());
                }
              }}
            />
          </label>
          <Button slim onClick={() => onSet(it.cell, texts[it.cell].trim())}>
            {it.button}
          </Button>
        </div>
      ))}
    </div>
  );
}

const VariantRow = memo(function VariantRow({
  n,
  row,
  labels: labelsJson,
  pictures,
  errors,
  onChange,
}: {
  n: number;
  row: GridRow;
  /** The row's value labels as JSON: a string, so an unchanged row is not drawn again. */
  labels: string;
  pictures: { mediaId: string; url: string; altText: string | null }[];
  errors: Record<string, string | undefined>;
  onChange: (n: number, patch: Partial<GridRow>) => void;
}) {
  const labels = JSON.parse(labelsJson) as string[];
  const title = labels.join(' / ');
  const err = (c: VariantGridCell) => errors[variantGridErrorKey(n, c)];
  const picture = pictures.find((p) => p.mediaId === row.image);
  const input = (cell: Cell, width: string, mode: 'decimal' | 'numeric' | 'text', name: string, label: string) => {
    const e = err(ERROR_CELL[cell]);
    const id = `variant-${n}-${cell}`;
    return (
      <td>
        <input
          id={id}
          name={name}
          className="kit-input"
          // A fixed width: the table scrolls inside its card rather than squeezing the cells.
          style={{ width, minWidth: width }}
          inputMode={mode}
          aria-label={`${label} of ${title}`}
          aria-invalid={e ? true : undefined}
          aria-describedby={e ? `${id}-error` : undefined}
          data-row={n}
          data-cell={cell}
          value={row[cell]}
          autoCapitalize={cell === 'sku' ? 'none' : undefined}
          spellCheck={cell === 'sku' ? false : undefined}
          onChange={(ev) => onChange(n, { [cell]: ev.target.value })}
        />
        {e && <FieldError id={`${id}-error`} message={e} testId={`error-variants-${n}-${cell}`} />}
      </td>
    );
  };
  return (
    <tr>
      <th scope="row" className="whitespace-nowrap font-medium">
        {title}
        <input
          type="hidden"
          name="variantRow"
          value={JSON.stringify({ ...(row.variantId ? { variantId: row.variantId } : {}), values: labels })}
        />
        <input type="hidden" name="variantStockSeen" value={row.stockSeen} />
        {err('values') && <FieldError id={`variant-${n}-values-error`} message={err('values') as string} />}
      </th>
      {input('price', '6.5rem', 'decimal', 'variantPrice', 'Price')}
      {input('sale', '6.5rem', 'decimal', 'variantSalePrice', 'Sale price')}
      {input('sku', '10rem', 'text', 'variantSku', 'SKU')}
      {input('stock', '5rem', 'numeric', 'variantStock', 'Stock')}
      <td>
        <div className="flex items-center gap-1">
          {picture ? (
            <img src={picture.url} alt="" width={28} height={28} className="h-7 w-7 rounded object-cover" />
          ) : (
            <span aria-hidden="true" className="inline-block h-7 w-7 rounded border border-dashed border-neutral-300" />
          )}
          <select
            name="variantImage"
            className="kit-select"
            style={{ width: '9rem', minWidth: '9rem' }}
            aria-label={`Picture of ${title}`}
            data-row={n}
            data-cell="image"
            value={row.image}
            onChange={(e) => onChange(n, { image: e.target.value })}
          >
            <option value="">No picture</option>
            {pictures.map((p, i) => (
              <option key={p.mediaId} value={p.mediaId}>
                {`Picture ${i + 1}${p.altText ? `: ${p.altText}` : ''}`}
              </option>
            ))}
          </select>
        </div>
        {err('imageIds') && <FieldError id={`variant-${n}-image-error`} message={err('imageIds') as string} />}
      </td>
      <td>
        <input
          type="checkbox"
          name="variantEnabled"
          value={String(n)}
          aria-label={`Sell ${title}`}
          checked={row.enabled}
          onChange={(e) => onChange(n, { enabled: e.target.checked })}
        />
      </td>
    </tr>
  );
});
