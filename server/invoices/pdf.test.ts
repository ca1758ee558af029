import { describe, expect, it } from 'vitest';
import type { Definitions } from '../../domain/entities/index.ts';
import type { RecordOf } from '../../domain/entities/types.ts';
import { formatDay, formatMoney } from '../../domain/format.ts';
import { taxFor } from '../../domain/tax.ts';
import { embeddedFonts, pdfText } from '../../tests/pdf-text.ts';
import { translate } from '../i18n.ts';
import { invoicePdf, type InvoicePdfInput } from './pdf.ts';

type Invoice = RecordOf<Definitions['invoices']>;

const plan = {
  key: 'plan',
  kind: 'plan' as const,
  name: { en: 'Restaurant POS Lite', 'zh-hk': '餐廳 POS Lite', 'zh-cn': '餐厅 POS Lite' },
  billing: 'monthly' as const,
  unitPrice: 48_800,
  count: 1,
  amount: 48_800 * 12,
};
const kds = {
  key: 'kds',
  kind: 'addon' as const,
  module: 'kds',
  name: { en: 'Kitchen display', 'zh-hk': '廚房顯示屏', 'zh-cn': '厨房显示屏' },
  billing: 'monthly' as const,
  unitPrice: 9_800,
  count: 2,
  amount: 9_800 * 2 * 12,
};
const lines = [plan, kds];
const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);

const invoice: Invoice = {
  _id: '6650a1b2c3d4e5f6a7b8c9d0',
  number: 'HK-000042',
  seller: 'HK',
  user: 'user',
  order: 'order',
  subscription: 'subscription',
  lines,
  currency: 'HKD',
  subtotal,
  taxRate: 0,
  tax: 0,
  total: subtotal,
  balanceApplied: 0,
  // A Simplified character (这) on a Hong Kong invoice: Noto Sans HK lacks it.
  billingAddress: { name: '陳大文', line1: '尖沙咀彌敦道 12 號 这里', city: 'Hong Kong', country: 'HK' },
  card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
  issuedAt: new Date('2026-05-10T03:00:00Z'),
  // Paid late in the Hong Kong evening, the day before it was issued there (a payment a webhook settled after midnight).
  paidAt: new Date('2026-05-09T15:30:00Z'),
  refundedAt: null,
  status: 'issued',
  createdAt: new Date('2026-05-10T03:00:00Z'),
};

const input = (over: Partial<InvoicePdfInput> = {}): InvoicePdfInput => ({
  invoice,
  order: { number: 'TP-7K2M9QXA', prepaidMonths: 12 },
  account: null,
  locale: 'en',
  brand: 'Tillpoint',
  contact: { email: 'support@tillpoint.example', phone: '+852 3001 2345' },
  ...over,
});

/** Text as extracted, with the line breaks and spaces of the layout taken out. */
const flat = (text: string) => text.replace(/\s+/g, '');

describe('invoice PDF', () => {
  it.each([
    ['en', 'Tax invoice', 'NotoSansHK'],
    ['zh-hk', '稅務發票', 'NotoSansHK'],
    ['zh-cn', '税务发票', 'NotoSansSC'],
  ] as const)('is written in %s, its Chinese text embedded and extractable', async (locale, title, family) => {
    const pdf = await invoicePdf(input({ locale }));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // A subset of each font: tens of kilobytes, not the 7 to 11 MB files.
    expect(pdf.length).toBeLessThan(100_000);
    const { text, pages } = await pdfText(pdf);
    expect(pages).toBe(1);
    // No character drawn as an empty box.
    expect(text).not.toContain('\u0000');
    const words = flat(text);
    for (const expected of [
      title,
      'HK-000042',
      'TP-7K2M9QXA',
      formatMoney({ amount: subtotal, currency: 'HKD' }, locale),
      plan.name[locale],
      kds.name[locale],
      '陳大文',
      '这里',
    ]) {
      expect(words, expected).toContain(flat(expected));
    }
    expect(words).toContain(
      flat(
        translate(locale, 'invoices.basis.monthly', {
          count: 2,
          price: formatMoney({ amount: 9_800, currency: 'HKD' }, locale),
          months: 12,
        }),
      ),
    );
    expect(words).toContain(flat(translate(locale, 'invoices.pdf.registration.br')));
    // The language's own family, and the other one for the character it lacks.
    const fonts = embeddedFonts(pdf);
    expect(fonts.some((font) => font.includes(`${family}-Regular`))).toBe(true);
    expect(fonts.some((font) => font.includes('NotoSansSC-Regular'))).toBe(true);
  });

  it.each(['en', 'zh-hk', 'zh-cn'] as const)(
    'says a paid invoice is paid, and the Hong Kong day it was paid (%s)',
    async (locale) => {
      const words = flat((await pdfText(await invoicePdf(input({ locale })))).text);
      const paidDay = formatDay('2026-05-09', locale);
      expect(words).toContain(
        flat(`${translate(locale, 'invoices.pdf.status')}${translate(locale, 'invoices.statuses.paid')}`),
      );
      expect(words).toContain(flat(`${translate(locale, 'invoices.pdf.paidDate')}${paidDay}`));
      expect(words).toContain(flat(translate(locale, 'invoices.pdf.paidOn', { date: paidDay })));
      expect(words).not.toContain(flat(translate(locale, 'invoices.statuses.issued')));
      // One not paid (none is issued so today) says so: issued, and no day paid.
      const unpaid = flat(
        (await pdfText(await invoicePdf(input({ locale, invoice: { ...invoice, paidAt: null } })))).text,
      );
      expect(unpaid).toContain(
        flat(`${translate(locale, 'invoices.pdf.status')}${translate(locale, 'invoices.statuses.issued')}`),
      );
      expect(unpaid).not.toContain(flat(translate(locale, 'invoices.pdf.paidDate')));
    },
  );

  it('shows Singapore’s GST contained in the total, with the seller’s UEN and GST number', async () => {
    const tax = taxFor('SG', subtotal);
    const sg: Invoice = {
      ...invoice,
      number: 'SG-000007',
      seller: 'SG',
      currency: 'SGD',
      taxRate: tax.taxRate,
      tax: tax.tax,
      billingAddress: {
        name: 'Ann Tan',
        line1: '1 Orchard Road',
        city: 'Singapore',
        postalCode: '238801',
        country: 'SG',
      },
    };
    const words = flat((await pdfText(await invoicePdf(input({ invoice: sg })))).text);
    for (const expected of [
      'Tillpoint Pte. Ltd.',
      'UEN',
      'GST Reg. No.',
      'Includes GST at 9%',
      formatMoney({ amount: tax.tax, currency: 'SGD' }, 'en'),
      formatMoney({ amount: subtotal, currency: 'SGD' }, 'en'),
      'Total (SGD)',
    ]) {
      expect(words, expected).toContain(flat(expected));
    }
    // Hong Kong has no tax line.
    expect(flat((await pdfText(await invoicePdf(input()))).text)).not.toContain('GST');
  });

  it('words an add-on’s share by its days, and a void invoice as void', async () => {
    const share = { ...kds, amount: 13_000, from: '2026-05-10', to: '2026-06-01' };
    const voided: Invoice = { ...invoice, lines: [share], subtotal: 13_000, total: 13_000, status: 'void' };
    const words = flat(
      (
        await pdfText(
          await invoicePdf(
            input({ invoice: voided, order: { number: 'TP-ADDON', prepaidMonths: 0 }, locale: 'zh-hk' }),
          ),
        )
      ).text,
    );
    expect(words).toContain(flat(`${formatDay('2026-05-10', 'zh-hk')} 至 ${formatDay('2026-05-31', 'zh-hk')}`));
    expect(words).toContain(flat(translate('zh-hk', 'invoices.pdf.voidNote')));
    expect(words).toContain(flat(translate('zh-hk', 'invoices.statuses.void')));
  });

  it('words a refunded invoice as refunded, with the day it was paid and the day it was refunded', async () => {
    // Refunded late in the Hong Kong evening of 2 June: the 3rd there.
    const refunded: Invoice = { ...invoice, status: 'void', refundedAt: new Date('2026-06-02T16:30:00Z') };
    for (const locale of ['en', 'zh-cn'] as const) {
      const words = flat((await pdfText(await invoicePdf(input({ invoice: refunded, locale })))).text);
      const day = formatDay('2026-06-03', locale);
      expect(words).toContain(flat(translate(locale, 'invoices.pdf.refundedNote', { date: day })));
      expect(words).toContain(flat(translate(locale, 'invoices.pdf.refundedOn', { date: day })));
      expect(words).toContain(
        flat(translate(locale, 'invoices.pdf.paidOn', { date: formatDay('2026-05-09', locale) })),
      );
      expect(words).toContain(flat(translate(locale, 'invoices.statuses.refunded')));
      expect(words).not.toContain(flat(translate(locale, 'invoices.pdf.voidNote')));
    }
  });

  it('shows how the balance took part: a credit taken off and what the card paid, in the invoice’s language', async () => {
    const money = (amount: number) => formatMoney({ amount, currency: 'HKD' }, 'zh-hk');
    const credited = flat(
      (await pdfText(await invoicePdf(input({ invoice: { ...invoice, balanceApplied: 20_000 }, locale: 'zh-hk' }))))
        .text,
    );
    expect(credited).toContain(flat(`${translate('zh-hk', 'invoices.settlement.fromBalance')}${money(-20_000)}`));
    expect(credited).toContain(
      flat(`${translate('zh-hk', 'invoices.settlement.chargedToCard')}${money(subtotal - 20_000)}`),
    );
    const owed = flat(
      (await pdfText(await invoicePdf(input({ invoice: { ...invoice, balanceApplied: -8_500 } })))).text,
    );
    expect(owed).toContain(flat(`Amount due from before${formatMoney({ amount: 8_500, currency: 'HKD' }, 'en')}`));
    // Paid by the card alone: no such rows.
    expect(flat((await pdfText(await invoicePdf(input()))).text)).not.toContain(
      flat(translate('en', 'invoices.settlement.chargedToCard')),
    );
  });

  it('bills the account when the payment kept no billing address', async () => {
    const words = flat(
      (
        await pdfText(
          await invoicePdf(
            input({
              invoice: { ...invoice, billingAddress: null, card: null },
              account: { name: 'Wing Lee', email: 'wing@example.test' },
            }),
          ),
        )
      ).text,
    );
    expect(words).toContain('WingLee');
    expect(words).toContain('wing@example.test');
    expect(words).not.toContain('4242');
  });

  it('runs onto more pages with the table’s header and a page count on each', async () => {
    const many = Array.from({ length: 30 }, (_, index) => ({ ...kds, key: `kds-${index}` }));
    const long: Invoice = { ...invoice, lines: many, subtotal: kds.amount * 30, total: kds.amount * 30 };
    const { text, pages } = await pdfText(await invoicePdf(input({ invoice: long })));
    expect(pages).toBeGreaterThan(1);
    expect(flat(text)).toContain(flat(`Page ${pages} of ${pages}`));
    expect(text.split('Unit price').length - 1).toBe(pages);
  });

  it('makes the same file from the same invoice', async () => {
    const [first, second] = [
      await invoicePdf(input({ locale: 'zh-hk' })),
      await invoicePdf(input({ locale: 'zh-hk' })),
    ];
    expect(first.equals(second)).toBe(true);
  });
});
