import { describe, expect, it } from 'vitest';
import { formErrors } from './messages.ts';
import { passwordChangeFromForm, passwordChangeSchema, profileFromForm, profileSchema } from './profile.ts';

const form = (values: Record<string, string>) => new URLSearchParams(values);
const good = {
  name: 'Chan Tai Man',
  firstName: 'Tai Man',
  lastName: 'Chan',
  companyName: 'Chan Noodles',
  phone: '+852 9123 4567',
  companyAddress: '1 Queen’s Road',
  locale: 'zh-hk',
};

describe('the profile form', () => {
  it('takes a whole profile, trimmed', () => {
    const parsed = profileSchema.parse(profileFromForm(form({ ...good, name: '  Chan Tai Man  ' })));
    expect(parsed).toEqual(good);
  });

  it('reads a field left out as empty, which clears it', () => {
    expect(profileFromForm(form({ name: 'Lee' }))).toEqual({
      name: 'Lee',
      firstName: '',
      lastName: '',
      companyName: '',
      phone: '',
      companyAddress: '',
      locale: '',
    });
    expect(profileSchema.safeParse({ ...good, phone: '', companyName: '' }).success).toBe(true);
  });

  it('names each problem by its message key', () => {
    const input = { ...good, name: ' ', phone: 'call me', locale: 'fr', firstName: 'x'.repeat(61) };
    const result = profileSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(formErrors(result.error!, input)).toEqual({
      name: 'validation.required',
      phone: 'validation.phoneFormat',
      locale: 'validation.invalid',
      firstName: 'validation.tooBig',
    });
  });
});

describe('the change of password', () => {
  const change = (values: Record<string, string>) => {
    const input = passwordChangeFromForm(form(values));
    const result = passwordChangeSchema.safeParse(input);
    return result.success ? {} : formErrors(result.error, input);
  };

  it('takes the current password and a new one typed twice', () => {
    expect(
      change({ currentPassword: 'Old-pass1', password: 'New pass phrase 9A', passwordConfirm: 'New pass phrase 9A' }),
    ).toEqual({});
  });

  it('asks for every field, then the password rules, then the same password twice', () => {
    expect(change({})).toEqual({
      currentPassword: 'validation.required',
      password: 'validation.required',
      passwordConfirm: 'validation.required',
    });
    expect(change({ currentPassword: 'x', password: 'short', passwordConfirm: 'short' })).toMatchObject({
      password: 'validation.passwordMin',
    });
    expect(change({ currentPassword: 'x', password: 'Longer-pass1', passwordConfirm: 'Longer-pass2' })).toEqual({
      passwordConfirm: 'validation.passwordMismatch',
    });
  });
});
