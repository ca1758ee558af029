import argon2 from 'argon2';

/**
 * How passwords are hashed: argon2id, with the library's defaults (64 MiB, three passes) for a real
 * site. `fast` (1 MiB, one pass) is for test runs only, whose suites hash and check passwords
 * hundreds of times: a tenth of a second each would be most of their time. A hash names its own
 * cost, so checking one never depends on the setting: a hash made either way verifies either way.
 */
export type PasswordHashing = 'standard' | 'fast';

const FAST = { memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

let hashing: PasswordHashing = 'standard';
// Compared against when no account matches, so an unknown email costs as much time as a known one:
// made at the cost the accounts' own hashes are made at.
const dummies = new Map<PasswordHashing, Promise<string>>();

/** Sets the cost of the hashes this process makes from now on (config `PASSWORD_HASHING`). */
export function setPasswordHashing(value: PasswordHashing): void {
  hashing = value;
}

export function hashPassword(password: string): Promise<string> {
  return hashing === 'fast' ? argon2.hash(password, FAST) : argon2.hash(password);
}

/** True when the password matches the hash; false for a wrong password or a hash that is not one. */
export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return argon2.verify(hash, password).catch(() => false);
}

/** A hash no password given at sign-in matches, made at the current cost. */
export function dummyHash(): Promise<string> {
  let dummy = dummies.get(hashing);
  if (!dummy) {
    dummy = hashPassword('not-a-real-password-0A');
    dummies.set(hashing, dummy);
  }
  return dummy;
}
