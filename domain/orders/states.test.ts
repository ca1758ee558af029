import { describe, expect, it } from 'vitest';
import {
  assertMove,
  canMove,
  IllegalMove,
  ORDER_STATES,
  ORDER_TRANSITIONS,
  PAYMENT_STATES,
  PAYMENT_TRANSITIONS,
} from './states.ts';

describe('the order and payment tables', () => {
  it('name a row for every state and only known states as targets', () => {
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...ORDER_STATES].sort());
    expect(Object.keys(PAYMENT_TRANSITIONS).sort()).toEqual([...PAYMENT_STATES].sort());
    for (const targets of Object.values(ORDER_TRANSITIONS))
      for (const to of targets) expect(ORDER_STATES).toContain(to);
    for (const targets of Object.values(PAYMENT_TRANSITIONS))
      for (const to of targets) expect(PAYMENT_STATES).toContain(to);
  });

  it('allow the moves of a purchase, a declined card and its retry', () => {
    for (const [from, to] of [
      ['draft', 'pending_payment'],
      ['pending_payment', 'payment_failed'],
      ['payment_failed', 'pending_payment'],
      ['pending_payment', 'paid'],
      ['paid', 'provisioning'],
      ['provisioning', 'completed'],
      ['completed', 'refunded'],
    ] as const) {
      expect(canMove('order', from, to), `${from} → ${to}`).toBe(true);
    }
    expect(canMove('payment', 'created', 'requires_action')).toBe(true);
    expect(canMove('payment', 'requires_action', 'succeeded')).toBe(true);
    expect(canMove('payment', 'succeeded', 'refunded')).toBe(true);
  });

  it('never move backwards or out of an end state', () => {
    expect(canMove('order', 'paid', 'pending_payment')).toBe(false);
    expect(canMove('order', 'completed', 'paid')).toBe(false);
    expect(canMove('order', 'cancelled', 'pending_payment')).toBe(false);
    expect(canMove('order', 'paid', 'paid')).toBe(false);
    expect(canMove('payment', 'succeeded', 'failed')).toBe(false);
    expect(canMove('payment', 'failed', 'succeeded')).toBe(false);
    expect(canMove('payment', 'processing', 'created')).toBe(false);
  });

  it('know no state outside the table, nor inherited names', () => {
    expect(canMove('order', 'shipped', 'completed')).toBe(false);
    expect(canMove('order', 'toString', 'paid')).toBe(false);
    expect(canMove('order', 'constructor', 'paid')).toBe(false);
  });

  it('throw IllegalMove for a move the table refuses', () => {
    expect(() => assertMove('order', 'pending_payment', 'paid')).not.toThrow();
    expect(() => assertMove('order', 'completed', 'pending_payment')).toThrow(IllegalMove);
    expect(() => assertMove('payment', 'refunded', 'succeeded')).toThrow(
      'The payment cannot move from refunded to succeeded',
    );
  });
});
