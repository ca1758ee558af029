import { z } from '../zod.ts';
import { LOCALES } from '../locales.ts';
import { regionCodeSchema } from './app-users.ts';
import { defineEntity, STAFF_ROLES } from './types.ts';

export const APP_PLATFORMS = ['ios', 'android', 'web'] as const;

/** The installation's own id, made by the app once (a UUID, an Android id): 8 to 128 plain characters. */
export const installationIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._:-]{8,128}$/, 'validation.invalid');

/** A time zone the platform knows (`Asia/Hong_Kong`), for quiet hours in the device's own time. */
export const timeZoneSchema = z
  .string()
  .trim()
  .max(64)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { error: 'validation.timeZone' },
  );

/**
 * An installation of the company's consumer apps (spec section 3: deviceId, user, lastIP, first
 * and last session, pushEnabled, pushToken). Apart from the member's devices (`devices`: kitchen
 * screens and kiosks paired to a subscription) by name and by population (decision 054).
 *
 * Every installation registers itself through `create`, signed in or not, and again at each
 * session start: the same `deviceId` updates its row (proved by the secret the first
 * registration answered), never makes another. `user` is the app user signed in on it at its
 * last session start, none when signed out.
 */
export const appDevices = defineEntity({
  service: 'appDevices',
  table: 'app_devices',
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    deviceId: {
      kind: 'string',
      schema: installationIdSchema,
      required: true,
      searchable: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      patchable: [],
      hints: { column: 1 },
    },
    user: {
      kind: 'ref',
      ref: 'appUsers',
      column: 'app_user_id',
      readonly: true,
      filterable: true,
      listed: true,
      exported: true,
      hints: { column: 2 },
    },
    platform: {
      kind: 'enum',
      enum: APP_PLATFORMS,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    appVersion: { kind: 'string', schema: z.string().trim().max(32), filterable: true, exported: true },
    /** The language of its push messages (English when a message has none in it). */
    locale: { kind: 'enum', enum: LOCALES, defaulted: true, filterable: true, listed: true, exported: true },
    region: {
      kind: 'string',
      schema: regionCodeSchema,
      defaulted: true,
      filterable: true,
      listed: true,
      exported: true,
      hints: { filter: 'exact' },
    },
    timeZone: {
      kind: 'string',
      schema: timeZoneSchema,
      defaulted: true,
      filterable: true,
      exported: true,
      hints: { filter: 'exact' },
    },
    pushEnabled: {
      kind: 'boolean',
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 6 },
    },
    pushToken: { kind: 'string', schema: z.string().trim().max(4096) },
    // The spec's columns (deviceId, user, lastIP, first and last session, pushEnabled) come first in the table.
    lastIP: {
      kind: 'string',
      column: 'last_ip',
      readonly: true,
      filterable: true,
      listed: true,
      exported: true,
      hints: { column: 3, filter: 'exact' },
    },
    firstSessionAt: {
      kind: 'date',
      readonly: true,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 4 },
    },
    lastSessionAt: {
      kind: 'date',
      readonly: true,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 5 },
    },
    /** A hash of the installation's secret, which proves a later registration comes from it. */
    secretHash: { kind: 'string', readonly: true, hidden: true },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { lastSessionAt: -1 },
  // An app user reads the devices they are signed in on; staff read every one; admins change them.
  owner: { field: 'user', of: 'appUsers', allRows: { read: STAFF_ROLES, write: ['admin'] } },
  access: {
    find: [...STAFF_ROLES, 'appUser'],
    get: [...STAFF_ROLES, 'appUser'],
    // Registration and each session start: any installation, signed in or not.
    create: 'public',
    // Staff switch a device's push off; the app itself changes its row by registering again.
    patch: ['admin'],
    remove: ['admin'],
  },
});
