import { describe, expect, it } from 'vitest';
import { settlementRows } from './settlement.ts';

describe('an invoice’s settlement', () => {
  it('shows nothing when the card paid the total', () => {
    expect(settlementRows(68_800, 0)).toEqual([]);
  });

  it('takes a credit off, and the card pays the rest, or nothing', () => {
    expect(settlementRows(68_800, 20_000)).toEqual([
      { key: 'fromBalance', amount: -20_000 },
      { key: 'chargedToCard', amount: 48_800 },
    ]);
    expect(settlementRows(68_800, 68_800)).toEqual([
      { key: 'fromBalance', amount: -68_800 },
      { key: 'chargedToCard', amount: 0 },
    ]);
  });

  it('adds an amount due from before to the card’s charge', () => {
    expect(settlementRows(68_800, -8_500)).toEqual([
      { key: 'earlierDue', amount: 8_500 },
      { key: 'chargedToCard', amount: 77_300 },
    ]);
  });
});
