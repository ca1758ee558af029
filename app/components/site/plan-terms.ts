/**
 * The contract each plan type comes with, as message keys (spec section 9: Lite has no contract,
 * Flexi one year; Flexi+ is agreed with the customer). The product pages and the plan page say the same.
 */
const CONTRACT_TERMS: Record<string, string> = {
  lite: 'product.plans.noContract',
  flexi: 'product.plans.oneYear',
  enterprise: 'product.plans.byAgreement',
};

export function contractTermKey(type: string): string {
  return CONTRACT_TERMS[type] ?? 'product.plans.byAgreement';
}
