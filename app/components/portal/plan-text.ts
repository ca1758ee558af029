import type { PLAN_TYPES } from '../../../domain/entities/app-templates';
import { formatDate } from '../../../domain/format';
import type { Locale } from '../../../domain/locales';
import type { Billing } from '../../../domain/pricing';

/** The plans' own names (spec: lite, flexi, flexi+), the same in every language. */
export const PLAN_NAMES: Record<(typeof PLAN_TYPES)[number], string> = {
  lite: 'Lite',
  flexi: 'Flexi',
  enterprise: 'Flexi+',
};

/** How a price per billing period is written (`{price} / month`, `/ year`, `once`). */
export const PRICE_KEYS: Record<Billing, string> = {
  monthly: 'dashboard.perMonth',
  yearly: 'dashboard.perYear',
  one_time: 'dashboard.once',
};

/** A Hong Kong calendar day (YYYY-MM-DD) written out in the reader's language. */
export function dayText(day: string, locale: Locale): string {
  return formatDate(`${day}T12:00:00+08:00`, locale);
}
