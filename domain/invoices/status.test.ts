import { describe, expect, it } from 'vitest';
import { invoiceShownStatus } from './status.ts';

describe('what an invoice reads as', () => {
  const paidAt = new Date('2026-05-09T15:30:00Z');

  it('reads paid once paid, issued before', () => {
    expect(invoiceShownStatus({ status: 'issued', paidAt })).toBe('paid');
    expect(invoiceShownStatus({ status: 'issued', paidAt: null })).toBe('issued');
  });

  it('reads void when voided, and refunded when a refund voided it (decision 069)', () => {
    expect(invoiceShownStatus({ status: 'void', paidAt })).toBe('void');
    expect(invoiceShownStatus({ status: 'void', paidAt, refundedAt: new Date('2026-06-02T16:30:00Z') })).toBe(
      'refunded',
    );
  });
});
