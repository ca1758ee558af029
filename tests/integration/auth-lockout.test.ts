import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../../server/auth/address.ts';
import { LOGIN_LIMITS, pairKey } from '../../server/auth/limits.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  createAccount,
  redisSkipReason,
  skipReason,
  socketClient,
  startTestServer,
  startTestServers,
  TEST_REDIS_URL,
  uniqueEmail,
  type FeathersErrorJSON,
} from './harness.ts';

/**
 * Sign-in limits that an attacker cannot turn against the owner (decision 004): failures count per
 * account and address, each one past the free ones waits longer; per address and per account a day
 * of failures has a ceiling; IPv6 counts per /64. Each attempt is a real request, over REST or
 * socket.io, to a server that keeps its limits in its own memory, or to two instances that share
 * them in Redis (attempts alternate between the two).
 *
 * Every password check costs an argon2 hash (cheap at the tests' hashing cost, but thousands add up), so the daily
 * ceilings are brought near their production values the way the server counts failures (its own
 * limiters), and real failures cross them. A wait "passes" the same way: its key is removed.
 */

const { consecutiveFailures, failuresPerAccount, failuresPerIp, waits } = LOGIN_LIMITS;
const FREE = consecutiveFailures.points;
const WRONG = 'Wrong-pass1';
const redisReason = await redisSkipReason();

type Via = 'rest' | 'socket';
interface Answer {
  code: number;
  message?: string;
  /** Seconds, from the Retry-After header (REST) or the error's data (socket). */
  retryAfter?: number;
}

const stores = [
  { store: 'in this process', skip: skipReason, instances: 1 },
  { store: 'in Redis, shared by two instances', skip: redisReason, instances: 2 },
];

// Up to nine password checks a test: more than the default allows on a busy two-core machine.
describe.each(stores)('sign-in limits kept $store', { timeout: 60_000 }, ({ skip, instances }) => {
  const prefix = `test-${randomBytes(6).toString('hex')}`;
  let servers: RunningServer[] = [];
  let turn = 0;
  /** The instance for the next call: each in turn, so the instances have to count together. */
  const server = () => servers[turn++ % servers.length] as RunningServer;
  const limits = () => (servers[0] as RunningServer).api.limits;

  let nextAddress = 1;
  /** A fresh IPv4 address for X-Forwarded-For (this file's server trusts the loopback proxy). */
  const newAddress = () => `10.${instances}.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

  beforeAll(async () => {
    if (skip) return;
    servers =
      instances === 1
        ? [await startTestServer({ trustProxy: 'loopback' })]
        : await startTestServers(instances, { trustProxy: 'loopback', redisUrl: TEST_REDIS_URL, redisPrefix: prefix });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    if (instances === 1 || skip) return;
    // Keys of this run only: other runs (and the other database project) share the Redis.
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  async function signIn(via: Via, email: string, password: string, address: string, locale = 'en'): Promise<Answer> {
    const target = server();
    if (via === 'rest') {
      const response = await fetch(`${target.url}/api/authentication`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-forwarded-for': address,
          'x-locale': locale,
        },
        body: JSON.stringify({ strategy: 'local', email, password }),
      });
      const body = (await response.json()) as FeathersErrorJSON;
      const header = response.headers.get('retry-after');
      return {
        code: response.status === 201 ? 201 : body.code,
        message: body.message,
        ...(header === null ? {} : { retryAfter: Number(header) }),
      };
    }
    const s = socketClient(target.url, { 'x-forwarded-for': address, 'x-locale': locale });
    try {
      await s.client.authenticate({ strategy: 'local', email, password });
      return { code: 201 };
    } catch (caught) {
      const error = caught as FeathersErrorJSON;
      const retryAfter = error.data?.retryAfter;
      return { code: error.code, message: error.message, ...(typeof retryAfter === 'number' ? { retryAfter } : {}) };
    } finally {
      s.close();
    }
  }
  /** As if this account's wait at this address had run out. */
  const letWaitPass = (email: string, address: string) =>
    limits().pairWaits.delete(pairKey(addressKey(address), email));
  const account = (role: 'admin' | 'member' = 'member') =>
    createAccount((servers[0] as RunningServer).database.knex, { role });
  const waiting = (answer: Answer, longest: number) => {
    expect(answer).toMatchObject({ code: 429, message: 'Too many sign-in attempts. Please try again later.' });
    expect(answer.retryAfter).toBeGreaterThan(0);
    expect(answer.retryAfter).toBeLessThanOrEqual(longest);
  };

  it.skipIf(skip)("an attacker's failures from one address leave the owner signing in from another", async () => {
    const owner = await account('admin');
    const attacker = newAddress();
    for (let attempt = 0; attempt < FREE; attempt += 1) {
      expect(
        await signIn(attempt % 2 ? 'socket' : 'rest', owner.email, WRONG, attacker),
        `failure ${attempt + 1}`,
      ).toMatchObject({ code: 401 });
    }
    // The attacker now waits, even with the right password, over either transport...
    for (const via of ['rest', 'socket'] as const)
      waiting(await signIn(via, owner.email, owner.password, attacker), waits[0]);
    // ...while the owner, from their own address, signs in over either.
    for (const via of ['socket', 'rest'] as const)
      expect(await signIn(via, owner.email, owner.password, newAddress())).toEqual({ code: 201 });
    expect(await signIn('rest', owner.email, owner.password, attacker, 'zh-hk')).toMatchObject({
      code: 429,
      message: '登入嘗試次數過多，請稍後再試。',
    });
  });

  it.skipIf(skip)('failures in a row from one address wait longer each time, for unknown emails alike', async () => {
    const member = await account();
    const address = newAddress();
    for (let attempt = 0; attempt < FREE; attempt += 1)
      expect(await signIn('rest', member.email, WRONG, address)).toMatchObject({ code: 401 });
    const first = await signIn('socket', member.email, member.password, address);
    waiting(first, waits[0]);
    expect(first.retryAfter).toBeGreaterThan(waits[0] - 30);

    await letWaitPass(member.email, address);
    expect(await signIn('socket', member.email, WRONG, address)).toMatchObject({ code: 401 });
    const second = await signIn('rest', member.email, member.password, address);
    waiting(second, waits[1] ?? waits[0]);
    expect(second.retryAfter).toBeGreaterThan(waits[0]);

    // An email without an account waits the same way, so waiting says nothing about who has one.
    const nobody = uniqueEmail('nobody');
    await limits().consecutiveFailures.penalty(pairKey(addressKey(address), nobody), FREE - 1);
    expect(await signIn('rest', nobody, WRONG, address)).toMatchObject({ code: 401 });
    waiting(await signIn('socket', nobody, WRONG, address), waits[0]);
  });

  it.skipIf(skip)('a success clears the failures in a row of its own address, not those of others', async () => {
    const owner = await account();
    const home = newAddress();
    const attacker = newAddress();
    for (let attempt = 0; attempt < FREE - 1; attempt += 1) {
      expect(await signIn(attempt % 2 ? 'socket' : 'rest', owner.email, WRONG, home)).toMatchObject({ code: 401 });
    }
    // An attacker's failures from elsewhere, counted where the server counts them.
    await limits().consecutiveFailures.penalty(pairKey(addressKey(attacker), owner.email), FREE - 1);
    expect(await signIn('socket', owner.email, owner.password, home)).toEqual({ code: 201 });
    // Home starts again: without the reset this failure would be past the free ones, and the next attempt would wait.
    expect(await signIn('rest', owner.email, WRONG, home)).toMatchObject({ code: 401 });
    expect(await signIn('rest', owner.email, owner.password, home)).toEqual({ code: 201 });
    // The attacker's run goes on: its next failure is the last free one.
    expect(await signIn('rest', owner.email, WRONG, attacker)).toMatchObject({ code: 401 });
    waiting(await signIn('socket', owner.email, owner.password, attacker), waits[0]);
  });

  it.skipIf(skip)("an account's failures from every address together stop at its daily ceiling", async () => {
    const member = await account();
    // Failures earlier today from other addresses; the last ones below are real, each from an address of its own.
    await limits().failuresPerAccount.penalty(member.email, failuresPerAccount.points - 2);
    expect(await signIn('rest', member.email, WRONG, newAddress())).toMatchObject({ code: 401 });
    expect(await signIn('socket', member.email, WRONG, newAddress())).toMatchObject({ code: 401 });
    for (const via of ['rest', 'socket'] as const)
      waiting(await signIn(via, member.email, member.password, newAddress()), failuresPerAccount.duration);
    // Other accounts, from the same addresses, are not held back.
    const other = await account();
    expect(await signIn('rest', other.email, other.password, newAddress())).toEqual({ code: 201 });
  });

  it.skipIf(skip)("an address's failures over many accounts stop at its daily ceiling, for a day", async () => {
    const member = await account();
    const address = newAddress();
    await limits().failuresPerIp.penalty(addressKey(address), failuresPerIp.points - 2);
    expect(await signIn('rest', uniqueEmail('spray'), WRONG, address)).toMatchObject({ code: 401 });
    expect(await signIn('socket', uniqueEmail('spray'), WRONG, address)).toMatchObject({ code: 401 });
    for (const via of ['rest', 'socket'] as const) {
      const blocked = await signIn(via, member.email, member.password, address);
      waiting(blocked, failuresPerIp.blockDuration ?? failuresPerIp.duration);
      expect(blocked.retryAfter).toBeGreaterThan((failuresPerIp.blockDuration ?? failuresPerIp.duration) - 60);
    }
    expect(await signIn('socket', member.email, member.password, newAddress())).toEqual({ code: 201 });
  });

  it.skipIf(skip)('IPv6 addresses of one /64 share their counts; the next /64 has its own', async () => {
    const member = await account();
    const net = `2001:db8:${instances}:${(nextAddress++).toString(16)}`;
    // However the /64's addresses are written, and whichever of them it uses.
    const sameNet = [
      `${net}::1`,
      `${net}:0:0:0:2`,
      `${net.toUpperCase()}:ABCD::`,
      `${net}:1:2:3:4`,
      `${net}::ffff:ffff`,
    ];
    for (let attempt = 0; attempt < FREE; attempt += 1) {
      const address = sameNet[attempt % sameNet.length] as string;
      expect(await signIn(attempt % 2 ? 'socket' : 'rest', member.email, WRONG, address), address).toMatchObject({
        code: 401,
      });
    }
    waiting(await signIn('socket', member.email, member.password, `${net}:dead:beef:0:1`), waits[0]);
    waiting(await signIn('rest', member.email, member.password, `${net}::99`), waits[0]);
    const nextNet = `2001:db8:${instances}:${(nextAddress++).toString(16)}::1`;
    expect(await signIn('rest', member.email, member.password, nextNet)).toEqual({ code: 201 });
  });
});
