import { describe, expect, it } from 'vitest';
import { invoiceShownStatus } from '../invoices/status.ts';
import { cardBrandName, cardExpired, cardOnFileState } from './payment-options.ts';

describe('the card on file (decision 063)', () => {
  it('has expired once its expiry month has ended, not during it', () => {
    expect(cardExpired({ expMonth: 11, expYear: 2026 }, '2026-11-30')).toBe(false);
    expect(cardExpired({ expMonth: 11, expYear: 2026 }, '2026-12-01')).toBe(true);
    expect(cardExpired({ expMonth: 12, expYear: 2025 }, '2026-01-15')).toBe(true);
    expect(cardExpired({ expMonth: 1, expYear: 2027 }, '2026-12-31')).toBe(false);
  });

  it('pays in one press only when the gateway in use holds it and it has not expired', () => {
    const card = { expMonth: 12, expYear: 2029 };
    expect(cardOnFileState(card, 'sandbox', 'sandbox', '2026-11-29')).toBe('ready');
    expect(cardOnFileState(card, null, 'sandbox', '2026-11-29')).toBe('unavailable');
    expect(cardOnFileState(card, 'sandbox', 'stripe', '2026-11-29')).toBe('unavailable');
    expect(cardOnFileState({ expMonth: 10, expYear: 2026 }, 'stripe', 'stripe', '2026-11-29')).toBe('expired');
  });

  it('names brands as people write them', () => {
    expect(cardBrandName('visa')).toBe('Visa');
    expect(cardBrandName('mastercard')).toBe('Mastercard');
    expect(cardBrandName('amex')).toBe('American Express');
    expect(cardBrandName('unionpay')).toBe('UnionPay');
    expect(cardBrandName('JCB')).toBe('JCB');
    expect(cardBrandName('discover')).toBe('Discover');
  });
});

describe('an invoice’s status as shown', () => {
  it('is void when voided, paid once paid, issued otherwise', () => {
    const paidAt = new Date('2026-11-29T03:00:00Z');
    expect(invoiceShownStatus({ status: 'issued', paidAt })).toBe('paid');
    expect(invoiceShownStatus({ status: 'issued', paidAt: '2026-11-29T03:00:00.000Z' })).toBe('paid');
    expect(invoiceShownStatus({ status: 'issued', paidAt: null })).toBe('issued');
    expect(invoiceShownStatus({ status: 'void', paidAt })).toBe('void');
  });
});
