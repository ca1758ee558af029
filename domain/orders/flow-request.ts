import { z } from '../zod.ts';
import { SHIPPING_COUNTRIES } from './countries.ts';
import { paymentRequestSchema } from './payment-request.ts';
import { orderRequestSchema, quoteRequestSchema, upgradeOrderSchema, upgradeQuoteSchema } from './request.ts';

/*
 * What the purchase flow's page (and the add-on upgrade's) asks its route's action: one intent per
 * call, as a JSON body (app/routes/purchase/flow.server.ts). Each intent's body is the request of
 * the service it goes to, by that request's own schema, so the action hands the service typed
 * values. Answers a person types (an account, a code, a password) are read as sent: their rules
 * are the service's (registration, sign-in, verification), which answers in the page's language.
 */

/** A text read as sent ('' when absent): the service it goes to checks it. */
const asSent = z.string().catch('');

const payment = [
  z.object({ intent: z.literal('pay'), ...paymentRequestSchema.shape }),
  z.object({ intent: z.literal('payment'), id: asSent }),
] as const;

export const flowRequestSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('dates'), country: z.enum(SHIPPING_COUNTRIES) }),
  z.object({ intent: z.literal('quote'), ...quoteRequestSchema.shape }),
  z.object({ intent: z.literal('register'), answers: z.record(z.string(), z.unknown()).catch({}) }),
  z.object({ intent: z.literal('signIn'), email: asSent, password: asSent }),
  z.object({ intent: z.literal('verify'), code: asSent }),
  z.object({ intent: z.literal('resend') }),
  z.object({ intent: z.literal('order'), ...orderRequestSchema.shape }),
  ...payment,
]);
export type FlowRequest = z.input<typeof flowRequestSchema>;

/** The add-on upgrade's calls: for the subscription of the page's address, so none names it here. */
export const upgradeRequestSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('upgradeQuote'), addOns: upgradeQuoteSchema.shape.addOns }),
  z.object({
    intent: z.literal('order'),
    addOns: upgradeOrderSchema.shape.addOns,
    idempotencyKey: upgradeOrderSchema.shape.idempotencyKey,
  }),
  ...payment,
]);
export type UpgradeRequest = z.input<typeof upgradeRequestSchema>;

/** Every intent the flow's action knows. */
export type FlowIntent = FlowRequest['intent'] | UpgradeRequest['intent'];
