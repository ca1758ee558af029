import { describe, expect, it } from 'vitest';
import {
  admitSignIn,
  createLoginLimits,
  LOGIN_LIMITS,
  pairKey,
  pairWait,
  type AdmittedSignIn,
  type LoginLimits,
} from './limits.ts';

const free = LOGIN_LIMITS.consecutiveFailures.points;
const account = 'owner@shop.hk';
const attacker = '203.0.113.7';
const home = '198.51.100.20';

/** A failed attempt: admitted, and nothing given back. */
async function fail(limits: LoginLimits, address: string, who = account): Promise<void> {
  const attempt = await admitSignIn(limits, who, address);
  if ('retryAfter' in attempt) throw new Error(`attempt ${who} from ${address} had to wait ${attempt.retryAfter} s`);
}
const admitted = (attempt: AdmittedSignIn | { retryAfter: number }): attempt is AdmittedSignIn =>
  !('retryAfter' in attempt);

describe('pairWait', () => {
  it('starts at the first wait once the free failures are used, grows, and stays at the longest', () => {
    const { waits } = LOGIN_LIMITS;
    expect(waits.every((wait, index) => index === 0 || wait > (waits[index - 1] ?? 0))).toBe(true);
    expect(pairWait(LOGIN_LIMITS, free)).toBe(waits[0]);
    expect(pairWait(LOGIN_LIMITS, free + 1)).toBe(waits[1]);
    expect(pairWait(LOGIN_LIMITS, free + waits.length - 1)).toBe(waits.at(-1));
    expect(pairWait(LOGIN_LIMITS, free + waits.length + 50)).toBe(waits.at(-1));
  });
});

describe('admitSignIn (limits in this process)', () => {
  it("holds back an attacker's address for an account, not the owner's", async () => {
    const limits = createLoginLimits(null);
    for (let attempt = 0; attempt < free; attempt += 1) await fail(limits, attacker);
    const refused = await admitSignIn(limits, account, attacker);
    expect(refused).toEqual({ retryAfter: LOGIN_LIMITS.waits[0] });
    expect(admitted(await admitSignIn(limits, account, home))).toBe(true);
  });

  it('lets through one attempt at a time past the free failures, however many are sent at once', async () => {
    const limits = createLoginLimits(null);
    for (let attempt = 0; attempt < free - 1; attempt += 1) await fail(limits, attacker);
    const burst = await Promise.all(Array.from({ length: 10 }, () => admitSignIn(limits, account, attacker)));
    expect(burst.filter(admitted)).toHaveLength(1);
    // The refused ones were not counted as failures: the next wait is still the first one.
    await limits.pairWaits.delete(pairKey(attacker, account));
    expect((await limits.consecutiveFailures.get(pairKey(attacker, account)))?.consumedPoints).toBe(free);
  });

  it('gives back what it took when the right password follows, and clears the run of that address only', async () => {
    const limits = createLoginLimits(null);
    for (let attempt = 0; attempt < free - 1; attempt += 1) await fail(limits, attacker);
    for (let attempt = 0; attempt < free - 1; attempt += 1) await fail(limits, home);
    const attempt = await admitSignIn(limits, account, home);
    if (!admitted(attempt)) throw new Error('the owner had to wait');
    await attempt.succeeded();
    expect(await limits.consecutiveFailures.get(pairKey(home, account))).toBeNull();
    expect((await limits.consecutiveFailures.get(pairKey(attacker, account)))?.consumedPoints).toBe(free - 1);
    expect((await limits.failuresPerAccount.get(account))?.consumedPoints).toBe(2 * (free - 1));
    expect((await limits.failuresPerIp.get(home))?.consumedPoints).toBe(free - 1);
  });

  it('stops an account at its ceiling from every address, taking nothing from the refused ones', async () => {
    const limits = createLoginLimits(null);
    await limits.failuresPerAccount.penalty(account, LOGIN_LIMITS.failuresPerAccount.points);
    const refused = await admitSignIn(limits, account, home);
    expect('retryAfter' in refused && refused.retryAfter).toBeGreaterThan(0);
    expect(await limits.consecutiveFailures.get(pairKey(home, account))).toMatchObject({ consumedPoints: 0 });
    expect(await limits.failuresPerIp.get(home)).toMatchObject({ consumedPoints: 0 });
    expect(admitted(await admitSignIn(limits, 'other@shop.hk', home))).toBe(true);
  });

  it('stops an address at its daily count whatever the account, for a day', async () => {
    const limits = createLoginLimits(null);
    const { points, blockDuration } = LOGIN_LIMITS.failuresPerIp;
    await limits.failuresPerIp.penalty(attacker, points - 1);
    await fail(limits, attacker, 'one@shop.hk');
    const refused = await admitSignIn(limits, 'two@shop.hk', attacker);
    expect(refused).toEqual({ retryAfter: blockDuration });
    expect(admitted(await admitSignIn(limits, 'two@shop.hk', home))).toBe(true);
  });
});
