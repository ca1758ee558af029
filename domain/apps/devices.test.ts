import { describe, expect, it } from 'vitest';
import {
  CODE_ALPHABET,
  DEVICE_CAP,
  DEVICE_CODE_PATTERN,
  deviceCodeOf,
  deviceLimit,
  deviceNameSchema,
  PAIRING_CODE_PATTERN,
  pairingCodeOf,
} from './devices.ts';

describe('device rules', () => {
  it('take one device per unit of a counter module, the cap otherwise', () => {
    expect(deviceLimit({ counter: true }, 3)).toBe(3);
    expect(deviceLimit({ counter: true }, 1)).toBe(1);
    expect(deviceLimit({ counter: false }, 1)).toBe(DEVICE_CAP);
  });

  it('trim names and hold them to 1 to 60 characters', () => {
    expect(deviceNameSchema.parse('  Bar  ')).toBe('Bar');
    expect(deviceNameSchema.safeParse('   ').success).toBe(false);
    expect(deviceNameSchema.safeParse('x'.repeat(60)).success).toBe(true);
    const long = deviceNameSchema.safeParse('x'.repeat(61));
    expect(long.success ? null : long.error.issues[0]?.message).toBe('apps.errors.nameTooLong');
  });

  it('write codes in letters that are not mistaken for each other', () => {
    expect(CODE_ALPHABET).toHaveLength(32);
    expect(CODE_ALPHABET).not.toMatch(/[ILOU]/);
    const bytes = Uint8Array.from({ length: 8 }, (_, i) => i * 37);
    expect(pairingCodeOf(bytes)).toMatch(PAIRING_CODE_PATTERN);
    expect(deviceCodeOf('KDS', bytes)).toMatch(DEVICE_CODE_PATTERN);
    expect(pairingCodeOf(new Uint8Array(8))).toBe('0000-0000');
    expect(pairingCodeOf(new Uint8Array(8).fill(255))).toBe('ZZZZ-ZZZZ');
  });
});
