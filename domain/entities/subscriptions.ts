import { CURRENCY_CODES } from '../money.ts';
import { cardOnFileSchema, paymentMethodSchema, stateMoveSchema, subscriptionModuleSchema } from '../orders/records.ts';
import { SUBSCRIPTION_STATES } from '../orders/states.ts';
import { PLAN_TYPES } from './app-templates.ts';
import { defineEntity, STAFF_ROLES } from './types.ts';

export const SUBSCRIPTION_PERIODS = ['monthly', 'annual'] as const;

/**
 * A plan a buyer has: made from a paid order (server/services/orders/provision.ts), with its
 * term (decision 018): contract from the payment day for the longer of the contract and the
 * prepaid months, then billed monthly on the anchor day from the next pay date.
 */
export const subscriptions = defineEntity({
  service: 'subscriptions',
  table: 'subscriptions',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
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
    order: {
      kind: 'ref',
      ref: 'orders',
      column: 'order_id',
      readonly: true,
      required: true,
      filterable: true,
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
    planType: {
      kind: 'enum',
      enum: PLAN_TYPES,
      readonly: true,
      required: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    modules: { kind: 'list', item: subscriptionModuleSchema, itemKey: 'id', readonly: true, required: true },
    currency: { kind: 'enum', enum: CURRENCY_CODES, readonly: true, required: true, filterable: true, exported: true },
    monthly: { kind: 'integer', readonly: true, required: true, exported: true, hints: { widget: 'money' } },
    period: {
      kind: 'enum',
      enum: SUBSCRIPTION_PERIODS,
      readonly: true,
      required: true,
      filterable: true,
      exported: true,
    },
    prepaidMonths: { kind: 'integer', readonly: true, required: true, exported: true },
    contractMonths: { kind: 'integer', readonly: true, required: true, exported: true },
    contractStart: {
      kind: 'date',
      readonly: true,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    contractEnd: { kind: 'date', readonly: true, required: true, filterable: true, sortable: true, exported: true },
    /** The day of the month monthly billing falls on (the payment's, 1 to 31; clamped to shorter months: decision 023). */
    billingAnchorDay: { kind: 'integer', readonly: true, required: true, exported: true },
    nextPayDate: {
      kind: 'date',
      readonly: true,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    status: {
      kind: 'enum',
      enum: SUBSCRIPTION_STATES,
      readonly: true,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    /** The day it stops, once the member asked it to (status `non_renewing`; decision 031). */
    cancelAt: { kind: 'date', readonly: true, filterable: true, sortable: true, exported: true },
    /** The day a failed renewal is tried again (status `past_due`). */
    retryOn: { kind: 'date', readonly: true, filterable: true, sortable: true, exported: true },
    /** The card renewals are charged to: what a person recognises it by. */
    card: { kind: 'object', schema: cardOnFileSchema, readonly: true },
    /** The gateway's references to that card: the server's alone. */
    paymentMethod: { kind: 'object', schema: paymentMethodSchema, readonly: true, hidden: true },
    history: { kind: 'list', item: stateMoveSchema, readonly: true, defaulted: true },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  populate: {
    plan: { service: 'appTemplates', path: 'plan' },
    industry: { service: 'industries', path: 'industry' },
    'modules.id': { service: 'modules', path: 'modules.id' },
  },
  defaultSort: { createdAt: -1 },
  owner: { field: 'user', allRows: { read: STAFF_ROLES, write: ['admin'] } },
  access: { find: 'authenticated', get: 'authenticated', create: 'none', patch: 'none', remove: 'none' },
});
