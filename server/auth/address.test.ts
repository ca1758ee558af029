import { describe, expect, it } from 'vitest';
import { addressKey, callerAddressKey, clientAddress } from './address.ts';

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

describe('addressKey', () => {
  it('gives every way of writing addresses of one /64 the same key', () => {
    const key = addressKey('2001:db8:85a3:8d3::1');
    expect(key).toBe('2001:db8:85a3:8d3::/64');
    for (const address of [
      '2001:db8:85a3:8d3::2',
      '2001:0db8:85a3:08d3:0000:0000:0000:0001',
      '2001:DB8:85A3:8D3:FFFF:FFFF:FFFF:FFFF',
      '2001:db8:85a3:8d3:1234:5678:9abc:def0',
      '2001:db8:85a3:8d3:0:0:192.0.2.1',
      '2001:db8:85a3:8d3::1%eth0',
    ]) {
      expect(addressKey(address), address).toBe(key);
    }
  });

  it('gives neighbouring /64s keys of their own', () => {
    expect(addressKey('2001:db8:85a3:8d4::1')).toBe('2001:db8:85a3:8d4::/64');
    expect(addressKey('2001:db8:85a3:8d2:ffff::')).toBe('2001:db8:85a3:8d2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe(addressKey('fe80::2%en1'));
  });

  it('counts IPv4 per address, written as IPv4 or as IPv4-mapped IPv6', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(addressKey('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.8')).toBe('203.0.113.8');
  });

  it('keeps what is not an address as it is, and one key for calls without one', () => {
    expect(addressKey(undefined)).toBe('unknown');
    expect(addressKey('')).toBe('unknown');
    expect(addressKey('not-an-address')).toBe('not-an-address');
    expect(callerAddressKey({ ip: '::ffff:10.0.0.1' })).toBe('10.0.0.1');
    expect(callerAddressKey({ ip: 42 })).toBe('unknown');
    expect(callerAddressKey({})).toBe('unknown');
  });
});
