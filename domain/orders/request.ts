import { z } from '../zod.ts';
import { PREPAID_OPTIONS } from '../calculator.ts';
import { FORM_MESSAGES } from '../forms/messages.ts';
import { COUNTER_MAX } from '../pricing.ts';
import { SHIPPING_COUNTRIES } from './countries.ts';
import { shippingSchema } from './shipping.ts';

/** Message keys of the choice of a plan; each exists in every locale. */
export const PURCHASE_MESSAGES = {
  verifyFirst: 'purchase.verifyFirst',
  idempotencyMismatch: 'purchase.idempotencyMismatch',
  inProgress: 'purchase.inProgress',
  enterprise: 'purchase.enterprise',
  unknownPlan: 'purchase.unknownPlan',
  unknownAddOn: 'purchase.unknownAddOn',
  includedAddOn: 'purchase.includedAddOn',
  duplicateAddOn: 'purchase.duplicateAddOn',
  addOnCount: 'purchase.addOnCount',
  prepaidMonths: 'purchase.prepaidMonths',
  period: 'purchase.period',
  countryRequired: 'purchase.countryRequired',
  tooManyQuotes: 'purchase.tooManyQuotes',
} as const;

const planId = z
  .string()
  .trim()
  .min(1, FORM_MESSAGES.required)
  .max(64, PURCHASE_MESSAGES.unknownPlan)
  .regex(/^[A-Za-z0-9_-]+$/, PURCHASE_MESSAGES.unknownPlan);

/** An add-on chosen: a module's id (or key) and a count. Anything else an item carries (a price) is ignored. */
const addOnSchema = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, PURCHASE_MESSAGES.unknownAddOn),
  count: z
    .number()
    .int(PURCHASE_MESSAGES.addOnCount)
    .min(1, PURCHASE_MESSAGES.addOnCount)
    .max(COUNTER_MAX, PURCHASE_MESSAGES.addOnCount)
    .default(1),
});

const prepaidMonths = z
  .number({ error: PURCHASE_MESSAGES.prepaidMonths })
  .refine((months) => (PREPAID_OPTIONS as readonly number[]).includes(months), PURCHASE_MESSAGES.prepaidMonths)
  // The refinement is invisible to JSON Schema: the API's reference shows the choices (decision 058).
  .meta({ enum: [...PREPAID_OPTIONS] });

/** What a plan is made of: the template, the add-ons and the months paid ahead (the flow's `planInfo`). */
const choiceShape = {
  plan: planId,
  addOns: z.array(addOnSchema).max(20, FORM_MESSAGES.tooBig).default([]),
  prepaidMonths,
};

/** How a plan bills once its prepaid months are over (a subscription's `period`). */
export const BILLING_PERIODS = ['monthly', 'annual'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/** Figures the browser may have computed for its own display; the server prices again and ignores them. */
export const CLIENT_PRICE_FIELDS = [
  'items',
  'monthly',
  'yearly',
  'oneTime',
  'subtotal',
  'taxRate',
  'tax',
  'total',
  'currency',
  'seller',
  'taxInclusive',
  'contractMonths',
] as const;

/** Asking the price of a choice shipped to a country (`quotes` create). */
export const quoteRequestSchema = z
  .object({
    ...choiceShape,
    country: z.enum(SHIPPING_COUNTRIES, { error: PURCHASE_MESSAGES.countryRequired }),
  })
  .strict();

/**
 * Placing an order (`orders` create): the choice, where it ships, and the key the order summary
 * made for this order, so a repeated request is the same order (decision 018).
 */
export const orderRequestSchema = z
  .object({
    ...choiceShape,
    shipping: shippingSchema,
    period: z.enum(BILLING_PERIODS, { error: PURCHASE_MESSAGES.period }).default('monthly'),
    idempotencyKey: z
      .string()
      .trim()
      .min(16, FORM_MESSAGES.invalid)
      .max(100, FORM_MESSAGES.invalid)
      .regex(/^[A-Za-z0-9_-]+$/, FORM_MESSAGES.invalid),
  })
  .strict();

export type QuoteRequest = z.input<typeof quoteRequestSchema>;
export type OrderRequest = z.input<typeof orderRequestSchema>;

/** The request without the figures the browser computed, which the server never takes. */
export function withoutClientPrices(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).filter(([key]) => !(CLIENT_PRICE_FIELDS as readonly string[]).includes(key)),
  );
}

/** Message keys of an add-on upgrade (decision 026); each exists in every locale. */
export const UPGRADE_MESSAGES = {
  empty: 'upgrade.empty',
  alreadyActive: 'upgrade.alreadyActive',
  notForIndustry: 'upgrade.notForIndustry',
  noSubscription: 'upgrade.noSubscription',
  notActive: 'upgrade.notActive',
  notFulfillable: 'upgrade.notFulfillable',
} as const;

const subscriptionId = z
  .string()
  .trim()
  .min(1, FORM_MESSAGES.required)
  .max(64, UPGRADE_MESSAGES.noSubscription)
  .regex(/^[A-Za-z0-9_-]+$/, UPGRADE_MESSAGES.noSubscription);

/** Asking the price of add-ons for a subscription the caller has (`quotes` create with `subscription`). */
export const upgradeQuoteSchema = z
  .object({
    subscription: subscriptionId,
    addOns: z.array(addOnSchema).min(1, UPGRADE_MESSAGES.empty).max(20, FORM_MESSAGES.tooBig),
  })
  .strict();

/** Ordering add-ons for a subscription (`orders` create with `subscription`), under the summary's key. */
export const upgradeOrderSchema = upgradeQuoteSchema.extend({
  idempotencyKey: z
    .string()
    .trim()
    .min(16, FORM_MESSAGES.invalid)
    .max(100, FORM_MESSAGES.invalid)
    .regex(/^[A-Za-z0-9_-]+$/, FORM_MESSAGES.invalid),
});

export type UpgradeQuoteRequest = z.input<typeof upgradeQuoteSchema>;
export type UpgradeOrderRequest = z.input<typeof upgradeOrderSchema>;
