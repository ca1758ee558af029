/**
 * The results and scale the site claims (spec section 1). Averages reported by merchants, except
 * the cost saving, which is the most reported ("up to"). Numbers only: the words are in locales.
 */
export const RESULTS = {
  /** Sales after switching, as a multiple of sales before. */
  salesMultiple: 2,
  /** Percentage changes after switching. */
  operatingCostsPct: -50,
  staffCostPct: -10,
  workflowEfficiencyPct: 20,
  repeatCustomersPct: 27,
  /** Seconds to take an order with the POS, and taken by hand and keyed in later (typical). */
  secondsPerOrder: 9,
  manualSecondsPerOrder: 45,
} as const;

/** How far the product reaches; each shown as "at least" (`1,100+`) unless `exact`. */
export const SCALE = [
  { key: 'merchants', value: 1100 },
  { key: 'countries', value: 5 },
  { key: 'modules', value: 20 },
  { key: 'features', value: 300 },
  { key: 'delivery', value: 2, exact: true },
] as const;
