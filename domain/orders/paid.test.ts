import { describe, expect, it } from 'vitest';
import { isPaidOrder, PAID_ORDER_STATES } from './paid.ts';
import { ORDER_STATES } from './states.ts';

describe('paid orders', () => {
  it('are the paid, provisioning and completed ones', () => {
    expect(ORDER_STATES.filter(isPaidOrder)).toEqual(['paid', 'provisioning', 'completed']);
    expect(PAID_ORDER_STATES.every((state) => isPaidOrder(state))).toBe(true);
  });

  it('leave out what is not paid yet, or any more', () => {
    for (const state of ['draft', 'pending_payment', 'payment_failed', 'expired', 'cancelled', 'refunded', ''])
      expect(isPaidOrder(state)).toBe(false);
  });
});
