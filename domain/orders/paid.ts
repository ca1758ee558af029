import type { OrderState } from './states.ts';

/*
 * The states of an order its buyer has paid for: paid, then being provisioned, then done. The
 * purchase flow's payment step, its last page and the portal's add-on upgrade all ask this one
 * question. Apart from the state tables (domain/orders/states.ts), which the browser need not load.
 */
export const PAID_ORDER_STATES = ['paid', 'provisioning', 'completed'] as const satisfies readonly OrderState[];

/** Whether an order in this state has been paid for (a refunded one no longer counts). */
export function isPaidOrder(status: string): boolean {
  return (PAID_ORDER_STATES as readonly string[]).includes(status);
}
