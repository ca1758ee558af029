import { z } from '../zod.ts';
import { i18nTextSchema, idSchema } from '../entities/types.ts';
import { MODULE_BILLING } from '../entities/modules.ts';

/*
 * The shapes inside the purchase records (orders, payments, subscriptions, invoices): what the
 * server writes into their lists and objects. Only the server writes them (decision 018).
 */

/**
 * `suspended`: an add-on stopped while its renewal is unpaid (decision 031); `ended`: the plan was
 * terminated, and its modules with it (decision 044).
 */
export const SUBSCRIPTION_MODULE_STATES = ['pending', 'active', 'suspended', 'ended'] as const;

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const minor = z.number().int().min(0).max(2_000_000_000);

/** One line of an order or invoice (domain/orders/pricing.ts `OrderLine`). */
export const orderLineSchema = z
  .object({
    key: z.string().max(64),
    kind: z.enum(['plan', 'addon', 'termination']),
    module: idSchema.optional(),
    name: i18nTextSchema,
    billing: z.enum(MODULE_BILLING),
    unitPrice: minor,
    count: z.number().int().min(1).max(1000),
    amount: minor,
    /** For a share of a period (an add-on bought mid-period): the days it pays for, `to` exclusive. */
    from: isoDay.optional(),
    to: isoDay.optional(),
  })
  .strict();

/** A move of a state machine, as history keeps it (domain/orders/states.ts). */
export const stateMoveSchema = z
  .object({
    from: z.string().max(32),
    to: z.string().max(32),
    at: z.string().max(40),
    actor: z.string().max(100),
    reason: z.string().max(500),
  })
  .strict();

/** What is kept of a card: the gateway's references, brand, last four digits and expiry; never the number. */
export const cardSummarySchema = z
  .object({
    brand: z.string().max(32),
    last4: z.string().regex(/^\d{4}$/),
    expMonth: z.number().int().min(1).max(12),
    expYear: z.number().int().min(2000).max(2200),
    customerId: z.string().max(255).optional(),
    paymentMethodId: z.string().max(255).optional(),
  })
  .strict();

/** The card on file of a subscription, as the member sees it: brand, last four digits and expiry only. */
export const cardOnFileSchema = z
  .object({
    brand: z.string().max(32),
    last4: z.string().regex(/^\d{4}$/),
    expMonth: z.number().int().min(1).max(12),
    expYear: z.number().int().min(2000).max(2200),
  })
  .strict();

/** The gateway's references to a subscription's card, which renewals are charged with; never sent out. */
export const paymentMethodSchema = z
  .object({
    gateway: z.string().max(32),
    customerId: z.string().max(255),
    paymentMethodId: z.string().max(255),
  })
  .strict();

/** What a balance entry was worked out from: the removed add-on's share of its period (decision 031). */
export const balanceDetailsSchema = z
  .object({
    count: z.number().int().min(1).max(1000),
    unitPrice: minor,
    from: isoDay,
    to: isoDay,
    remainingDays: z.number().int().min(0).max(1200),
    periodDays: z.number().int().min(1).max(1200),
  })
  .strict();

/** A card's billing address (server/payments/gateway.ts `BillingAddress`). */
export const billingAddressSchema = z
  .object({
    name: z.string().trim().min(1).max(120),
    line1: z.string().trim().min(1).max(300),
    line2: z.string().trim().max(300).optional(),
    city: z.string().trim().min(1).max(120),
    postalCode: z.string().trim().max(12).optional(),
    country: z.string().regex(/^[A-Z]{2}$/),
  })
  .strict();

/** What a buyer must do to finish a payment (3-D Secure): open the provider's page, or hand Stripe.js the client secret. */
export const paymentActionSchema = z
  .object({
    url: z.string().max(2000).optional(),
    clientSecret: z.string().max(500).optional(),
  })
  .strict();

/** A module of a subscription: the plan's own (price 0: included) and the add-ons bought. */
export const subscriptionModuleSchema = z
  .object({
    id: idSchema,
    count: z.number().int().min(1).max(1000),
    /** Price per billing period of one unit, in the subscription's currency; 0 for modules the plan includes. */
    monthPrice: minor,
    billing: z.enum(MODULE_BILLING).optional(),
    /** An add-on bought on an upgrade is `pending` until staff have set it up (none: active). */
    status: z.enum(SUBSCRIPTION_MODULE_STATES).optional(),
    /** The add-on order that bought it. */
    order: idSchema.optional(),
    /** The day it is expected to be ready (Hong Kong calendar day). */
    availableOn: isoDay.optional(),
  })
  .strict();

export type CardSummaryRecord = z.output<typeof cardSummarySchema>;
export type BillingAddressRecord = z.output<typeof billingAddressSchema>;
