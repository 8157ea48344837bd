import { formatMoney } from '@app/contracts';
import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { type InvoiceData, renderInvoicePdf, toWinAnsi } from './invoice-pdf';
import { createInvoiceRenderer } from './invoice-pdf-pool';

type Line = InvoiceData['order']['lines'][number];

function invoice(
  overrides: Partial<InvoiceData['order']> = {},
  store: Partial<InvoiceData['store']> = {},
): InvoiceData {
  const lines: Line[] = overrides.lines ?? [
    {
      name: 'Merino Wool Crew Sweater',
      productId: 'p_1001',
      options: 'Size: M / Colour: Heather Grey',
      quantity: 2,
      unitPriceMinor: 8900,
      lineTotalMinor: 17800,
    },
    {
      name: 'Handmade Ceramic Pour-Over Coffee Dripper with Bamboo Stand and Reusable Stainless Steel Filter',
      productId: 'p_1002',
      options: 'Glaze: Ocean Blue',
      quantity: 1,
      unitPriceMinor: 6450,
      lineTotalMinor: 6450,
    },
    { name: 'Gift wrap', productId: 'p_1004', options: null, quantity: 13, unitPriceMinor: 500, lineTotalMinor: 6500 },
  ];
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotalMinor, 0);
  return {
    store: {
      name: 'Northwind Outfitters',
      addressLines: ['1200 Harbor Way, Suite 300', 'Seattle, WA 98101', 'United States'],
      email: 'support@northwind.example',
      phone: '+1 (206) 555-0142',
      hostName: 'shop.northwind.example',
      brandRgb: '34, 87, 122',
      ...store,
    },
    order: {
      orderId: 'NW-100482',
      placedAt: new Date('2026-11-20T17:05:00Z'),
      statusLabel: 'Paid',
      currency: 'USD',
      customer: { name: 'Jordan Rivera', email: 'jordan.rivera@example.com' },
      shipTo: ['Jordan Rivera', '55 Elm Street, Apt 4B', 'Portland, OR 97205', 'United States'],
      billTo: null,
      payment: 'Visa •••• 4242',
      shippingMethod: 'UPS Ground (3–5 business days)',
      lines,
      subtotalMinor: subtotal,
      discountMinor: 3075,
      promoCode: 'WELCOME10',
      shippingMinor: 895,
      taxMinor: 2466,
      totalMinor: subtotal - 3075 + 895 + 2466,
      ...overrides,
    },
  };
}

interface Item {
  str: string;
  x: number;
  y: number;
}

/** The PDF's text as a reader sees it: per page, each run of text with its position. */
async function readPdf(buffer: Buffer) {
  const pdf = await getDocumentProxy(new Uint8Array(buffer));
  const pages: Item[][] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    const items: Item[] = [];
    for (const item of content.items) {
      if ('str' in item && item.str.trim()) items.push({ str: item.str, x: item.transform[4], y: item.transform[5] });
    }
    pages.push(items);
  }
  const pageText = pages.map((items) => items.map((i) => i.str).join('\n'));
  // pdf.js types the info dictionary as a bare Object.
  const info = (await pdf.getMetadata()).info as Record<string, unknown>;
  return {
    pages,
    info,
    /** All text with wrapped lines joined by spaces, so a wrapped name reads whole. */
    text: pageText.join('\n').replace(/\s+/g, ' '),
    pageText,
    /** The texts printed on the same baseline as `first`, left to right. */
    row(first: string): string[] {
      for (const items of pages) {
        const start = items.find((i) => i.str === first);
        if (start) return items.filter((i) => Math.abs(i.y - start.y) < 0.5).map((i) => i.str);
      }
      return [];
    },
  };
}

/** What a customer reads on the default invoice: store, order, lines, totals, payment. */
async function expectCustomerInvoice(pdf: Buffer, data: InvoiceData) {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  const read = await readPdf(pdf);
  expect(read.pages).toHaveLength(1);
  expect(read.text).toContain('Northwind Outfitters');
  expect(read.text).toContain('NW-100482');
  expect(read.text).toContain('November 20, 2026');
  for (const line of data.order.lines) expect(read.text).toContain(line.name);
  expect(read.text).toContain('Size: M / Colour: Heather Grey');

  // Quantity, unit price and line total sit on the row of their item.
  expect(read.row('Merino Wool Crew Sweater')).toEqual(['Merino Wool Crew Sweater', '2', '$89.00', '$178.00']);
  expect(read.row('Gift wrap')).toEqual(['Gift wrap', '13', '$5.00', '$65.00']);

  expect(read.row('Subtotal')).toEqual(['Subtotal', formatMoney(data.order.subtotalMinor, 'USD')]);
  expect(read.row('Discount (WELCOME10)')).toEqual(['Discount (WELCOME10)', '-$30.75']);
  expect(read.row('Shipping')).toEqual(['Shipping', '$8.95']);
  expect(read.row('Tax')).toEqual(['Tax', '$24.66']);
  const total = formatMoney(data.order.totalMinor, 'USD');
  expect(total).toBe('$310.36');
  expect(read.row('Total')).toEqual(['Total', total]);

  // WinAnsi has the bullet and the en dash: they come out as typed, not as '?'.
  expect(read.text).toContain('Visa •••• 4242');
  expect(read.text).toContain('UPS Ground (3–5 business days)');
  expect(read.text).toContain('jordan.rivera@example.com');
  expect(read.text).toContain('55 Elm Street, Apt 4B');
  expect(read.text).toContain('Thank you for shopping at Northwind Outfitters');
  expect(read.text).toContain('shop.northwind.example');
  expect(read.text).toContain('Page 1 of 1');

  expect(read.info.Title).toBe('Invoice for order NW-100482 - Northwind Outfitters');
  expect(read.info.Author).toBe('Northwind Outfitters');
}

describe('renderInvoicePdf', () => {
  it('renders the invoice a customer reads: store, order, lines, totals, payment', async () => {
    const data = invoice();
    await expectCustomerInvoice(await renderInvoicePdf(data), data);
  });

  it('renders the same invoice in the worker pool, off the event loop', async () => {
    const renderer = createInvoiceRenderer({ workers: 1, queue: 4 });
    try {
      const data = invoice();
      const [pdf, again] = await Promise.all([renderer.render(data), renderer.render(data)]);
      await expectCustomerInvoice(pdf, data);
      await expectCustomerInvoice(again, data);
      expect(renderer.stats()).toEqual({ workers: 1, busy: 0, queued: 0 });
    } finally {
      await renderer.close();
    }
  });

  it('never splits an email address inside a word: whole on one line, or broken only at the @', async () => {
    const shopper = 'alexandra.konstantinopoulou-vanderberg@northwind-outfitters-example.com';
    const medium = 'jordan.rivera.long.name@example-shop.com';
    const store = 'customer.care.and.returns@northwind-outfitters.example';
    for (const [customer, prints] of [
      [shopper, 1],
      [medium, 1],
    ] as const) {
      const read = await readPdf(
        await renderInvoicePdf(invoice({ customer: { name: 'Alexandra K.', email: customer } }, { email: store })),
      );
      // Lines as printed, a line that starts with the @ joined to the one before: then every print reads whole.
      const text = read.pageText.join('\n').replace(/\n@/g, '@');
      const count = (email: string) => text.split(email).length - 1;
      expect(count(customer)).toBe(prints);
      // The store's address: in the header and in the "Questions?" note.
      expect(count(store)).toBe(2);
    }
    // An address that fits once shrunk is not broken at all.
    const read = await readPdf(
      await renderInvoicePdf(invoice({ customer: { name: 'Alexandra K.', email: medium } }, { email: store })),
    );
    expect(read.pages[0]?.some((i) => i.str === medium)).toBe(true);
  });

  it('prints the store tax number under its address, and tax held in the prices as "Tax included" that adds nothing', async () => {
    const plain = await readPdf(await renderInvoicePdf(invoice()));
    expect(plain.text).not.toContain('Tax number');
    const total = invoice().order.subtotalMinor + 895;
    const data = invoice(
      { taxMinor: 2466, taxIncluded: true, discountMinor: 0, promoCode: null, totalMinor: total },
      { taxNumber: 'EIN 12-3456789' },
    );
    const read = await readPdf(await renderInvoicePdf(data));
    expect(read.text).toContain('Tax number EIN 12-3456789');
    expect(read.row('Tax included')).toEqual(['Tax included', '$24.66']);
    expect(read.row('Total')).toEqual(['Total', formatMoney(total, 'USD')]);
  });

  it('leaves out the discount row when there is no discount', async () => {
    const read = await readPdf(await renderInvoicePdf(invoice({ discountMinor: 0, promoCode: null })));
    expect(read.text).not.toContain('Discount');
    expect(read.text).toContain('Subtotal');
  });

  it('continues the table on new pages with its header repeated and numbers every page', async () => {
    const lines: Line[] = Array.from({ length: 60 }, (_, i) => ({
      name: `Item number ${i + 1}`,
      productId: `p_${i}`,
      options: i % 3 === 0 ? 'Colour: Red' : null,
      quantity: 1,
      unitPriceMinor: 1000,
      lineTotalMinor: 1000,
    }));
    const read = await readPdf(await renderInvoicePdf(invoice({ lines, discountMinor: 0, promoCode: null })));
    const count = read.pages.length;
    expect(count).toBeGreaterThan(1);
    expect(read.text).toContain(`Page 2 of ${count}`);
    read.pageText.forEach((text, i) => {
      expect(text).toContain(`Page ${i + 1} of ${count}`);
      expect(text).toContain('UNIT PRICE');
    });
    expect(read.pageText[1]).toContain('Invoice for order NW-100482 (continued)');
    for (const line of lines) expect(read.row(line.name)).toEqual([line.name, '1', '$10.00', '$10.00']);
    // The totals close the last page, after the last line.
    expect(read.pageText.at(-1)).toContain('Item number 60');
    expect(read.pageText.at(-1)).toContain('$600.00');
  });

  it('prints a JPY order without decimals', async () => {
    const lines: Line[] = [
      { name: 'Matcha set', productId: 'p_1', options: null, quantity: 2, unitPriceMinor: 4500, lineTotalMinor: 9000 },
    ];
    const read = await readPdf(
      await renderInvoicePdf(
        invoice({
          currency: 'JPY',
          lines,
          subtotalMinor: 9000,
          discountMinor: 0,
          promoCode: null,
          shippingMinor: 800,
          taxMinor: 900,
          totalMinor: 10700,
        }),
      ),
    );
    expect(read.row('Matcha set')).toEqual(['Matcha set', '2', '¥4,500', '¥9,000']);
    expect(read.row('Total')).toEqual(['Total', '¥10,700']);
    expect(read.text).not.toMatch(/¥[\d,]+\.\d/);
  });

  it('writes the currency code for a symbol the standard font lacks', async () => {
    const read = await readPdf(
      await renderInvoicePdf(invoice({ currency: 'INR', discountMinor: 0, promoCode: null, totalMinor: 123450 })),
    );
    expect(read.row('Total').map((s) => s.replace(/\s/g, ' '))).toEqual(['Total', 'INR 1,234.50']);
    expect(read.text).not.toMatch(/\?[\d,.]+/);
  });

  it('draws accents, typographic punctuation and emoji without throwing', async () => {
    const name = 'Café – “Deluxe” Mug 😀 for Łódź 日本 ❤️';
    const lines: Line[] = [
      {
        name,
        productId: 'p_1',
        options: 'Größe: L — ‘Edition’ €',
        quantity: 1,
        unitPriceMinor: 1200,
        lineTotalMinor: 1200,
      },
    ];
    const pdf = await renderInvoicePdf(
      invoice(
        { lines, customer: { name: 'Zoë 👩‍👩‍👧 Ōtsuka', email: 'zoe@example.com' }, billTo: null },
        { name: 'Café “Étoile”', brandRgb: 'not a colour' },
      ),
    );
    const read = await readPdf(pdf);
    expect(read.text).toContain('Café – “Deluxe” Mug ? for Lódz ?? ?');
    expect(read.text).toContain('Größe: L — ‘Edition’ €');
    expect(read.text).toContain('Zoë ? Otsuka');
    expect(read.text).toContain('Thank you for shopping at Café “Étoile”');
    expect(read.info.Author).toBe('Café “Étoile”');
  });
});

describe('toWinAnsi', () => {
  it('keeps what WinAnsi has and replaces each other visible character with one stand-in', () => {
    expect(toWinAnsi('Visa •••• 4242')).toBe('Visa •••• 4242');
    expect(toWinAnsi('“Deluxe” – €5 … ™')).toBe('“Deluxe” – €5 … ™');
    expect(toWinAnsi('Łódź Straße Ōsaka')).toBe('Lódz Straße Osaka');
    expect(toWinAnsi('a\u2212b\u2011c')).toBe('a-b-c');
    expect(toWinAnsi('👍🏽 ok 👨‍👩‍👧')).toBe('? ok ?');
    expect(toWinAnsi('tab\there\nline\u202fgap')).toBe('tab here line gap');
    expect(toWinAnsi('e\u0301')).toBe('é');
    expect(toWinAnsi('bell\u0007\u0085')).toBe('bell');
  });
});
