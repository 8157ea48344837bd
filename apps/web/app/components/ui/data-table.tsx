/**
 * A table of rows, with optional row selection (Polaris's IndexTable, plainly).
 *
 *   const selection = useRowSelection(rows.map((r) => r.productId));
 *   <DataTable label="Products" rows={rows} rowKey={(r) => r.productId}
 *     columns={[{ header: 'Product', cell: (r) => r.productName },
 *               { header: 'Price', cell: (r) => price(r), align: 'end' }]}
 *     selection={{ ...selection, name: 'productId', form: 'bulk', rowLabel: (r) => r.productName }} />
 *
 * Selection checkboxes are real inputs (`name`, `form`): without JavaScript the ticked rows post with
 * the bulk form; with it the header box selects the page. Put a Pagination under the table.
 *
 * On a phone (below `sm`) a list fits 375 px whole rather than scrolling sideways: keep beside the
 * row's name the one column the row is for (a total, a status, a count's box, its actions), give the
 * other columns `hidden sm:table-cell`, and repeat what they say under the name in an `sm:hidden` line,
 * as the orders, products and inventory lists do. `manage-store-lists-phone.spec.ts` checks each list.
 */
import './kit.css';
import { type ReactNode, useCallback, useMemo, useState } from 'react';

export interface Column<T> {
  /** The header's text (or a visually hidden label for a picture column). */
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: 'start' | 'end';
  /** A width hint or other classes for the cells of this column. */
  className?: string;
  /** The cell is the row's header (its name): a <th scope="row">. */
  rowHeader?: boolean;
}

export interface RowSelection<T> {
  selected: ReadonlySet<string>;
  toggle: (key: string) => void;
  toggleAll: () => void;
  allSelected: boolean;
  /** The checkboxes' name and, when they post with a form outside the table, its id. */
  name: string;
  form?: string;
  rowLabel: (row: T) => string;
}

export function DataTable<T>({
  label,
  rows,
  rowKey,
  columns,
  selection,
  minWidth = '36rem',
  testId,
  focusable = false,
}: {
  /** The table's accessible name (a caption, visually hidden). */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: Column<T>[];
  selection?: RowSelection<T>;
  minWidth?: string;
  testId?: (row: T) => string;
  /**
   * Rows with nothing to focus (a log: text only) still scroll sideways on a phone: the box is then
   * focusable and named, so a keyboard can scroll it (axe: scrollable-region-focusable).
   */
  focusable?: boolean;
}) {
  const end = (c: Column<T>) => (c.align === 'end' ? 'kit-cell--end' : '');
  return (
    <div className="kit-table-wrap" {...(focusable ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}>
      <table className="kit-table" style={{ minWidth }}>
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr>
            {selection && (
              <th scope="col" className="kit-cell--select">
                <input
                  type="checkbox"
                  aria-label={`Select all ${label.toLowerCase()} on this page`}
                  checked={selection.allSelected}
                  onChange={selection.toggleAll}
                />
              </th>
            )}
            {columns.map((c, i) => (
              <th key={i} scope="col" className={`${end(c)} ${c.className ?? ''}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = rowKey(row);
            const checked = selection?.selected.has(key) ?? false;
            return (
              <tr
                key={key}
                aria-selected={selection ? checked : undefined}
                data-testid={testId ? testId(row) : undefined}
              >
                {selection && (
                  <td className="kit-cell--select">
                    <input
                      type="checkbox"
                      name={selection.name}
                      value={key}
                      form={selection.form}
                      checked={checked}
                      onChange={() => selection.toggle(key)}
                      aria-label={`Select ${selection.rowLabel(row)}`}
                    />
                  </td>
                )}
                {columns.map((c, i) =>
                  c.rowHeader ? (
                    <th key={i} scope="row" className={`font-normal ${end(c)} ${c.className ?? ''}`}>
                      {c.cell(row)}
                    </th>
                  ) : (
                    <td key={i} className={`${end(c)} ${c.className ?? ''}`}>
                      {c.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The ticked rows of one page of keys; a new page (other keys) starts with none ticked. */
export function useRowSelection(keys: readonly string[]) {
  const pageKey = keys.join('\u0000');
  const [state, setState] = useState<{ page: string; selected: Set<string> }>({ page: pageKey, selected: new Set() });
  const selected = state.page === pageKey ? state.selected : new Set<string>();
  const allSelected = keys.length > 0 && keys.every((k) => selected.has(k));
  const toggle = useCallback(
    (key: string) =>
      setState((s) => {
        const next = new Set(s.page === pageKey ? s.selected : []);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return { page: pageKey, selected: next };
      }),
    [pageKey],
  );
  const toggleAll = useCallback(
    () =>
      setState({ page: pageKey, selected: allSelected ? new Set() : new Set(pageKey ? pageKey.split('\u0000') : []) }),
    [pageKey, allSelected],
  );
  const clear = useCallback(() => setState({ page: pageKey, selected: new Set() }), [pageKey]);
  return useMemo(
    () => ({ selected: selected as ReadonlySet<string>, toggle, toggleAll, allSelected, clear }),
    [selected, toggle, toggleAll, allSelected, clear],
  );
}
