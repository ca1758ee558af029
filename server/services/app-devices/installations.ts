import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Forbidden } from '@feathersjs/errors';
import type { Knex } from 'knex';

/*
 * An installation of the apps proves it is the one that registered a `deviceId` with the secret
 * its first registration answered (decision 054): only a hash is kept, so the table alone cannot
 * speak for a device. Calls a device makes without a user (registering again, reporting a push's
 * receipt) carry both.
 */

/** What a refused installation is told. */
export const INSTALLATION_REFUSED = 'installations.refused';

/** A new installation secret: 32 random bytes, base64url. */
export function newInstallationSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashInstallationSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `secret` is the one whose hash is kept, compared in constant time. */
export function secretMatches(secret: unknown, hash: string | null | undefined): boolean {
  if (typeof secret !== 'string' || secret.length === 0 || secret.length > 200 || !hash) return false;
  const given = Buffer.from(hashInstallationSecret(secret), 'hex');
  const kept = Buffer.from(hash, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}

export interface Installation {
  /** The row's id (`appDevices` record `_id`). */
  id: string;
  deviceId: string;
  appUser: string | null;
  locale: string;
  timeZone: string;
  pushEnabled: boolean;
}

/**
 * The installation a device's own call names, when its secret is right; a 403 otherwise (an
 * unknown device too, so the answer does not tell which ids exist).
 */
export async function verifyInstallation(
  knex: Knex | Knex.Transaction,
  deviceId: unknown,
  secret: unknown,
): Promise<Installation> {
  const row =
    typeof deviceId === 'string' && deviceId.length <= 128
      ? ((await knex('app_devices')
          .where('device_id', deviceId)
          .first('id', 'device_id', 'app_user_id', 'locale', 'time_zone', 'push_enabled', 'secret_hash')) as
          | {
              id: string;
              device_id: string;
              app_user_id: string | null;
              locale: string;
              time_zone: string;
              push_enabled: boolean;
              secret_hash: string;
            }
          | undefined)
      : undefined;
  if (!row || !secretMatches(secret, row.secret_hash)) throw new Forbidden(INSTALLATION_REFUSED);
  return {
    id: row.id,
    deviceId: row.device_id,
    appUser: row.app_user_id,
    locale: row.locale,
    timeZone: row.time_zone,
    pushEnabled: row.push_enabled,
  };
}
