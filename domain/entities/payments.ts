import { z } from '../zod.ts';
import { CURRENCY_CODES } from '../money.ts';
import { billingAddressSchema, cardSummarySchema, paymentActionSchema, stateMoveSchema } from '../orders/records.ts';
import { PAYMENT_STATES } from '../orders/states.ts';
import { defineEntity, STAFF_ROLES } from './types.ts';

/**
 * One attempt to pay an order (decision 018): a declined card keeps the order, and a retry is a
 * new attempt. Only the server writes it; its status moves through the payment transition table.
 */
export const payments = defineEntity({
  service: 'payments',
  table: 'payments',
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    order: {
      kind: 'ref',
      ref: 'orders',
      column: 'order_id',
      readonly: true,
      required: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    user: {
      kind: 'ref',
      ref: 'users',
      column: 'user_id',
      readonly: true,
      required: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    status: {
      kind: 'enum',
      enum: PAYMENT_STATES,
      readonly: true,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    gateway: {
      kind: 'string',
      schema: z.string().max(32),
      readonly: true,
      required: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    gatewayChargeId: { kind: 'string', schema: z.string().max(255), readonly: true, filterable: true, exported: true },
    amount: {
      kind: 'integer',
      readonly: true,
      required: true,
      listed: true,
      exported: true,
      hints: { widget: 'money' },
    },
    currency: { kind: 'enum', enum: CURRENCY_CODES, readonly: true, required: true, filterable: true, exported: true },
    card: { kind: 'object', schema: cardSummarySchema, readonly: true },
    billingAddress: { kind: 'object', schema: billingAddressSchema, readonly: true },
    failureCode: { kind: 'string', schema: z.string().max(64), readonly: true, filterable: true, exported: true },
    failureMessage: { kind: 'string', schema: z.string().max(500), readonly: true, exported: true },
    idempotencyKey: { kind: 'string', readonly: true, required: true },
    /** A digest of what the buyer asked for: the same key with another request is refused. */
    requestHash: { kind: 'string', readonly: true, required: true, hidden: true },
    /** A 3-D Secure challenge the buyer must pass: the provider's page, or Stripe's client secret. */
    action: { kind: 'object', schema: paymentActionSchema, readonly: true },
    /** Where the provider's challenge page sends the buyer back to. */
    returnUrl: { kind: 'string', schema: z.string().max(2000), readonly: true, hidden: true },
    history: { kind: 'list', item: stateMoveSchema, readonly: true, defaulted: true },
    createdAt: {
      kind: 'date',
      readonly: true,
      defaulted: true,
      sortable: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { createdAt: -1 },
  owner: { field: 'user', allRows: { read: STAFF_ROLES, write: ['admin'] } },
  // The payments service (server/services/payments) takes `create` from signed-in buyers with its own rules.
  access: { find: 'authenticated', get: 'authenticated', create: 'authenticated', patch: 'none', remove: 'none' },
});
