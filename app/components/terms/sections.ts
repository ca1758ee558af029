/**
 * The terms document's outline: section anchors in order and how many paragraphs each has
 * (`terms.sections.<id>.p1` … `pN` in the locales; the translator has no arrays).
 */
export const TERMS_SECTIONS = [
  { id: 'definitions', paragraphs: 1 },
  { id: 'subscription', paragraphs: 4 },
  { id: 'fees', paragraphs: 4 },
  { id: 'payments', paragraphs: 4 },
  { id: 'hardware', paragraphs: 3 },
  { id: 'support', paragraphs: 2 },
  { id: 'dataProtection', paragraphs: 4 },
  { id: 'acceptableUse', paragraphs: 3 },
  { id: 'termination', paragraphs: 4 },
  { id: 'liability', paragraphs: 3 },
  { id: 'law', paragraphs: 2 },
  { id: 'contact', paragraphs: 2 },
] as const;

export type TermsSectionId = (typeof TERMS_SECTIONS)[number]['id'];

/** The defined words, in the order of the definitions list. */
export const TERMS_DEFINITIONS = [
  'us',
  'merchant',
  'service',
  'plan',
  'paymentService',
  'hardware',
  'workingDay',
] as const;

/** When the text last changed in substance: shown on the page and worth a notice to merchants. */
export const TERMS_UPDATED = '2026-11-02';

export function paragraphKeys(section: { id: string; paragraphs: number }): string[] {
  return Array.from({ length: section.paragraphs }, (_, index) => `terms.sections.${section.id}.p${index + 1}`);
}
