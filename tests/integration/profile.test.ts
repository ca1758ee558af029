import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createTestApp, rejectionOf, skipReason, typedService, type TestApp } from './harness.ts';

/**
 * What the profile page writes (app/routes/portal/profile.tsx), as the users service takes it from
 * any caller: a contact number in the registration's format or none, and a session kept through a
 * change of password when the caller names it.
 */
describe.skipIf(skipReason)('a member’s own profile', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('takes a contact number in the registration’s format, or none, and refuses anything else in the caller’s language', async () => {
    const account = await createAccount(app.database.knex, { label: 'profile-phone' });
    const users = typedService(app.api, 'users');
    const user = { _id: account._id, role: account.role };
    const as = (lang: string) => ({ provider: 'rest', user, headers: { 'x-locale': lang } });
    for (const phone of ['call me', '12', '+852 9123 4567 8901 2345 6']) {
      const error = await rejectionOf(users.patch(account._id, { phone }, as('zh-hk')));
      expect(error).toMatchObject({ code: 400, errors: { phone: expect.any(String) } });
    }
    expect((await rejectionOf(users.patch(account._id, { $set: { phone: 'call me' } }, as('en')))).errors).toEqual({
      phone: 'Invalid phone format.',
    });
    expect((await users.patch(account._id, { phone: '+852 9123 4567' }, as('en'))).phone).toBe('+852 9123 4567');
    expect((await users.patch(account._id, { phone: '' }, as('en'))).phone).toBe('');
  });
});
