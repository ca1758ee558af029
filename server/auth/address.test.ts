import { describe, expect, it } from 'vitest';
import { clientAddress } from './address.ts';

const loopback = (address: string) => address === '127.0.0.1';

describe('clientAddress', () => {
  it('is the socket address when no proxy is trusted', () => {
    expect(clientAddress('127.0.0.1', '10.0.0.9', undefined)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '10.0.0.9', () => false)).toBe('127.0.0.1');
  });

  it('walks X-Forwarded-For back while the hop is trusted', () => {
    expect(clientAddress('127.0.0.1', '10.0.0.9', loopback)).toBe('10.0.0.9');
    // A client cannot claim an address by prepending it: only the hop the trusted proxy saw counts.
    expect(clientAddress('127.0.0.1', '1.2.3.4, 10.0.0.9', loopback)).toBe('10.0.0.9');
    expect(clientAddress('203.0.113.5', '10.0.0.9', loopback)).toBe('203.0.113.5');
    expect(clientAddress('127.0.0.1', ['1.2.3.4', '10.0.0.9'], (_address, hop) => hop < 2)).toBe('1.2.3.4');
    expect(clientAddress('127.0.0.1', undefined, loopback)).toBe('127.0.0.1');
  });
});
