import { describe, expect, it } from 'vitest';
import { passwordSchema } from '../../domain/validation/password.ts';
import { breachedPasswordCount, isBreachedPassword } from './breached-passwords.ts';

describe('common breached passwords', () => {
  it('refuses the common ones that pass the composition rules, whatever their letter case', () => {
    for (const password of ['Password1', 'pASSWORD1', 'Qwerty123', 'Trustno1', 'Passw0rd', 'Abcd1234', 'Welcome1']) {
      expect(passwordSchema.safeParse(password).success, password).toBe(true);
      expect(isBreachedPassword(password), password).toBe(true);
    }
  });

  it('lets other passwords and long passphrases through', () => {
    for (const password of [
      'Tillpoint-Counter-42',
      'Correct horse battery staple 9 Kowloon Bay noodles',
      'Valid1234x',
      'Admin12345x',
    ]) {
      expect(isBreachedPassword(password), password).toBe(false);
    }
  });

  it('compares with every entry a valid password could match', () => {
    expect(breachedPasswordCount()).toBeGreaterThan(5000);
  });
});
