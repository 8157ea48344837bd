// An order's invoice: its data, the PDF and the worker threads that render it (decision 024).
export { invoiceData } from './invoice-data';
export { createInvoiceRenderer, type InvoiceRenderer } from './invoice-pdf-pool';
