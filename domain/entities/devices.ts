import { deviceNameSchema } from '../apps/devices.ts';
import { defineEntity, STAFF_ROLES } from './types.ts';

/**
 * A device registered to one of a member's apps (decision 030): a kitchen screen, an order
 * display, a kiosk. The member names it; the server sets whose it is, the subscription and the
 * codes. It belongs to one module of one of the owner's subscriptions, which must be active when
 * it is registered; how many a module takes is `deviceLimit` (domain/apps/devices.ts).
 */
export const devices = defineEntity({
  service: 'devices',
  table: 'devices',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    name: {
      kind: 'string',
      schema: deviceNameSchema,
      required: true,
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    /**
     * The module it is registered to: given on create, never changed after (`patchable: []`, so the
     * patch's schema and the back office leave it out; server/services/devices refuses it in-process too).
     */
    module: {
      kind: 'ref',
      ref: 'modules',
      column: 'module_id',
      required: true,
      patchable: [],
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
    subscription: {
      kind: 'ref',
      ref: 'subscriptions',
      column: 'subscription_id',
      readonly: true,
      required: true,
      filterable: true,
      exported: true,
    },
    /** What the member and support call it (`KDS-7K3M9Q`): made by the server, unique. */
    code: {
      kind: 'string',
      readonly: true,
      required: true,
      searchable: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    /** What the device's app asks for to join the account (`ABCD-EFGH`), until it has paired. */
    pairingCode: { kind: 'string', readonly: true, filterable: true },
    pairedAt: { kind: 'date', readonly: true, filterable: true, sortable: true, exported: true },
    lastSeenAt: { kind: 'date', readonly: true, filterable: true, sortable: true, listed: true, exported: true },
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
  defaultSort: { createdAt: 1 },
  // A member reaches only their own devices; staff read every one, and admins change them.
  owner: { field: 'user', allRows: { read: STAFF_ROLES, write: ['admin'] } },
  access: {
    find: 'authenticated',
    get: 'authenticated',
    create: 'authenticated',
    patch: 'authenticated',
    remove: 'authenticated',
  },
});
