import PDFDocument from 'pdfkit';
import { dayOf } from '../../domain/billing/calendar.ts';
import type { Definitions } from '../../domain/entities/index.ts';
import type { RecordOf } from '../../domain/entities/types.ts';
import { formatDay, formatMoney } from '../../domain/format.ts';
import { lineBasis } from '../../domain/invoices/lines.ts';
import { legalNameOf, SELLER_DETAILS } from '../../domain/invoices/sellers.ts';
import { HTML_LANG, type Locale, localized } from '../../domain/locales.ts';
import { isShippingCountry } from '../../domain/orders/countries.ts';
import { settlementRows } from '../../domain/invoices/settlement.ts';
import { invoiceShownStatus } from '../../domain/invoices/status.ts';
import { translate } from '../i18n.ts';
import { familiesFor, type FontWeight, loadFont, type LoadedFont } from './fonts.ts';

type Invoice = RecordOf<Definitions['invoices']>;

export interface InvoicePdfInput {
  invoice: Invoice;
  /** The invoice's order: its number, and the months a plan's order paid ahead (its lines' wording). */
  order: { number: string; prepaidMonths: number } | null;
  /** Who the invoice is billed to when the payment kept no billing address. */
  account: { name: string | null; email: string } | null;
  locale: Locale;
  brand: string;
  contact: { email: string; phone: string };
}

/** The brand's colours (app/app.css): brand-600 for accents, the light theme's ink, muted text, lines and tint. */
const COLOURS = {
  brand: '#187a71',
  ink: '#0f1f1d',
  muted: '#4a5a58',
  line: '#d9e2e0',
  tint: '#effaf8',
  void: '#b42318',
} as const;

/** A4 in points, with the margins every page keeps; the footer sits in the bottom margin. */
const PAGE = { width: 595.28, height: 841.89, left: 48, right: 48, top: 44, bottom: 84 } as const;
const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;
const CONTENT_RIGHT = PAGE.left + CONTENT_WIDTH;
const CONTENT_BOTTOM = PAGE.height - PAGE.bottom;

/** The line table's columns: the description takes what the figures leave. */
const COLUMNS = { quantity: 36, unitPrice: 84, amount: 88, gap: 12 } as const;
const DESCRIPTION_WIDTH = CONTENT_WIDTH - COLUMNS.quantity - COLUMNS.unitPrice - COLUMNS.amount - COLUMNS.gap * 3;

interface TextStyle {
  size: number;
  weight?: FontWeight;
  color?: string;
  width?: number;
  align?: 'left' | 'right' | 'center';
  lineGap?: number;
}

/**
 * Writes text in the document's font family, drawing any character it lacks from the other one
 * (fonts.ts): a run of characters per font, joined with PDFKit's `continued` so lines still wrap.
 */
class Writer {
  readonly doc: PDFKit.PDFDocument;
  private readonly fonts: Record<FontWeight, [LoadedFont, LoadedFont]>;

  constructor(doc: PDFKit.PDFDocument, fonts: Record<FontWeight, [LoadedFont, LoadedFont]>) {
    this.doc = doc;
    this.fonts = fonts;
    // PDFKit takes a font fontkit has parsed (`PDFFontFactory.open`), which its types do not list.
    const register = doc.registerFont.bind(doc) as unknown as (
      name: string,
      font: LoadedFont['font'],
    ) => PDFKit.PDFDocument;
    for (const font of [...fonts.regular, ...fonts.bold]) register(font.name, font.font);
  }

  /** The text cut where the font that draws it changes; the document's own font where neither has a character. */
  private runs(text: string, weight: FontWeight): { font: string; text: string }[] {
    const [own, other] = this.fonts[weight];
    const runs: { font: string; text: string }[] = [];
    for (const char of text) {
      const code = char.codePointAt(0) ?? 0;
      const font =
        own.font.hasGlyphForCodePoint(code) || !other.font.hasGlyphForCodePoint(code) ? own.name : other.name;
      const last = runs.at(-1);
      if (last?.font === font) last.text += char;
      else runs.push({ font, text: char });
    }
    return runs;
  }

  private use(style: TextStyle): void {
    this.doc
      .font(this.fonts[style.weight ?? 'regular'][0].name)
      .fontSize(style.size)
      .fillColor(style.color ?? COLOURS.ink);
  }

  /** Writes text at a point; returns the y below it. */
  text(text: string, x: number, y: number, style: TextStyle): number {
    const options = {
      width: style.width ?? CONTENT_RIGHT - x,
      align: style.align ?? 'left',
      lineGap: style.lineGap ?? 1.5,
    };
    const runs = this.runs(text, style.weight ?? 'regular');
    this.use(style);
    if (runs.length <= 1) {
      this.doc.text(text, x, y, options);
    } else {
      runs.forEach((run, index) => {
        this.doc.font(run.font);
        const continued = index < runs.length - 1;
        if (index === 0) this.doc.text(run.text, x, y, { ...options, continued });
        else this.doc.text(run.text, { ...options, continued });
      });
    }
    return this.doc.y;
  }

  /** The height text takes in a width, measured in the document's own font. */
  height(text: string, style: TextStyle): number {
    this.use(style);
    return this.doc.heightOfString(text, { width: style.width ?? CONTENT_WIDTH, lineGap: style.lineGap ?? 1.5 });
  }

  width(text: string, style: TextStyle): number {
    this.use(style);
    return this.doc.widthOfString(text);
  }

  rule(x1: number, x2: number, y: number, color: string = COLOURS.line, thickness = 0.75): void {
    this.doc.save().moveTo(x1, y).lineTo(x2, y).lineWidth(thickness).strokeColor(color).stroke().restore();
  }
}

/** A country's name in the reader's language: the shop's own five as the site writes them, any other as Intl does. */
function countryName(code: string, locale: Locale): string {
  if (isShippingCountry(code)) return translate(locale, `subscription.countries.${code}`);
  try {
    return new Intl.DisplayNames([HTML_LANG[locale]], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The lines of the billed-to block: the card's billing address, else the account's name and email. */
function billedTo(input: InvoicePdfInput): string[] {
  const address = input.invoice.billingAddress;
  if (!address)
    return input.account
      ? [input.account.name || input.account.email, ...(input.account.name ? [input.account.email] : [])]
      : [];
  const city = [address.city, address.postalCode].filter(Boolean).join(' ');
  const country = countryName(address.country, input.locale);
  // A city that is its country (Hong Kong, Singapore) is not written twice, in either language.
  const sameAsCity = [country, countryName(address.country, 'en')].some(
    (name) => name.toLowerCase() === address.city.trim().toLowerCase(),
  );
  return [
    address.name,
    address.line1,
    ...(address.line2 ? [address.line2] : []),
    city,
    ...(sameAsCity ? [] : [country]),
  ];
}

/**
 * The invoice as an A4 PDF in one language (decision 029): the seller with its registrations, the
 * invoice's facts, who it is billed to and how it was paid, its lines worded as on the portal page,
 * the subtotal, Singapore's GST contained in the total (decision 018), and the total. A void
 * invoice says so at the top and across every page.
 */
export async function invoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const { invoice, locale, brand } = input;
  const [own, other] = familiesFor(locale, invoice.seller);
  const [regular, regularOther, bold, boldOther] = await Promise.all([
    loadFont(own, 'regular'),
    loadFont(other, 'regular'),
    loadFont(own, 'bold'),
    loadFont(other, 'bold'),
  ]);
  const t = (key: string, values?: Record<string, unknown>) => translate(locale, key, { brand, ...values });
  const money = (amount: number) => formatMoney({ amount, currency: invoice.currency }, locale);
  const day = (value: string) => formatDay(value, locale);
  const seller = SELLER_DETAILS[invoice.seller];
  const legalName = legalNameOf(invoice.seller, brand);
  const voided = invoice.status === 'void';
  // A full refund voids the invoice too (decision 069): it says so, and when, in its own words.
  const refundedOn = invoice.refundedAt ? day(dayOf(invoice.refundedAt)) : null;
  const title = t('invoices.pdf.title');

  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.left, right: PAGE.right },
    bufferPages: true,
    lang: HTML_LANG[locale],
    displayTitle: true,
    // Fixed facts, not the moment of rendering: the same invoice makes the same file.
    info: {
      Title: `${title} ${invoice.number}`,
      Author: legalName,
      Subject: invoice.number,
      CreationDate: invoice.issuedAt,
      ModDate: invoice.issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const w = new Writer(doc, { regular: [regular, regularOther], bold: [bold, boldOther] });

  // The header: the brand and the seller on the left, the title and the invoice's facts on the right.
  doc.rect(0, 0, PAGE.width, 6).fill(COLOURS.brand);
  const metaWidth = 230;
  const metaLeft = CONTENT_RIGHT - metaWidth;
  w.text(brand, PAGE.left, PAGE.top, {
    size: 22,
    weight: 'bold',
    color: COLOURS.brand,
    width: metaLeft - PAGE.left - 16,
  });
  w.text(title, metaLeft, PAGE.top, { size: 20, weight: 'bold', width: metaWidth, align: 'right' });
  let left = PAGE.top + 40;
  left = w.text(legalName, PAGE.left, left, { size: 9.5, weight: 'bold', width: metaLeft - PAGE.left - 16 });
  for (const line of localized(seller.address, locale).split('\n'))
    left = w.text(line, PAGE.left, left, { size: 8.5, color: COLOURS.muted, width: metaLeft - PAGE.left - 16 });
  for (const registration of seller.registrations) {
    left = w.text(`${t(`invoices.pdf.registration.${registration.kind}`)} ${registration.number}`, PAGE.left, left, {
      size: 8.5,
      color: COLOURS.muted,
      width: metaLeft - PAGE.left - 16,
    });
  }

  const facts: [string, string, string?][] = [
    [t('invoices.pdf.number'), invoice.number],
    [t('invoices.pdf.date'), day(dayOf(invoice.issuedAt))],
    ...(input.order ? [[t('invoices.pdf.order'), input.order.number] as [string, string]] : []),
    [
      t('invoices.pdf.status'),
      t(`invoices.statuses.${invoiceShownStatus(invoice)}`),
      voided ? COLOURS.void : COLOURS.ink,
    ],
    // Paid: the day beside the status, where a reader looks for it (and again under Payment).
    ...(invoice.paidAt && (!voided || refundedOn)
      ? [[t('invoices.pdf.paidDate'), day(dayOf(invoice.paidAt))] as [string, string]]
      : []),
    ...(refundedOn ? [[t('invoices.pdf.refundedDate'), refundedOn] as [string, string]] : []),
  ];
  let right = PAGE.top + 40;
  for (const [label, value, color] of facts) {
    w.text(label, metaLeft, right, { size: 8.5, color: COLOURS.muted, width: 110 });
    right = Math.max(
      right + 14,
      w.text(value, metaLeft + 110, right, {
        size: 9,
        weight: 'bold',
        color: color ?? COLOURS.ink,
        width: metaWidth - 110,
        align: 'right',
      }),
    );
  }
  let y = Math.max(left, right) + 18;

  if (voided) {
    doc.roundedRect(PAGE.left, y, CONTENT_WIDTH, 26, 4).fill('#fdecea');
    const note = refundedOn ? t('invoices.pdf.refundedNote', { date: refundedOn }) : t('invoices.pdf.voidNote');
    w.text(note, PAGE.left + 10, y + 7.5, {
      size: 9,
      weight: 'bold',
      color: COLOURS.void,
      width: CONTENT_WIDTH - 20,
    });
    y += 26 + 16;
  }

  // Who it is billed to, and how it was paid.
  w.rule(PAGE.left, CONTENT_RIGHT, y);
  y += 14;
  const half = (CONTENT_WIDTH - 24) / 2;
  const column = (x: number, label: string, lines: string[]) => {
    let at = w.text(label, x, y, { size: 8, weight: 'bold', color: COLOURS.brand, width: half }) + 3;
    lines.forEach((line, index) => {
      at = w.text(line, x, at, { size: index === 0 ? 9.5 : 9, weight: index === 0 ? 'bold' : 'regular', width: half });
    });
    return at;
  };
  const payment = [
    ...(invoice.card
      ? [t('invoices.pdf.card', { card: invoice.card.brand.toUpperCase(), last4: invoice.card.last4 })]
      : []),
    ...(invoice.paidAt ? [t('invoices.pdf.paidOn', { date: day(dayOf(invoice.paidAt)) })] : []),
    ...(refundedOn ? [t('invoices.pdf.refundedOn', { date: refundedOn })] : []),
    t('invoices.pdf.currency', { currency: invoice.currency }),
  ];
  y =
    Math.max(
      column(PAGE.left, t('invoices.pdf.billedTo'), billedTo(input)),
      column(PAGE.left + half + 24, t('invoices.pdf.payment'), payment),
    ) + 20;

  // The lines, their header again on each page they run onto.
  const x = {
    description: PAGE.left + 8,
    quantity: PAGE.left + 8 + DESCRIPTION_WIDTH + COLUMNS.gap,
    unitPrice: PAGE.left + 8 + DESCRIPTION_WIDTH + COLUMNS.gap * 2 + COLUMNS.quantity,
    amount: CONTENT_RIGHT - 8 - COLUMNS.amount,
  };
  const tableHeader = () => {
    doc.rect(PAGE.left, y, CONTENT_WIDTH, 22).fill(COLOURS.tint);
    const style = { size: 8, weight: 'bold' as const, color: COLOURS.muted };
    w.text(t('invoices.pdf.description'), x.description, y + 6.5, { ...style, width: DESCRIPTION_WIDTH });
    w.text(t('invoices.pdf.quantity'), x.quantity, y + 6.5, { ...style, width: COLUMNS.quantity, align: 'right' });
    w.text(t('invoices.pdf.unitPrice'), x.unitPrice, y + 6.5, { ...style, width: COLUMNS.unitPrice, align: 'right' });
    w.text(t('invoices.pdf.amount'), x.amount, y + 6.5, { ...style, width: COLUMNS.amount, align: 'right' });
    y += 22 + 8;
  };
  const newPage = () => {
    doc.addPage();
    y = PAGE.top + 8;
  };
  tableHeader();
  const prepaidMonths = input.order?.prepaidMonths ?? 0;
  for (const line of invoice.lines) {
    const name = localized(line.name, locale);
    const basis = lineBasis(line, prepaidMonths, { money, day });
    const detail = t(basis.key, basis.values);
    const nameStyle = { size: 9.5, weight: 'bold' as const, width: DESCRIPTION_WIDTH };
    const detailStyle = { size: 8.5, color: COLOURS.muted, width: DESCRIPTION_WIDTH };
    const height = w.height(name, nameStyle) + 2 + w.height(detail, detailStyle);
    if (y + height + 10 > CONTENT_BOTTOM) {
      newPage();
      tableHeader();
    }
    const top = y;
    const below = w.text(name, x.description, top, nameStyle);
    const end = w.text(detail, x.description, below + 2, detailStyle);
    w.text(String(line.count), x.quantity, top, { size: 9.5, width: COLUMNS.quantity, align: 'right' });
    w.text(money(line.unitPrice), x.unitPrice, top, { size: 9.5, width: COLUMNS.unitPrice, align: 'right' });
    w.text(money(line.amount), x.amount, top, { size: 9.5, weight: 'bold', width: COLUMNS.amount, align: 'right' });
    y = end + 8;
    w.rule(PAGE.left, CONTENT_RIGHT, y);
    y += 8;
  }

  // The totals, kept together under the lines.
  const totals: [string, string][] = [[t('invoices.subtotal'), money(invoice.subtotal)]];
  if (invoice.taxRate > 0)
    totals.push([t('invoices.gstIncluded', { rate: invoice.taxRate / 100 }), money(invoice.tax)]);
  const totalsHeight = totals.length * 18 + 40;
  if (y + totalsHeight > CONTENT_BOTTOM) newPage();
  const totalsWidth = 260;
  const totalsLeft = CONTENT_RIGHT - totalsWidth;
  y += 4;
  for (const [label, value] of totals) {
    w.text(label, totalsLeft, y, { size: 9, color: COLOURS.muted, width: totalsWidth - 110 });
    w.text(value, CONTENT_RIGHT - 110 - 8, y, { size: 9, width: 110, align: 'right' });
    y += 18;
  }
  w.rule(totalsLeft, CONTENT_RIGHT, y, COLOURS.brand, 1.25);
  y += 8;
  w.text(t('invoices.pdf.total', { currency: invoice.currency }), totalsLeft, y + 2, {
    size: 11,
    weight: 'bold',
    width: totalsWidth - 130,
  });
  w.text(money(invoice.total), CONTENT_RIGHT - 130 - 8, y, {
    size: 14,
    weight: 'bold',
    color: voided ? COLOURS.muted : COLOURS.brand,
    width: 130,
    align: 'right',
  });
  // How the total was paid when the account's balance took part (decision 031).
  if (!voided) {
    y += 26;
    for (const row of settlementRows(invoice.total, invoice.balanceApplied)) {
      if (y + 18 > CONTENT_BOTTOM) newPage();
      w.text(t(`invoices.settlement.${row.key}`), totalsLeft, y, {
        size: 9,
        color: COLOURS.muted,
        width: totalsWidth - 110,
      });
      w.text(money(row.amount), CONTENT_RIGHT - 110 - 8, y, { size: 9, width: 110, align: 'right' });
      y += 18;
    }
  }

  // On every page: the footer, and across a void invoice the word itself.
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    if (voided) {
      const stamp = {
        size: 120,
        weight: 'bold' as const,
        color: COLOURS.void,
        width: PAGE.width,
        align: 'center' as const,
        lineGap: 0,
      };
      const word = t(refundedOn ? 'invoices.pdf.refunded' : 'invoices.pdf.void');
      doc
        .save()
        .rotate(-32, { origin: [PAGE.width / 2, PAGE.height / 2] })
        .fillOpacity(0.1);
      w.text(word, 0, (PAGE.height - w.height(word, stamp)) / 2, stamp);
      doc.restore();
    }
    const footer = CONTENT_BOTTOM + 22;
    w.rule(PAGE.left, CONTENT_RIGHT, footer - 8);
    const pageText = t('invoices.pdf.page', { page: index - range.start + 1, pages: range.count });
    const pageWidth = w.width(pageText, { size: 8 }) + 2;
    // Text in the bottom margin would start a new page: the margin is lifted while the footer is written.
    doc.page.margins.bottom = 0;
    w.text(t('invoices.pdf.thanks'), PAGE.left, footer, {
      size: 8,
      weight: 'bold',
      color: COLOURS.muted,
      width: CONTENT_WIDTH - pageWidth - 16,
    });
    w.text(
      t('invoices.pdf.questions', { email: input.contact.email, phone: input.contact.phone }),
      PAGE.left,
      footer + 12,
      { size: 8, color: COLOURS.muted, width: CONTENT_WIDTH - pageWidth - 16 },
    );
    w.text(t('invoices.pdf.electronic'), PAGE.left, footer + 24, {
      size: 7.5,
      color: COLOURS.muted,
      width: CONTENT_WIDTH - pageWidth - 16,
    });
    w.text(pageText, CONTENT_RIGHT - pageWidth, footer, {
      size: 8,
      color: COLOURS.muted,
      width: pageWidth,
      align: 'right',
    });
    doc.page.margins.bottom = PAGE.bottom;
  }
  doc.end();
  return finished;
}
