import { z } from '../zod.ts';

/*
 * The rules of a member's devices (decision 030), shared by the service that enforces them and the
 * pages that explain them.
 */

/** The longest device name, in characters once trimmed. */
export const DEVICE_NAME_MAX = 60;

/** A device's name: trimmed, 1 to 60 characters (an empty one reads as "required"). */
export const deviceNameSchema = z.string().trim().min(1).max(DEVICE_NAME_MAX, 'apps.errors.nameTooLong');

/**
 * How many devices a module that is not sold per unit takes: enough for every till, back office
 * and stockroom of a busy shop, few enough that a stolen session cannot fill the table.
 */
export const DEVICE_CAP = 10;

/**
 * How many devices a module of a subscription takes: one per unit bought of a counter module
 * (a KDS bought for two screens takes two), else the fixed cap.
 */
export function deviceLimit(module: { counter: boolean }, count: number): number {
  return module.counter ? Math.max(0, count) : DEVICE_CAP;
}

/**
 * The letters of the codes a person reads out or types: Crockford's base 32 (no I, L, O or U), so
 * a code read over the phone or copied from a screen is not mistaken; 32 letters, so a random
 * byte picks each one evenly.
 */
export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A pairing code as the device's app asks for it: two groups of four (`ABCD-EFGH`). */
export const PAIRING_CODE_PATTERN = new RegExp(`^[${CODE_ALPHABET}]{4}-[${CODE_ALPHABET}]{4}$`);

/** A device's own code: the app's prefix and six letters (`KDS-7K3M9Q`). */
export const DEVICE_CODE_PATTERN = new RegExp(`^[A-Z]{2,5}-[${CODE_ALPHABET}]{6}$`);

/** Random bytes written as letters of the alphabet, one letter a byte. */
export function codeLetters(bytes: Uint8Array): string {
  return [...bytes].map((byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join('');
}

/** A pairing code from eight random bytes. */
export function pairingCodeOf(bytes: Uint8Array): string {
  const letters = codeLetters(bytes.subarray(0, 8));
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}`;
}

/** A device code from the app's prefix and six random bytes. */
export function deviceCodeOf(prefix: string, bytes: Uint8Array): string {
  return `${prefix}-${codeLetters(bytes.subarray(0, 6))}`;
}

/** Whether a device has joined the account (its app entered the pairing code). */
export function isPaired(device: { pairedAt: Date | string | null }): boolean {
  return device.pairedAt !== null;
}
