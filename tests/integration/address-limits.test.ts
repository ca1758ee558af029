import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  skipReason,
  socketClient,
  startTestServer,
  testConfig,
  uniqueEmail,
  type FeathersErrorJSON,
} from './harness.ts';

/**
 * Every per-address limit outside sign-in (registration, contact forms and enquiries, newsletter
 * sign-ups) counts an IPv6 /64 as one address, and IPv4 as itself however it is written; over
 * REST and socket.io. Sign-in's own limits are in auth-lockout.test.ts.
 *
 * Each call here is refused by validation (no password to hash, nothing stored) after the limit
 * counted it, so the production limits are reached in a few quick calls.
 */

const config = testConfig();
const limited = [
  {
    service: 'users',
    points: config.loginLimits.registrations.points,
    data: () => ({ email: uniqueEmail('many'), password: 'short' }),
  },
  { service: 'contactForms', points: config.formLimit.points, data: () => ({}) },
  {
    service: 'subscribers',
    points: config.newsletterLimit.points,
    data: () => ({ campaign: 'none', email: uniqueEmail('news') }),
  },
];

describe.skipIf(skipReason)('per-address limits and IPv6', () => {
  let server: RunningServer;
  let nextNet = 1;
  /** A /64 of its own for each test. */
  const newNet = () => `2001:db8:64:${(nextNet++).toString(16)}`;

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The status a create is answered with, from a given address. */
  async function create(
    via: 'rest' | 'socket',
    service: string,
    data: Record<string, unknown>,
    address: string,
  ): Promise<number> {
    if (via === 'rest') {
      const response = await fetch(`${server.url}/api/${service}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify(data),
      });
      return response.status;
    }
    const s = socketClient(server.url, { 'x-forwarded-for': address });
    try {
      await s.client.service(service).create(data);
      return 201;
    } catch (error) {
      return (error as FeathersErrorJSON).code;
    } finally {
      s.close();
    }
  }

  it.each(limited)(
    '$service: addresses of one /64 share a count; the next /64 has its own',
    async ({ service, points, data }) => {
      const net = newNet();
      const sameNet = [`${net}::1`, `${net}:0:0:0:2`, `${net.toUpperCase()}:ABCD::`, `${net}:ffff:ffff:ffff:ffff`];
      for (let call = 0; call < points; call += 1) {
        const address = sameNet[call % sameNet.length] as string;
        expect(await create(call % 2 ? 'socket' : 'rest', service, data(), address), address).toBe(400);
      }
      expect(await create('rest', service, data(), `${net}::beef`)).toBe(429);
      expect(await create('socket', service, data(), `${net}:1:2:3:4`)).toBe(429);
      expect(await create('socket', service, data(), `${newNet()}::1`)).toBe(400);
    },
  );

  it('counts IPv4 written as IPv4-mapped IPv6 with the address itself', async () => {
    const { service, points, data } = limited[0] as (typeof limited)[number];
    for (let call = 0; call < points; call += 1) {
      expect(
        await create(call % 2 ? 'socket' : 'rest', service, data(), call % 2 ? '::ffff:10.64.0.1' : '10.64.0.1'),
      ).toBe(400);
    }
    expect(await create('rest', service, data(), '::ffff:10.64.0.1')).toBe(429);
    expect(await create('socket', service, data(), '10.64.0.1')).toBe(429);
    expect(await create('rest', service, data(), '10.64.0.2')).toBe(400);
  });
});
