/*
 * A member's balance (decision 023): what they have paid against what they have been charged.
 * Each invoice issued is a debit, each payment that went through a credit, a refund a debit again;
 * credits from removed add-ons are credits. Positive: credit, taken off the next charge; negative:
 * an amount due, added to it.
 */

export interface LedgerEntry {
  kind: 'debit' | 'credit';
  /** Minor units, never negative: the kind says which way it goes. */
  amount: number;
  currency: string;
}

export interface Balance {
  currency: string;
  /** Credits less debits: above zero a credit, below zero an amount due. */
  amount: number;
  state: 'credit' | 'due' | 'settled';
}

export function balanceOf(entries: readonly LedgerEntry[], currency: string): Balance {
  let amount = 0;
  for (const entry of entries) {
    if (!Number.isInteger(entry.amount) || entry.amount < 0)
      throw new RangeError(`Not an amount in minor units: ${entry.amount}`);
    if (entry.currency !== currency) throw new RangeError(`A ${entry.currency} entry in a ${currency} ledger`);
    amount += entry.kind === 'credit' ? entry.amount : -entry.amount;
  }
  return { currency, amount, state: amount > 0 ? 'credit' : amount < 0 ? 'due' : 'settled' };
}

/** What the next charge takes: the recurring amount, less a credit (down to zero) or plus what is due. */
export function nextChargeAmount(recurring: number, balance: Balance): number {
  return Math.max(recurring - balance.amount, 0);
}

/** The ledger of the stored records: issued invoices, payments by their outcome, and the balance's own entries (a removed add-on's credit). */
export function ledgerOf(
  invoices: readonly { total: number; currency: string; status: string }[],
  payments: readonly { amount: number; currency: string; status: string }[],
  entries: readonly LedgerEntry[] = [],
): LedgerEntry[] {
  return [
    ...entries.map((entry): LedgerEntry => ({ kind: entry.kind, amount: entry.amount, currency: entry.currency })),
    ...invoices
      .filter((invoice) => invoice.status === 'issued')
      .map((invoice): LedgerEntry => ({ kind: 'debit', amount: invoice.total, currency: invoice.currency })),
    ...payments
      .filter((payment) => payment.status === 'succeeded' || payment.status === 'refunded')
      // A refunded payment was received and given back: it leaves nothing paid.
      .flatMap((payment): LedgerEntry[] =>
        payment.status === 'succeeded'
          ? [{ kind: 'credit', amount: payment.amount, currency: payment.currency }]
          : [
              { kind: 'credit', amount: payment.amount, currency: payment.currency },
              { kind: 'debit', amount: payment.amount, currency: payment.currency },
            ],
      ),
  ];
}
