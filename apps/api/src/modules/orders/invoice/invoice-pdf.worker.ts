/**
 * A worker thread of the invoice pool (invoice-pdf-pool.ts): it gets an invoice's plain data,
 * renders it with the same code the tests check, and moves the bytes back without a copy.
 */
import { serveJobs } from '../../../lib/worker-pool';
import { type InvoiceData, renderInvoicePdf } from './invoice-pdf';

serveJobs<InvoiceData, Uint8Array>(async (data) => {
  const pdf = await renderInvoicePdf(data);
  // A Buffer may be a view into a larger shared slab; only a buffer of its own can be transferred.
  const own =
    pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : Uint8Array.prototype.slice.call(pdf);
  return { output: own, transfer: [own.buffer as ArrayBuffer] };
});
