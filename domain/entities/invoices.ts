import { CURRENCY_CODES } from '../money.ts';
import { SELLERS } from '../orders/countries.ts';
import { billingAddressSchema, cardSummarySchema, orderLineSchema } from '../orders/records.ts';
import { INVOICE_STATES } from '../orders/states.ts';
import { defineEntity, STAFF_ROLES } from './types.ts';

/**
 * A tax invoice, numbered without gaps per seller (`HK-000001`, `SG-000001`; decision 018).
 * Issued by the server when an order is paid; never changed nor removed (a wrong one is voided).
 */
export const invoices = defineEntity({
  service: 'invoices',
  table: 'invoices',
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
    seller: {
      kind: 'enum',
      enum: SELLERS,
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
    order: {
      kind: 'ref',
      ref: 'orders',
      column: 'order_id',
      readonly: true,
      required: true,
      filterable: true,
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
    lines: { kind: 'list', item: orderLineSchema, readonly: true, required: true },
    currency: { kind: 'enum', enum: CURRENCY_CODES, readonly: true, required: true, filterable: true, exported: true },
    subtotal: { kind: 'integer', readonly: true, required: true, exported: true, hints: { widget: 'money' } },
    taxRate: { kind: 'integer', readonly: true, required: true, exported: true },
    tax: { kind: 'integer', readonly: true, required: true, exported: true, hints: { widget: 'money' } },
    total: {
      kind: 'integer',
      readonly: true,
      required: true,
      listed: true,
      exported: true,
      hints: { widget: 'money' },
    },
    /** What the balance paid of the total (a credit, positive) or added to the card's charge (an amount due, negative): the card paid `total - balanceApplied`. */
    balanceApplied: { kind: 'integer', readonly: true, defaulted: true, exported: true, hints: { widget: 'money' } },
    billingAddress: { kind: 'object', schema: billingAddressSchema, readonly: true },
    card: { kind: 'object', schema: cardSummarySchema, readonly: true },
    issuedAt: {
      kind: 'date',
      readonly: true,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    /** When it was paid (by card, or by the account's credit); none for an invoice not paid yet. */
    paidAt: { kind: 'date', readonly: true, filterable: true, sortable: true, exported: true },
    /** When its payment was refunded in full: the sale is reversed and the invoice void (decision 069). */
    refundedAt: { kind: 'date', readonly: true, filterable: true, sortable: true, exported: true },
    status: {
      kind: 'enum',
      enum: INVOICE_STATES,
      readonly: true,
      defaulted: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { issuedAt: -1 },
  owner: { field: 'user', allRows: { read: STAFF_ROLES, write: ['admin'] } },
  access: { find: 'authenticated', get: 'authenticated', create: 'none', patch: 'none', remove: 'none' },
});
