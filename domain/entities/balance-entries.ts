import { CURRENCY_CODES } from '../money.ts';
import { balanceDetailsSchema } from '../orders/records.ts';
import { defineEntity, STAFF_ROLES } from './types.ts';

export const BALANCE_ENTRY_KINDS = ['credit', 'debit'] as const;
export const BALANCE_ENTRY_REASONS = ['addon_removed'] as const;

/**
 * A credit or debit on a member's balance that is neither an invoice nor a payment (decision 031,
 * addendum): the unused share of an add-on the member removed. Written by the server only; the
 * next charge takes a credit off.
 */
export const balanceEntries = defineEntity({
  service: 'balanceEntries',
  table: 'balance_entries',
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
    subscription: {
      kind: 'ref',
      ref: 'subscriptions',
      column: 'subscription_id',
      readonly: true,
      required: true,
      filterable: true,
      exported: true,
    },
    kind: {
      kind: 'enum',
      enum: BALANCE_ENTRY_KINDS,
      readonly: true,
      required: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    amount: {
      kind: 'integer',
      readonly: true,
      required: true,
      listed: true,
      exported: true,
      hints: { widget: 'money' },
    },
    currency: { kind: 'enum', enum: CURRENCY_CODES, readonly: true, required: true, filterable: true, exported: true },
    reason: {
      kind: 'enum',
      enum: BALANCE_ENTRY_REASONS,
      readonly: true,
      required: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    module: { kind: 'ref', ref: 'modules', column: 'module_id', readonly: true, filterable: true, exported: true },
    details: { kind: 'object', schema: balanceDetailsSchema, readonly: true },
    createdAt: {
      kind: 'date',
      readonly: true,
      defaulted: true,
      sortable: true,
      filterable: true,
      listed: true,
      exported: true,
    },
  },
  defaultSort: { createdAt: -1 },
  owner: { field: 'user', allRows: { read: STAFF_ROLES, write: ['admin'] } },
  access: { find: 'authenticated', get: 'authenticated', create: 'none', patch: 'none', remove: 'none' },
});
