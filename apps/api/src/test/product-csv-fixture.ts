import { PRODUCT_CSV_COLUMNS, type ProductCsvColumn } from '@app/contracts';

/** Quotes a cell as a spreadsheet would: only when it holds a comma, quote or line break. */
export const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** A CSV file from rows of cells by column name; `columns` defaults to the full format. */
export function csvFile(
  rows: Partial<Record<string, string>>[],
  opts: { columns?: readonly string[]; bom?: boolean; eol?: string } = {},
): string {
  const columns = opts.columns ?? PRODUCT_CSV_COLUMNS;
  const eol = opts.eol ?? '\r\n';
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => csvCell(r[c] ?? '')).join(','))];
  return `${opts.bom ? '\uFEFF' : ''}${lines.join(eol)}${eol}`;
}

export interface ProductCsvFixture {
  csv: string;
  /** The data rows (1 = first after the header) that must be refused, with the column at fault. */
  bad: { row: number; column: ProductCsvColumn }[];
  skus: string[];
}

/**
 * The import's test file: `rows` products with SKUs `<prefix>-0001`..., prices with a
 * decimal point, descriptions with commas, quotes and line breaks, and three bad rows (a price that
 * is not one, an unknown status, a name missing) at rows 50, 100 and 150 when there are that many.
 */
export function productCsvFixture(prefix: string, rows = 200, opts: { bom?: boolean } = {}): ProductCsvFixture {
  const bad: ProductCsvFixture['bad'] = [];
  const skus: string[] = [];
  const data: Partial<Record<ProductCsvColumn, string>>[] = [];
  for (let i = 1; i <= rows; i++) {
    const sku = `${prefix}-${String(i).padStart(4, '0')}`;
    skus.push(sku);
    const cells: Partial<Record<ProductCsvColumn, string>> = {
      sku,
      name: `${prefix} Test Planter ${i}, "Large"`,
      status: 'ACTIVE',
      brand: 'Fixture Co',
      list_price: `${10 + (i % 90)}.${String(i % 100).padStart(2, '0')}`,
      sale_price: i % 5 === 0 ? `${9 + (i % 90)}.50` : '',
      currency: 'USD',
      stock: String(i % 30),
      weight_grams: String(100 + i),
      featured: i % 10 === 0 ? 'true' : 'false',
      short_description: `Row ${i}: sturdy, frost-proof`,
      description: `<p>Planter ${i}, glazed.</p>\n<p>Holds "a lot" of soil.</p>`,
    };
    if (i === 50) {
      cells.list_price = '12,5x';
      bad.push({ row: i, column: 'list_price' });
    } else if (i === 100) {
      cells.status = 'SOMETIMES';
      bad.push({ row: i, column: 'status' });
    } else if (i === 150) {
      cells.name = '';
      bad.push({ row: i, column: 'name' });
    }
    data.push(cells);
  }
  return { csv: csvFile(data, { bom: opts.bom }), bad, skus };
}
