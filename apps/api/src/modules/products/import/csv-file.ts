/**
 * The uploaded file: streamed to disk with its size checked while it arrives, then read back as
 * data rows (the header checked first), one at a time.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import {
  CSV_OPTION_COLUMNS,
  MAX_VARIANTS,
  PRODUCT_IMPORT_MAX_BYTES,
  type ProductCsvColumn,
  parseProductCsvHeader,
  startsProduct,
} from '@app/contracts';
import { parse } from 'csv-parse';
import { AppError } from '../../../lib/errors';

export type Cells = Partial<Record<ProductCsvColumn, string>>;
export interface DataRow {
  row: number;
  cells: Cells;
  /** A cell that was not UTF-8 (the decoder's replacement character). */
  notUtf8: string | null;
  /** The file has option or variant_id columns (one row per variant); else it is the layout before variants. */
  variantLayout?: boolean;
}

export const newImportId = () => randomBytes(12).toString('base64url');

/** A file upload refused while streaming (too large), or a file that is not the product CSV. */
export const fileError = (status: 413 | 422, message: string) => {
  const err =
    status === 413
      ? new AppError(413, 'PAYLOAD_TOO_LARGE', `file: ${message}`)
      : AppError.field(422, 'VALIDATION_FAILED', 'file', message);
  err.field = 'file';
  err.fieldMessage = message;
  return err;
};

export const tooLarge = () =>
  fileError(413, `The file is larger than ${PRODUCT_IMPORT_MAX_BYTES / 1024 / 1024} MB; split it in parts.`);

/**
 * Writes the upload to `path`, counting bytes as they arrive. Past the limit it stops reading and
 * refuses, without destroying the request: the client still gets the 413 (the route closes the
 * connection after it).
 */
export function writeLimited(body: Readable, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(path);
    let bytes = 0;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      body.pause();
      body.removeListener('data', onData);
      out.destroy();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > PRODUCT_IMPORT_MAX_BYTES) return fail(tooLarge());
      if (!out.write(chunk)) {
        body.pause();
        out.once('drain', () => body.resume());
      }
    };
    body.on('data', onData);
    body.once('error', fail);
    out.once('error', fail);
    body.once('end', () => {
      if (settled) return;
      out.end(() => {
        settled = true;
        resolve(bytes);
      });
    });
  });
}

/** The rows of a stored file, header checked, streamed: memory holds one row, not the file. */
export async function* readRows(path: string, skip = 0): AsyncGenerator<DataRow> {
  const file = createReadStream(path);
  const parser = file.pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 1024 * 1024 }),
  );
  // pipe() does not pass a read error on: a file gone from the folder would be an uncaught 'error'
  // that ends the process. Through the parser it rejects the loop below, and the job fails.
  file.once('error', (err) => parser.destroy(err));
  let columns: ProductCsvColumn[] | null = null;
  let variantLayout = false;
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!columns) {
        const header = parseProductCsvHeader(record);
        if (!header.ok) throw fileError(422, header.problems.map((x) => x.message).join(' '));
        columns = header.columns;
        const variantColumns = new Set<string>(['variant_id', ...CSV_OPTION_COLUMNS.flat()]);
        variantLayout = columns.some((c) => variantColumns.has(c));
        continue;
      }
      row++;
      if (row <= skip) continue;
      const cells: Cells = {};
      let notUtf8: string | null = null;
      columns.forEach((col, i) => {
        const v = record[i] ?? '';
        if (v.includes('\uFFFD')) notUtf8 = col;
        cells[col] = v;
      });
      yield { row, cells, notUtf8, variantLayout };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; lines?: number; message?: string };
    // The owner reads this in the import's error: no server path in it.
    if (e.code === 'ENOENT') throw new Error('the uploaded file is no longer on the server; upload it again');
    if (typeof e.code === 'string' && e.code.startsWith('CSV_')) {
      throw fileError(422, `The file is not valid CSV (near line ${e.lines ?? '?'}): ${e.message ?? e.code}.`);
    }
    throw err;
  } finally {
    parser.destroy();
    file.destroy();
  }
  if (!columns) throw fileError(422, 'The file is empty: it needs a header row, then one row per product.');
}

/**
 * The file's products, each with its rows (decision 112): in the variant layout a row with every
 * product column empty is another variant of the product above; in the layout before variants every
 * row is a product. A product's rows are never split, so a run's batch (and its resume point) holds
 * whole products.
 */
export async function* readGroups(path: string, skip = 0): AsyncGenerator<DataRow[]> {
  let group: DataRow[] = [];
  const named = (r: DataRow | undefined) => {
    const id = (r?.cells.product_id ?? '').trim();
    return id ? `id:${id}` : (r?.cells.slug ?? '').trim() ? `slug:${(r?.cells.slug ?? '').trim().toLowerCase()}` : '';
  };
  // Past the variant limit a product's rows are counted, not kept: the file is refused naming them.
  let over = 0;
  const tooMany = () => {
    const first = group[0] as DataRow;
    const name = (first.cells.name ?? '').trim() || (first.cells.sku ?? '').trim() || 'one product';
    return fileError(
      422,
      `Rows ${first.row} to ${first.row + group.length + over - 1} give ${name} ${group.length + over} variants; a product has at most ${MAX_VARIANTS}. Split them, or start a new product with its product columns.`,
    );
  };
  for await (const r of readRows(path, skip)) {
    // A row naming the same product as the group's first (filled down in a spreadsheet) stays in it.
    const same = named(r) !== '' && named(r) === named(group[0]);
    if (group.length && (!r.variantLayout || (startsProduct(r.cells) && !same))) {
      if (over) throw tooMany();
      yield group;
      group = [];
    }
    if (group.length >= MAX_VARIANTS) over++;
    else group.push(r);
  }
  if (over) throw tooMany();
  if (group.length) yield group;
}
