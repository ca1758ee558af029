import { describe, expect, it } from 'vitest';
import { balanceOf, ledgerOf, nextChargeAmount } from './ledger.ts';

describe('balance ledger', () => {
  it('is settled when every invoice is paid', () => {
    const entries = ledgerOf(
      [{ total: 1651200, currency: 'HKD', status: 'issued' }],
      [{ amount: 1651200, currency: 'HKD', status: 'succeeded' }],
    );
    expect(balanceOf(entries, 'HKD')).toEqual({ currency: 'HKD', amount: 0, state: 'settled' });
  });

  it('owes what is invoiced and not paid; a failed payment pays nothing, a void invoice charges nothing', () => {
    const entries = ledgerOf(
      [
        { total: 68800, currency: 'HKD', status: 'issued' },
        { total: 50000, currency: 'HKD', status: 'void' },
      ],
      [{ amount: 68800, currency: 'HKD', status: 'failed' }],
    );
    const balance = balanceOf(entries, 'HKD');
    expect(balance).toEqual({ currency: 'HKD', amount: -68800, state: 'due' });
    expect(nextChargeAmount(68800, balance)).toBe(137600);
  });

  it('a refund takes the payment back', () => {
    const entries = ledgerOf(
      [{ total: 1000, currency: 'SGD', status: 'issued' }],
      [{ amount: 1000, currency: 'SGD', status: 'refunded' }],
    );
    expect(balanceOf(entries, 'SGD').amount).toBe(-1000);
  });

  it('a credit comes off the next charge, never below zero', () => {
    const credit = balanceOf([{ kind: 'credit', amount: 24171, currency: 'HKD' }], 'HKD');
    expect(credit.state).toBe('credit');
    expect(nextChargeAmount(68800, credit)).toBe(44629);
    expect(nextChargeAmount(10000, credit)).toBe(0);
  });

  it('refuses mixed currencies and amounts that are not minor units', () => {
    expect(() => balanceOf([{ kind: 'credit', amount: 1, currency: 'SGD' }], 'HKD')).toThrow(RangeError);
    expect(() => balanceOf([{ kind: 'debit', amount: -1, currency: 'HKD' }], 'HKD')).toThrow(RangeError);
    expect(() => balanceOf([{ kind: 'debit', amount: 0.5, currency: 'HKD' }], 'HKD')).toThrow(RangeError);
  });
});
