import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Common breached passwords (decision 020): the whole `passwords-common` list of zxcvbn-ts (about
 * 49 000 passwords from public breaches, most common first, all lower-case), compared without
 * regard to case. Only the entries a password could match after passing the rules are kept (8+
 * characters with a letter and a digit: about 5 200), so checking every entry costs a small set.
 * The server alone holds the list: the pages' scripts never ship it.
 */
let breached: ReadonlySet<string> | undefined;

function list(): ReadonlySet<string> {
  breached ??= new Set(
    dictionary['passwords-common'].filter((entry) => entry.length >= 8 && /\d/.test(entry) && /\p{L}/u.test(entry)),
  );
  return breached;
}

/** How many breached passwords a password is compared with. */
export function breachedPasswordCount(): number {
  return list().size;
}

/** Whether a password is one of the common breached ones, whatever its letter case (`Password1` is `password1`). */
export function isBreachedPassword(password: string): boolean {
  return list().has(password.toLowerCase());
}
