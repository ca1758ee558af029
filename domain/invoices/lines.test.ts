import { describe, expect, it } from 'vitest';
import { invoiceKind, lineBasis, type InvoiceLineFacts } from './lines.ts';

const format = { money: (amount: number) => `$${amount / 100}`, day: (day: string) => day };
const line = (over: Partial<InvoiceLineFacts>): InvoiceLineFacts => ({
  kind: 'addon',
  billing: 'monthly',
  unitPrice: 10_000,
  count: 2,
  amount: 480_000,
  ...over,
});

describe('invoice lines', () => {
  it('tells a plan’s invoice from an add-on one by its lines', () => {
    expect(invoiceKind([{ kind: 'plan' }, { kind: 'addon' }])).toBe('plan');
    expect(invoiceKind([{ kind: 'addon' }])).toBe('addOns');
    expect(invoiceKind([{ kind: 'termination' }])).toBe('termination');
  });

  it('words a plan order’s lines by the prepaid months, yearly lines by the contract years begun in them', () => {
    expect(lineBasis(line({ kind: 'plan' }), 24, format)).toEqual({
      key: 'invoices.basis.monthly',
      values: { count: 2, price: '$100', months: 24 },
    });
    // The termination fee: the months left in the term at the monthly charge.
    expect(lineBasis(line({ kind: 'termination', unitPrice: 50_000, count: 1, amount: 450_000 }), 9, format)).toEqual({
      key: 'invoices.basis.termination',
      values: { months: 9, price: '$500' },
    });
    expect(lineBasis(line({ billing: 'yearly' }), 12, format)).toMatchObject({
      key: 'invoices.basis.yearly',
      values: { years: 1 },
    });
    expect(lineBasis(line({ billing: 'yearly' }), 18, format)).toMatchObject({
      key: 'invoices.basis.yearly',
      values: { years: 2 },
    });
    expect(lineBasis(line({ billing: 'one_time' }), 24, format)).toEqual({
      key: 'invoices.basis.once',
      values: { count: 2, price: '$100' },
    });
  });

  it('words an add-on’s share by its days, the last one being the day before `to`', () => {
    const share = lineBasis(line({ from: '2026-05-10', to: '2026-06-01' }), 0, format);
    expect(share).toEqual({
      key: 'invoices.basis.shareMonthly',
      values: { count: 2, price: '$100', from: '2026-05-10', to: '2026-05-31' },
    });
    expect(lineBasis(line({ billing: 'yearly', from: '2026-05-10', to: '2027-03-01' }), 0, format)).toMatchObject({
      key: 'invoices.basis.shareYearly',
      values: { to: '2027-02-28' },
    });
    expect(lineBasis(line({}), 0, format)).toEqual({ key: 'invoices.basis.unit', values: { count: 2, price: '$100' } });
  });
});
