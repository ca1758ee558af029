import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway.ts';
import { cardBrand, cardFingerprint, checkCard, luhnValid, TEST_CARDS } from './cards.ts';
import { signPayload, verifySignature } from './signature.ts';

describe('test cards', () => {
  it('are all Luhn-valid Visa numbers; a changed digit is not', () => {
    for (const number of Object.keys(TEST_CARDS)) expect(luhnValid(number), number).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('42424242')).toBe(false);
    expect(cardBrand('4242424242424242')).toBe('visa');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
  });

  it('checks the expiry against the current month', () => {
    const now = new Date('2026-11-15T00:00:00Z');
    expect(checkCard({ number: '4242 4242 4242 4242', expMonth: 11, expYear: 26, cvc: '123' }, now).problems).toEqual(
      [],
    );
    expect(checkCard({ number: '4242424242424242', expMonth: 10, expYear: 2026, cvc: '123' }, now).problems).toEqual([
      'expired',
    ]);
    expect(checkCard({ number: '4242424242424242', expMonth: 0, expYear: 2030, cvc: '12345' }, now).problems).toEqual([
      'expiry',
      'cvc',
    ]);
  });

  it('fingerprints a number with a key: the same card alike, another key otherwise', () => {
    expect(cardFingerprint('4242424242424242', 'k1')).toBe(cardFingerprint('4242424242424242', 'k1'));
    expect(cardFingerprint('4242424242424242', 'k1')).not.toBe(cardFingerprint('4242424242424242', 'k2'));
    expect(cardFingerprint('4242424242424242', 'k1')).not.toContain('4242');
  });
});

describe('sandbox webhook signatures', () => {
  const secret = 'a-secret-of-at-least-thirty-two-chars';
  const now = Date.UTC(2026, 10, 15);
  const body = '{"id":"evt_1"}';

  it('accepts its own signature within five minutes, either side', () => {
    const header = signPayload(body, secret, now / 1000 - 299);
    expect(() => verifySignature(Buffer.from(body), header, secret, now)).not.toThrow();
  });

  it.each([
    ['an old timestamp', signPayload(body, secret, now / 1000 - 301)],
    ['another secret', signPayload(body, 'another-secret-of-thirty-two-chars!!', now / 1000)],
    ['no v1', `t=${now / 1000}`],
    ['garbage', 'v1=abc'],
  ])('refuses %s', (_name, header) => {
    expect(() => verifySignature(Buffer.from(body), header, secret, now)).toThrow(GatewayError);
  });
});
