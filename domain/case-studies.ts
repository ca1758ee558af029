/**
 * The case studies of the public site (spec section 1: food, education, retail, service; one
 * with 8 stores). Their text lives in the locale files under `cases.<id>`; here only what links
 * them to the catalogue.
 */
export interface CaseStudy {
  id: 'food' | 'education' | 'retail' | 'service';
  /** The industry (by key) whose use-case page shows the story. */
  industryKey: string;
  /** Number of stores, when the story is about a chain. */
  stores?: number;
}

export const CASE_STUDIES: readonly CaseStudy[] = [
  { id: 'food', industryKey: 'restaurant', stores: 8 },
  { id: 'education', industryKey: 'education' },
  { id: 'retail', industryKey: 'retail' },
  { id: 'service', industryKey: 'beauty-wellness' },
];

export function caseStudy(id: string | undefined): CaseStudy | undefined {
  return CASE_STUDIES.find((study) => study.id === id);
}

/** Industry order 0 (restaurants) leads to the restaurant POS page; any other to the store POS page. */
export function productPageFor(industryOrder: number): 'Restaurant' | 'Store' {
  return industryOrder === 0 ? 'Restaurant' : 'Store';
}
