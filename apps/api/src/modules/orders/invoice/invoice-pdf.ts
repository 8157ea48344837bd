import PDFDocument from 'pdfkit';
import {
  clip,
  contrastOnWhite,
  formatCount,
  formatDate,
  moneyText,
  parseRgb,
  type Rgb,
  toWinAnsi,
} from './invoice-text';

export { toWinAnsi } from './invoice-text';

export interface InvoiceData {
  store: {
    name: string;
    addressLines: string[];
    email: string | null;
    phone: string | null;
    hostName: string;
    /** "R, G, B" such as "34, 87, 122"; null or unreadable falls back to dark slate. */
    brandRgb: string | null;
    /** The store's tax registration number (decision 116), printed under its address. */
    taxNumber?: string | null;
  };
  order: {
    orderId: string;
    placedAt: Date;
    statusLabel: string;
    /** ISO 4217 */
    currency: string;
    customer: { name: string; email: string };
    shipTo: string[];
    /** null when the billing address is not known apart from the shipping one. */
    billTo: string[] | null;
    /** e.g. "Visa •••• 4242" or "PayPal" */
    payment: string;
    shippingMethod: string;
    lines: {
      name: string;
      productId: string;
      options: string | null;
      quantity: number;
      unitPriceMinor: number;
      lineTotalMinor: number;
    }[];
    subtotalMinor: number;
    /** A positive amount taken off the subtotal. */
    discountMinor: number;
    promoCode: string | null;
    shippingMinor: number;
    taxMinor: number;
    /** The prices held the tax (decision 116): its row reads "Tax included" and adds nothing. */
    taxIncluded?: boolean;
    totalMinor: number;
    /** Money given back, oldest first: each prints under the total, then what was paid net. */
    /** `taxMinor`: the tax inside the refund (decision 116), printed beside it when there is any. */
    refunds?: { at: Date; reason: string; amountMinor: number; taxMinor?: number }[];
  };
}

type Doc = PDFKit.PDFDocument;

// US Letter in points: most of our stores sell in North America.
const PAGE_W = 612;
const PAGE_H = 792;
const LEFT = 54;
const RIGHT = PAGE_W - 54;
const WIDTH = RIGHT - LEFT;
const TOP = 54;
/** Content stops here; the footer lives below it on every page. */
const CONTENT_BOTTOM = PAGE_H - 76;
const FOOTER_RULE_Y = PAGE_H - 60;

const INK = '#0F172A';
const TEXT = '#334155';
const MUTED = '#64748B';
const RULE = '#E2E8F0';
const HEAD_FILL = '#F1F5F9';
const SLATE: Rgb = [30, 41, 59];

const REGULAR = 'Helvetica';
const BOLD = 'Helvetica-Bold';

// Table columns: right edges of the numbers line up with the totals block below.
const CELL_PAD = 8;
const COL_GAP = 10;
const AMOUNT_W = 84;
const UNIT_W = 84;
const QTY_W = 36;
const AMOUNT_X = RIGHT - CELL_PAD - AMOUNT_W;
const UNIT_X = AMOUNT_X - COL_GAP - UNIT_W;
const QTY_X = UNIT_X - COL_GAP - QTY_W;
const ITEM_X = LEFT + CELL_PAD;
const ITEM_W = QTY_X - COL_GAP - ITEM_X;

/** An email address is shrunk down to this size to stay on one line; smaller, it breaks at the @. */
const MIN_EMAIL_SIZE = 6.5;

/**
 * Render the invoice of one order as a US Letter PDF. Only the standard Helvetica fonts are used
 * (no font files to ship or find), so text is reduced to what WinAnsi can draw first.
 */
export function renderInvoicePdf(data: InvoiceData): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const { store, order } = data;
    const doc = new PDFDocument({
      size: 'LETTER',
      // Bottom margin is small so pdfkit never breaks a page on its own while drawing the footer:
      // every page break is decided here, where the table header can be repeated.
      margins: { top: TOP, left: LEFT, right: PAGE_W - RIGHT, bottom: 16 },
      bufferPages: true,
      displayTitle: true,
      lang: 'en-US',
      // The info dictionary is written as UTF-16, so it keeps the names as typed.
      info: {
        Title: `Invoice for order ${order.orderId} - ${store.name}`,
        Author: store.name,
        Subject: `Invoice for order ${order.orderId}`,
        Creator: store.hostName,
      },
    });
    const chunks: Uint8Array[] = [];
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      new InvoiceLayout(doc, data).draw();
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}

class InvoiceLayout {
  private y = TOP;
  private readonly brand: Rgb;
  /** The brand colour, unless it is too pale to read as text on white. */
  private readonly brandText: Rgb;
  private readonly currency: string;

  constructor(
    private readonly doc: Doc,
    private readonly data: InvoiceData,
  ) {
    this.brand = parseRgb(data.store.brandRgb) ?? SLATE;
    this.brandText = contrastOnWhite(this.brand) >= 3 ? this.brand : SLATE;
    this.currency = data.order.currency;
  }

  draw(): void {
    this.brandBar();
    this.header();
    this.parties();
    this.lineTable();
    this.totals();
    this.footers();
  }

  private brandBar(): void {
    this.doc.rect(0, 0, PAGE_W, 6).fill(this.brand);
  }

  private header(): void {
    const { store, order } = this.data;
    const metaW = 220;
    const metaX = RIGHT - metaW;
    const storeW = metaX - 24 - LEFT;

    let left = TOP;
    left += this.write(store.name, LEFT, left, { font: BOLD, size: 20, color: this.brandText, width: storeW });
    left += 6;
    for (const line of store.addressLines) {
      left += this.write(line, LEFT, left, { size: 9, color: TEXT, width: storeW, lineGap: 1.5 });
    }
    if (store.email)
      left += this.writeEmail(store.email, LEFT, left, { size: 9, color: MUTED, width: storeW, lineGap: 1.5 });
    if (store.phone)
      left += this.write(store.phone, LEFT, left, { size: 9, color: MUTED, width: storeW, lineGap: 1.5 });
    if (store.taxNumber)
      left += this.write(`Tax number ${clip(store.taxNumber, 40)}`, LEFT, left, {
        size: 9,
        color: TEXT,
        width: storeW,
        lineGap: 1.5,
      });

    let right = TOP;
    right += this.write('Invoice', metaX, right, { font: BOLD, size: 20, color: INK, width: metaW, align: 'right' });
    right += 8;
    const meta: [string, string][] = [
      ['Order number', order.orderId],
      ['Order date', formatDate(order.placedAt)],
      ['Status', order.statusLabel],
    ];
    const labelW = 76;
    for (const [label, value] of meta) {
      this.write(label, metaX, right, { size: 9, color: MUTED, width: labelW });
      right +=
        this.write(value, metaX + labelW, right, {
          font: BOLD,
          size: 9,
          color: INK,
          width: metaW - labelW,
          align: 'right',
        }) + 4;
    }

    this.y = Math.max(left, right) + 18;
    this.rule(this.y);
    this.y += 18;
  }

  private parties(): void {
    const { order } = this.data;
    const gap = 24;
    const colW = (WIDTH - 2 * gap) / 3;
    const billTo = order.billTo?.length ? order.billTo : [order.customer.name];
    // The customer's email is printed by writeEmail, never wrapped inside the address.
    const email = order.customer.email;
    const columns: [string, string[]][][] = [
      [['Bill to', [...billTo, email]]],
      [['Ship to', order.shipTo]],
      [
        ['Payment', [order.payment]],
        ['Shipping method', [order.shippingMethod]],
      ],
    ];
    let bottom = this.y;
    columns.forEach((blocks, i) => {
      const x = LEFT + i * (colW + gap);
      let y = this.y;
      blocks.forEach(([title, lines], b) => {
        if (b > 0) y += 10;
        y += this.label(title, x, y, colW) + 4;
        for (const line of lines) {
          const style = { size: 9.5, color: TEXT, width: colW, lineGap: 1.5 };
          y +=
            title === 'Bill to' && line === email ? this.writeEmail(line, x, y, style) : this.write(line, x, y, style);
        }
      });
      bottom = Math.max(bottom, y);
    });
    this.y = bottom + 26;
  }

  private lineTable(): void {
    this.tableHeader();
    for (const line of this.data.order.lines) {
      const name = clip(line.name);
      const options = line.options ? clip(line.options) : null;
      const nameH = this.measure(name, { size: 10, width: ITEM_W, lineGap: 1 });
      const optionsH = options ? 2 + this.measure(options, { size: 8.5, width: ITEM_W, lineGap: 1 }) : 0;
      const rowH = 9 + nameH + optionsH + 9;
      if (this.y + rowH > CONTENT_BOTTOM) {
        this.newPage();
        this.tableHeader();
      }
      const top = this.y + 9;
      this.write(name, ITEM_X, top, { size: 10, color: INK, width: ITEM_W, lineGap: 1 });
      if (options) this.write(options, ITEM_X, top + nameH + 2, { size: 8.5, color: MUTED, width: ITEM_W, lineGap: 1 });
      const num = { size: 10, color: INK, align: 'right' as const };
      this.write(formatCount(line.quantity), QTY_X, top, { ...num, width: QTY_W });
      this.write(this.money(line.unitPriceMinor), UNIT_X, top, { ...num, width: UNIT_W });
      this.write(this.money(line.lineTotalMinor), AMOUNT_X, top, { ...num, width: AMOUNT_W });
      this.y += rowH;
      this.rule(this.y);
    }
  }

  private tableHeader(): void {
    const h = 22;
    this.doc.rect(LEFT, this.y, WIDTH, h).fill(HEAD_FILL);
    const y = this.y + 7.5;
    this.label('Item', ITEM_X, y, ITEM_W);
    this.label('Qty', QTY_X, y, QTY_W, 'right');
    this.label('Unit price', UNIT_X, y, UNIT_W, 'right');
    this.label('Amount', AMOUNT_X, y, AMOUNT_W, 'right');
    this.y += h;
  }

  private totals(): void {
    const { order, store } = this.data;
    const rows: [string, string][] = [['Subtotal', this.money(order.subtotalMinor)]];
    if (order.discountMinor !== 0) {
      const label = order.promoCode ? `Discount (${clip(order.promoCode, 60)})` : 'Discount';
      rows.push([label, this.money(-Math.abs(order.discountMinor))]);
    }
    rows.push(
      ['Shipping', this.money(order.shippingMinor)],
      [order.taxIncluded ? 'Tax included' : 'Tax', this.money(order.taxMinor)],
    );

    const boxW = 250;
    const boxX = RIGHT - CELL_PAD - boxW;
    const valueW = 100;
    const labelW = boxW - valueW - 8;
    // A long promo code wraps its label, so each row is as tall as its label.
    const heights = rows.map(([label]) => Math.max(18, this.measure(label, { size: 10, width: labelW }) + 6));
    const refunds = order.refunds ?? [];
    const refundRows: [string, string][] = refunds.map((r) => [
      `Refunded ${r.at.toISOString().slice(0, 10)}${r.reason ? ` (${clip(r.reason, 60)})` : ''}${
        r.taxMinor ? `, incl. tax ${this.money(r.taxMinor)}` : ''
      }`,
      this.money(-r.amountMinor),
    ]);
    const refundHeights = refundRows.map(([label]) =>
      Math.max(18, this.measure(label, { size: 10, width: labelW }) + 6),
    );
    const refundBlockH = refunds.length ? refundHeights.reduce((a, b) => a + b, 0) + 10 + 22 : 0;
    const blockH = 14 + heights.reduce((a, b) => a + b, 0) + 10 + 22 + refundBlockH;
    // The totals stay together: splitting "Total" from its subtotal would read as a different invoice.
    if (this.y + blockH > CONTENT_BOTTOM) this.newPage();

    let y = this.y + 14;
    const blockTop = y;
    rows.forEach(([label, value], i) => {
      this.write(label, boxX, y, { size: 10, color: TEXT, width: labelW });
      this.write(value, RIGHT - CELL_PAD - valueW, y, { size: 10, color: INK, width: valueW, align: 'right' });
      y += heights[i] ?? 18;
    });
    y += 2;
    this.doc
      .moveTo(boxX, y)
      .lineTo(RIGHT - CELL_PAD, y)
      .lineWidth(1)
      .strokeColor(INK)
      .stroke();
    y += 8;
    this.write('Total', boxX, y, { font: BOLD, size: 12, color: INK, width: labelW });
    this.write(this.money(order.totalMinor), RIGHT - CELL_PAD - valueW, y, {
      font: BOLD,
      size: 12,
      color: INK,
      width: valueW,
      align: 'right',
    });
    y += 22;

    // Refunds follow the total they came out of, and the invoice ends with what the customer paid net.
    if (refunds.length) {
      refundRows.forEach(([label, value], i) => {
        this.write(label, boxX, y, { size: 10, color: TEXT, width: labelW });
        this.write(value, RIGHT - CELL_PAD - valueW, y, { size: 10, color: INK, width: valueW, align: 'right' });
        y += refundHeights[i] ?? 18;
      });
      y += 2;
      this.doc
        .moveTo(boxX, y)
        .lineTo(RIGHT - CELL_PAD, y)
        .lineWidth(1)
        .strokeColor(INK)
        .stroke();
      y += 8;
      const net = order.totalMinor - refunds.reduce((sum, r) => sum + r.amountMinor, 0);
      this.write('Net paid', boxX, y, { font: BOLD, size: 12, color: INK, width: labelW });
      this.write(this.money(net), RIGHT - CELL_PAD - valueW, y, {
        font: BOLD,
        size: 12,
        color: INK,
        width: valueW,
        align: 'right',
      });
      y += 22;
    }

    // The space left of the totals tells the customer where to ask about the order.
    const contact = [store.email, store.phone].filter((c): c is string => Boolean(c));
    if (contact.length) {
      const noteW = boxX - 28 - LEFT;
      let noteY = blockTop;
      noteY += this.label('Questions?', LEFT, noteY, noteW) + 4;
      // The email on a line of its own, so it is never wrapped inside the sentence.
      // A little more leading than elsewhere: the note's lines are a short list beside the totals.
      const note = { size: 9, color: TEXT, width: noteW, lineGap: 2.5 };
      noteY += this.write(`Contact ${store.name} at`, LEFT, noteY, note);
      if (store.email) noteY += this.writeEmail(store.email, LEFT, noteY, note);
      if (store.phone) noteY += this.write(store.email ? `or ${store.phone}` : store.phone, LEFT, noteY, note);
      y = Math.max(y, noteY);
    }
    this.y = y;
  }

  /** Footers go on last, when the page count is known. */
  private footers(): void {
    const { store } = this.data;
    const range = this.doc.bufferedPageRange();
    for (let i = 0; i < range.count; i++) {
      this.doc.switchToPage(range.start + i);
      this.rule(FOOTER_RULE_Y);
      const y = FOOTER_RULE_Y + 9;
      this.write(`Thank you for shopping at ${store.name}`, LEFT, y, { size: 8.5, color: TEXT, width: WIDTH - 120 });
      this.write(store.hostName, LEFT, y + 12, {
        size: 8.5,
        color: MUTED,
        width: WIDTH - 120,
        link: `https://${store.hostName}`,
      });
      this.write(`Page ${i + 1} of ${range.count}`, RIGHT - 110, y, {
        size: 8.5,
        color: MUTED,
        width: 110,
        align: 'right',
      });
    }
  }

  /** Pages after the first carry a short header so a loose sheet still says whose invoice it is. */
  private newPage(): void {
    const { store, order } = this.data;
    this.doc.addPage();
    this.brandBar();
    this.write(store.name, LEFT, TOP, { font: BOLD, size: 11, color: this.brandText, width: WIDTH / 2 });
    this.write(`Invoice for order ${order.orderId} (continued)`, LEFT + WIDTH / 2, TOP + 1.5, {
      size: 9,
      color: MUTED,
      width: WIDTH / 2,
      align: 'right',
    });
    this.y = TOP + 20;
    this.rule(this.y);
    this.y += 14;
  }

  private label(text: string, x: number, y: number, width: number, align: 'left' | 'right' = 'left'): number {
    return this.write(text.toUpperCase(), x, y, {
      font: BOLD,
      size: 7.5,
      color: MUTED,
      width,
      align,
      characterSpacing: 0.6,
    });
  }

  private rule(y: number): void {
    this.doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.75).strokeColor(RULE).stroke();
  }

  private money(amountMinor: number): string {
    return moneyText(amountMinor, this.currency);
  }

  private measure(text: string, o: Omit<TextStyle, 'color'>): number {
    const safe = toWinAnsi(text);
    if (!safe) return 0;
    this.doc.font(o.font ?? REGULAR).fontSize(o.size);
    return this.doc.heightOfString(safe, {
      width: o.width,
      lineGap: o.lineGap ?? 0,
      characterSpacing: o.characterSpacing ?? 0,
    });
  }

  /**
   * An email address, never split inside a word: on one line at the style's size, or shrunk to fit
   * down to MIN_EMAIL_SIZE; longer still, on two lines broken before the @, each part shrunk to fit.
   */
  private writeEmail(email: string, x: number, y: number, o: TextStyle): number {
    const fitted = this.fitSize(email, o);
    if (fitted >= MIN_EMAIL_SIZE) return this.write(email, x, y, { ...o, size: fitted });
    const at = email.lastIndexOf('@');
    if (at <= 0) return this.write(email, x, y, { ...o, size: MIN_EMAIL_SIZE });
    const parts = [email.slice(0, at), email.slice(at)];
    // Both parts at one size (the smaller), so the address still reads as one.
    const size = Math.min(o.size, ...parts.map((part) => this.fitSize(part, o)));
    let h = 0;
    for (const part of parts) h += this.write(part, x, y + h, { ...o, size: Math.max(size, 5) });
    return h;
  }

  /** The largest size, up to the style's, at which `text` fits the style's width on one line. */
  private fitSize(text: string, o: TextStyle): number {
    const safe = toWinAnsi(text);
    this.doc.font(o.font ?? REGULAR).fontSize(o.size);
    const width = this.doc.widthOfString(safe, { characterSpacing: o.characterSpacing ?? 0 });
    if (width <= o.width) return o.size;
    // Width grows with the size; a little room is kept so pdfkit's own wrapping never cuts it.
    return Math.floor(((o.size * o.width) / width) * 0.98 * 4) / 4;
  }

  /** Draws one block of text at an absolute position and returns its height. */
  private write(text: string, x: number, y: number, o: TextStyle): number {
    const safe = toWinAnsi(text);
    if (!safe) return 0;
    const height = this.measure(text, o);
    this.doc
      .font(o.font ?? REGULAR)
      .fontSize(o.size)
      .fillColor(o.color)
      .text(safe, x, y, {
        width: o.width,
        align: o.align ?? 'left',
        lineGap: o.lineGap ?? 0,
        characterSpacing: o.characterSpacing ?? 0,
        ...(o.link ? { link: o.link } : {}),
      });
    return height;
  }
}

interface TextStyle {
  font?: string;
  size: number;
  color: string | Rgb;
  width: number;
  align?: 'left' | 'right';
  lineGap?: number;
  characterSpacing?: number;
  link?: string;
}
