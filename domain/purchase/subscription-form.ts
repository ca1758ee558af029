import { parseChoice } from '../calculator.ts';
import { COUNTER_MAX, DEFAULT_PREPAID_MONTHS } from '../pricing.ts';
import { PREPAID_OPTIONS } from '../calculator.ts';
import { RECORD_ID } from '../record-id.ts';
import { EMPTY_SHIPPING, readShipping, type ShippingInfo } from '../forms/shipping-fields.ts';
import { BILLING_PERIODS, type BillingPeriod } from '../orders/request.ts';

/**
 * The subscription flow's state (the spec's `subscriptionForm`), kept in the browser's
 * localStorage so it survives a reload, the back button and a sign-in in the middle. Ids are the
 * catalogue's record ids (what the `quotes` and `orders` services take); the prices are never
 * stored: the page prices the choice from its catalogue, the server again at order time.
 */
export const SUBSCRIPTION_FORM_KEY = 'subscriptionForm';

/** The flow's steps, in order, as they appear in `?step=`. */
export const STEPS = ['industry', 'plan', 'addons', 'summary', 'shipping', 'account', 'verify', 'payment'] as const;
export type Step = (typeof STEPS)[number];

export type ChosenAddOn = {
  /** The add-on module's id. */
  id: string;
  /** Devices for a counter module (1 to 10); 1 for the others. */
  count: number;
};

export interface PlanInfo {
  /** The plan template's id. */
  planId: string | null;
  addOns: ChosenAddOn[];
  prepaidMonths: number;
  /** How the plan is billed once the prepaid months are over: every month, or every year (decision 018, addendum). */
  period: BillingPeriod;
}

export interface SubscriptionForm {
  industryId: string | null;
  planInfo: PlanInfo;
  shippingInfo: ShippingInfo;
  /** Sent with the order: the same key for the same order content, a fresh one once it changes. */
  idempotencyKey: string;
  /** The order made from this content, once the orders service answered. */
  orderId?: string;
}

export function isStep(value: unknown): value is Step {
  return typeof value === 'string' && (STEPS as readonly string[]).includes(value);
}

/** A random key for an intended order (a UUID; `randomUUID` needs a secure context, hence the fallback). */
export function newIdempotencyKey(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function emptyForm(idempotencyKey = newIdempotencyKey()): SubscriptionForm {
  return {
    industryId: null,
    planInfo: { planId: null, addOns: [], prepaidMonths: DEFAULT_PREPAID_MONTHS, period: 'monthly' },
    shippingInfo: { ...EMPTY_SHIPPING },
    idempotencyKey,
  };
}

const id = (value: unknown): string | null => (typeof value === 'string' && RECORD_ID.test(value) ? value : null);
const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

function clampCount(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) ? Math.min(Math.max(Math.round(n), 1), COUNTER_MAX) : 1;
}

export function isPrepaidOption(value: unknown): value is (typeof PREPAID_OPTIONS)[number] {
  return (PREPAID_OPTIONS as readonly unknown[]).includes(value);
}

/**
 * The stored state, or null when there is none or it cannot be read. Whatever was edited by
 * hand or written by an older page is taken field by field: a bad field falls back to empty.
 */
export function parseForm(raw: string | null | undefined): SubscriptionForm | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const stored = record(value);
  const plan = record(stored.planInfo);
  const seen = new Set<string>();
  const addOns: ChosenAddOn[] = [];
  for (const item of Array.isArray(plan.addOns) ? plan.addOns : []) {
    const addOnId = id(record(item).id);
    if (!addOnId || seen.has(addOnId) || addOns.length >= 50) continue;
    seen.add(addOnId);
    addOns.push({ id: addOnId, count: clampCount(record(item).count) });
  }
  const key =
    typeof stored.idempotencyKey === 'string' && /^[A-Za-z0-9-]{16,64}$/.test(stored.idempotencyKey)
      ? stored.idempotencyKey
      : newIdempotencyKey();
  const orderId = id(stored.orderId);
  return {
    industryId: id(stored.industryId),
    planInfo: {
      planId: id(plan.planId),
      addOns,
      prepaidMonths: isPrepaidOption(plan.prepaidMonths) ? plan.prepaidMonths : DEFAULT_PREPAID_MONTHS,
      period: (BILLING_PERIODS as readonly unknown[]).includes(plan.period)
        ? (plan.period as BillingPeriod)
        : 'monthly',
    },
    shippingInfo: readShipping(record(stored.shippingInfo)),
    idempotencyKey: key,
    ...(orderId ? { orderId } : {}),
  };
}

export function serialiseForm(form: SubscriptionForm): string {
  return JSON.stringify(form);
}

/** What an order is made of: a change here is another order, so it takes another key. */
export function orderContent(form: SubscriptionForm): string {
  const { planId, addOns, prepaidMonths, period } = form.planInfo;
  return JSON.stringify([
    form.industryId,
    planId,
    [...addOns].sort((a, b) => a.id.localeCompare(b.id)),
    prepaidMonths,
    period,
    form.shippingInfo,
  ]);
}

/**
 * The next state after a change: the same key while the order's content is the same; a fresh
 * key (and no order yet) once it differs, so the server never answers a changed order with the
 * first one's result, nor refuses it as a reused key.
 */
export function changeForm(
  previous: SubscriptionForm,
  next: Omit<SubscriptionForm, 'idempotencyKey'> & { idempotencyKey?: string },
): SubscriptionForm {
  if (orderContent({ ...next, idempotencyKey: '' }) === orderContent(previous))
    return { ...next, idempotencyKey: previous.idempotencyKey };
  const { orderId: _dropped, ...rest } = next;
  return { ...rest, idempotencyKey: newIdempotencyKey() };
}

/** What the flow needs of the catalogue to read a calculator choice: keys to ids. */
export interface CatalogueKeys {
  industries: readonly { _id: string; key: string | null }[];
  plans: readonly { _id: string; key: string | null; industry: string; type: string }[];
  addOns: readonly { _id: string; key: string | null; counter: boolean }[];
}

/** The calculator's choice plus the plan it was made on (`plan=<template key>`). */
export interface ArrivingChoice {
  industryId: string | null;
  planId: string | null;
  addOns: ChosenAddOn[];
  prepaidMonths: number;
  /** Whether the address carried a choice at all (else the stored state stands). */
  given: boolean;
}

/**
 * Reads `?industry=restaurant&plan=restaurant-flexi&addons=kds:2,loyalty&months=24` (the
 * calculator's query and the plan page's) into ids. Unknown keys are left out; a plan outside the
 * industry or an enterprise plan (never bought online) is not chosen.
 */
export function choiceFromQuery(params: URLSearchParams, catalogue: CatalogueKeys): ArrivingChoice {
  const choice = parseChoice(params);
  const planKey = params.get('plan');
  const given = Boolean(choice.industry || planKey || choice.addOns.size || params.has('months'));
  let plan = planKey
    ? catalogue.plans.find((candidate) => candidate.key === planKey || candidate._id === planKey)
    : undefined;
  const industry =
    catalogue.industries.find((candidate) => candidate.key === choice.industry || candidate._id === choice.industry) ??
    (plan ? catalogue.industries.find((candidate) => candidate._id === plan?.industry) : undefined);
  if (plan && (plan.type === 'enterprise' || (industry && plan.industry !== industry._id))) plan = undefined;
  const addOns = [...choice.addOns].flatMap(([key, count]) => {
    const module = catalogue.addOns.find((candidate) => candidate.key === key);
    return module ? [{ id: module._id, count: module.counter ? count : 1 }] : [];
  });
  return { industryId: industry?._id ?? null, planId: plan?._id ?? null, addOns, prepaidMonths: choice.months, given };
}

/** The state an arriving choice makes: it replaces the stored choice, and keeps the shipping details. */
export function applyChoice(form: SubscriptionForm, choice: ArrivingChoice): SubscriptionForm {
  if (!choice.given) return form;
  return changeForm(form, {
    ...form,
    industryId: choice.industryId,
    planInfo: {
      planId: choice.planId,
      addOns: choice.industryId ? choice.addOns : [],
      prepaidMonths: choice.prepaidMonths,
      period: form.planInfo.period,
    },
  });
}

/** The step an arriving choice lands on: the plan when none is chosen, else add-ons, or the summary once add-ons came too. */
export function landingStep(choice: ArrivingChoice): Step {
  if (!choice.industryId) return 'industry';
  if (!choice.planId) return 'plan';
  return choice.addOns.length ? 'summary' : 'addons';
}

/** Who is buying, as far as the flow needs to know: later steps ask for an account, then a verified email. */
export interface BuyerState {
  signedIn: boolean;
  emailVerified: boolean;
}

/**
 * The first step still missing what a later step needs: an industry, a buyable plan of that
 * industry, complete shipping details, an account, a verified email. Add-ons and the summary
 * need only the plan; payment needs everything before it.
 */
export function firstIncompleteStep(
  form: SubscriptionForm,
  catalogue: Pick<CatalogueKeys, 'plans'>,
  shippingComplete: (info: ShippingInfo) => boolean,
  buyer: BuyerState = { signedIn: false, emailVerified: false },
): Step {
  if (!form.industryId) return 'industry';
  const plan = catalogue.plans.find((candidate) => candidate._id === form.planInfo.planId);
  if (!plan || plan.industry !== form.industryId || plan.type === 'enterprise') return 'plan';
  if (!shippingComplete(form.shippingInfo)) return 'shipping';
  if (!buyer.signedIn) return 'account';
  if (!buyer.emailVerified) return 'verify';
  return 'payment';
}

/** The step to show for the one asked: itself when what it needs is there, else the first incomplete one. */
export function allowedStep(asked: Step, firstIncomplete: Step): Step {
  return STEPS.indexOf(asked) <= STEPS.indexOf(firstIncomplete) ? asked : firstIncomplete;
}
