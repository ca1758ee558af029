import { z } from '../zod.ts';
import { CURRENCY_CODES } from '../money.ts';
import { SELLERS } from '../orders/countries.ts';
import { cardSummarySchema, orderLineSchema, stateMoveSchema } from '../orders/records.ts';
import { shippingSchema } from '../orders/shipping.ts';
import { BILLING_PERIODS } from '../orders/request.ts';
import { ORDER_STATES } from '../orders/states.ts';
import { PLAN_TYPES } from './app-templates.ts';
import { defineEntity, STAFF_ROLES } from './types.ts';

export const ORDER_KINDS = ['plan', 'addon', 'renewal', 'termination'] as const;

const minor = z.number().int().min(0).max(2_000_000_000);

/**
 * A buyer's order of a plan (decision 018). The `orders` service creates it, priced on the server;
 * everything but the shipping address is the server's to write, and the status moves only through
 * the transition table (server/services/orders/transitions.ts). Fields the server always sets are
 * `readonly` and `required`: never written by a caller, never null when read.
 */
export const orders = defineEntity({
  service: 'orders',
  table: 'orders',
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    number: {
      kind: 'string',
      readonly: true,
      required: true,
      searchable: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
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
    /** A plan bought, or add-ons for a subscription the buyer has (decision 026). */
    kind: {
      kind: 'enum',
      enum: ORDER_KINDS,
      readonly: true,
      defaulted: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    subscription: {
      kind: 'ref',
      ref: 'subscriptions',
      column: 'subscription_id',
      readonly: true,
      filterable: true,
      exported: true,
    },
    status: {
      kind: 'enum',
      enum: ORDER_STATES,
      readonly: true,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    seller: {
      kind: 'enum',
      enum: SELLERS,
      readonly: true,
      required: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    industry: {
      kind: 'ref',
      ref: 'industries',
      column: 'industry_id',
      readonly: true,
      required: true,
      filterable: true,
      exported: true,
    },
    plan: {
      kind: 'ref',
      ref: 'appTemplates',
      column: 'plan_id',
      readonly: true,
      required: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    planType: { kind: 'enum', enum: PLAN_TYPES, readonly: true, required: true, filterable: true, exported: true },
    items: { kind: 'list', item: orderLineSchema, readonly: true, required: true },
    currency: { kind: 'enum', enum: CURRENCY_CODES, readonly: true, required: true, filterable: true, exported: true },
    prepaidMonths: { kind: 'integer', readonly: true, required: true, filterable: true, exported: true },
    contractMonths: { kind: 'integer', readonly: true, required: true, exported: true },
    /** How a plan's subscription bills after the prepaid months (its `period`); monthly for add-on and renewal orders. */
    period: { kind: 'enum', enum: BILLING_PERIODS, readonly: true, defaulted: true, filterable: true, exported: true },
    monthly: {
      kind: 'integer',
      schema: minor,
      readonly: true,
      required: true,
      exported: true,
      hints: { widget: 'money' },
    },
    yearly: {
      kind: 'integer',
      schema: minor,
      readonly: true,
      required: true,
      exported: true,
      hints: { widget: 'money' },
    },
    oneTime: {
      kind: 'integer',
      schema: minor,
      readonly: true,
      required: true,
      exported: true,
      hints: { widget: 'money' },
    },
    subtotal: {
      kind: 'integer',
      schema: minor,
      readonly: true,
      required: true,
      exported: true,
      hints: { widget: 'money' },
    },
    /** Basis points: 900 is 9%. */
    taxRate: { kind: 'integer', readonly: true, required: true, exported: true },
    tax: { kind: 'integer', schema: minor, readonly: true, required: true, exported: true, hints: { widget: 'money' } },
    total: {
      kind: 'integer',
      schema: minor,
      readonly: true,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { widget: 'money' },
    },
    /** The one field staff (admins) may correct after the order is placed. */
    shipping: { kind: 'object', schema: shippingSchema, required: true, exported: true },
    idempotencyKey: { kind: 'string', readonly: true, required: true },
    /** A digest of what the buyer asked for: the same key with another request is refused. */
    requestHash: { kind: 'string', readonly: true, required: true, hidden: true },
    card: { kind: 'object', schema: cardSummarySchema, readonly: true },
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
  populate: {
    plan: { service: 'appTemplates', path: 'plan' },
    industry: { service: 'industries', path: 'industry' },
  },
  defaultSort: { createdAt: -1 },
  // A member reaches their own orders; staff read every one; admins alone correct one.
  owner: { field: 'user', allRows: { read: STAFF_ROLES, write: ['admin'] } },
  // Orders are records of a sale: cancelled or refunded through their states, never removed.
  access: { find: 'authenticated', get: 'authenticated', create: 'authenticated', patch: ['admin'], remove: 'none' },
});
