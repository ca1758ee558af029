/** A row under an invoice's total: a message key (`invoices.settlement.*`) and its amount in minor units. */
export interface SettlementRow {
  key: 'fromBalance' | 'earlierDue' | 'chargedToCard';
  amount: number;
}

/**
 * How an invoice's total was paid when the account's balance took part (decision 031): a credit
 * paid part or all of it (shown taken off), or an amount due from before was added to the card's
 * charge; then what the card paid. Nothing when the card paid the total, as it does for most.
 */
export function settlementRows(total: number, balanceApplied: number): SettlementRow[] {
  if (balanceApplied === 0) return [];
  const charged = total - balanceApplied;
  return balanceApplied > 0
    ? [
        { key: 'fromBalance', amount: -balanceApplied },
        { key: 'chargedToCard', amount: charged },
      ]
    : [
        { key: 'earlierDue', amount: -balanceApplied },
        { key: 'chargedToCard', amount: charged },
      ];
}
