import { COUNTER_MAX, DEFAULT_PREPAID_MONTHS } from './pricing.ts';

/** The calculator's choices, as they travel in the page's URL so a choice survives a reload and can be shared. */
export interface CalculatorChoice {
  industry: string | null;
  /** Add-on module keys with their counts (1 for plain modules). */
  addOns: Map<string, number>;
  months: number;
}

export const PREPAID_OPTIONS = [12, 24, 36] as const;

function clampCount(value: unknown): number {
  const n = Number(value);
  if (!Number.isFinite(n)) return 1;
  return Math.min(Math.max(Math.round(n), 1), COUNTER_MAX);
}

/**
 * Reads `?industry=restaurant&addons=kds:2,loyalty&months=24`, and the plain form's fields
 * (`addon=kds&count-kds=2`) that a browser without JavaScript sends. Anything malformed falls
 * back to a default rather than failing the page.
 */
export function parseChoice(params: URLSearchParams): CalculatorChoice {
  const addOns = new Map<string, number>();
  const add = (key: string, count: unknown) => {
    if (/^[a-z0-9-]{1,64}$/.test(key)) addOns.set(key, clampCount(count));
  };
  for (const part of (params.get('addons') ?? '').split(',').filter(Boolean)) {
    const [key = '', count = '1'] = part.split(':');
    add(key, count);
  }
  for (const key of params.getAll('addon')) add(key, params.get(`count-${key}`) ?? 1);
  const months = Number(params.get('months'));
  return {
    industry: params.get('industry')?.slice(0, 64) || null,
    addOns,
    months: (PREPAID_OPTIONS as readonly number[]).includes(months) ? months : DEFAULT_PREPAID_MONTHS,
  };
}

/** The canonical query for a choice (what the page writes back to the address bar). */
export function choiceQuery(choice: CalculatorChoice): string {
  const params = new URLSearchParams();
  if (choice.industry) params.set('industry', choice.industry);
  const addOns = [...choice.addOns].map(([key, count]) => (count > 1 ? `${key}:${count}` : key)).join(',');
  if (addOns) params.set('addons', addOns);
  if (choice.months !== DEFAULT_PREPAID_MONTHS) params.set('months', String(choice.months));
  return params.toString();
}

/**
 * Where "Subscribe to this plan" starts the subscription flow from: the choice and the plan it
 * was made on (`plan=<template key>`), so the flow opens with all of it chosen.
 */
export function subscriptionQuery(choice: CalculatorChoice, planKey: string | null | undefined): string {
  const query = choiceQuery(choice);
  if (!planKey) return query;
  const plan = new URLSearchParams({ plan: planKey }).toString();
  return query ? `${query}&${plan}` : plan;
}
