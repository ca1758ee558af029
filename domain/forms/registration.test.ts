import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import zhCn from '../../locales/zh-cn.json';
import zhHk from '../../locales/zh-hk.json';
import { PASSWORD_BREACHED, PASSWORD_INVALID, PASSWORD_MESSAGES } from '../validation/password.ts';
import { FORM_MESSAGES, formErrors, type FormErrors, formSummary } from './messages.ts';
import {
  REGISTRATION_FIELDS,
  REGISTRATION_MESSAGES,
  registrationFromForm,
  registrationSchema,
} from './registration.ts';

const catalogues = { en, 'zh-hk': zhHk, 'zh-cn': zhCn } as Record<string, Record<string, unknown>>;
function text(locale: string, key: string): string | undefined {
  let node: unknown = catalogues[locale];
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'string' ? node : undefined;
}

const valid = {
  email: 'Mei@Chan-Noodles.HK',
  name: 'Mei Chan',
  companyName: 'Chan Noodles',
  companyAddress: '12 Nathan Road, Kowloon',
  phone: '+852 9123 4567',
  phoneConfirm: '+85291234567',
  password: 'Noodles2024',
  passwordConfirm: 'Noodles2024',
  locale: 'zh-hk',
};

function errorsOf(input: Record<string, unknown>): FormErrors {
  const parsed = registrationSchema.safeParse(input);
  return parsed.success ? {} : formErrors(parsed.error, input);
}

describe('the registration form', () => {
  it('names every field of the schema, in its order', () => {
    expect([...REGISTRATION_FIELDS]).toEqual(Object.keys(registrationSchema.shape));
  });

  it('passes complete, valid answers: the email in lower case, the rest as given', () => {
    const parsed = registrationSchema.parse(valid);
    expect(parsed).toEqual({ ...valid, email: 'mei@chan-noodles.hk' });
  });

  it.each([
    ['email left empty', { email: '' }, { email: FORM_MESSAGES.required }],
    ['email missing', { email: undefined }, { email: FORM_MESSAGES.required }],
    ['an invalid email', { email: 'mei.chan.hk' }, { email: FORM_MESSAGES.email }],
    ['no account name', { name: ' ' }, { name: FORM_MESSAGES.required }],
    ['no company name', { companyName: '' }, { companyName: FORM_MESSAGES.required }],
    ['no company address', { companyAddress: '' }, { companyAddress: FORM_MESSAGES.required }],
    ['an invalid phone', { phone: 'call me', phoneConfirm: 'call me' }, { phone: FORM_MESSAGES.phone }],
    ['no phone confirmation', { phoneConfirm: '' }, { phoneConfirm: FORM_MESSAGES.required }],
    ['phones inconsistent', { phoneConfirm: '+852 9123 4568' }, { phoneConfirm: REGISTRATION_MESSAGES.phoneMismatch }],
    [
      'no password',
      { password: '', passwordConfirm: '' },
      { password: FORM_MESSAGES.required, passwordConfirm: FORM_MESSAGES.required },
    ],
    ['a password under 8 characters', { password: 'Ab1', passwordConfirm: 'Ab1' }, { password: PASSWORD_MESSAGES.min }],
    [
      'a password without a number',
      { password: 'Abcdefghi', passwordConfirm: 'Abcdefghi' },
      { password: PASSWORD_MESSAGES.digit },
    ],
    [
      'a password without a lower-case letter',
      { password: 'ABCDEFG12', passwordConfirm: 'ABCDEFG12' },
      { password: PASSWORD_MESSAGES.lower },
    ],
    [
      'a password without an upper-case letter',
      { password: 'abcdefg12', passwordConfirm: 'abcdefg12' },
      { password: PASSWORD_MESSAGES.upper },
    ],
    [
      'a password over 200 characters',
      { password: `Aa1${'x'.repeat(198)}`, passwordConfirm: `Aa1${'x'.repeat(198)}` },
      { password: PASSWORD_INVALID },
    ],
    [
      'a password with a line break',
      { password: 'Noodles\n2024', passwordConfirm: 'Noodles\n2024' },
      { password: PASSWORD_INVALID },
    ],
    [
      'passwords inconsistent',
      { passwordConfirm: 'Noodles2025' },
      { passwordConfirm: REGISTRATION_MESSAGES.passwordMismatch },
    ],
    ['no language', { locale: '' }, { locale: FORM_MESSAGES.required }],
    ['a language not offered', { locale: 'fr' }, { locale: FORM_MESSAGES.invalid }],
  ])('%s', (_label, change, expected) => {
    expect(errorsOf({ ...valid, ...change })).toEqual(expected);
  });

  it('accepts long passphrases: 64 characters, and up to 200', () => {
    const passphrase = 'Correct horse battery staple, 42 bowls of wonton noodles in Mongkok';
    expect(passphrase.length).toBeGreaterThanOrEqual(64);
    expect(errorsOf({ ...valid, password: passphrase, passwordConfirm: passphrase })).toEqual({});
    const longest = `Aa1${'x'.repeat(197)}`;
    expect(errorsOf({ ...valid, password: longest, passwordConfirm: longest })).toEqual({});
  });

  it('does not trim passwords: a space is part of one', () => {
    expect(errorsOf({ ...valid, passwordConfirm: 'Noodles2024 ' })).toEqual({
      passwordConfirm: REGISTRATION_MESSAGES.passwordMismatch,
    });
  });

  it("says 'Please fill in the blanks.' above the form when an answer is missing", () => {
    const errors = errorsOf({ ...valid, name: '', phone: 'nope' });
    expect(formSummary(errors, REGISTRATION_MESSAGES.incomplete)).toBe(REGISTRATION_MESSAGES.incomplete);
    expect(
      formSummary(errorsOf({ ...valid, phone: 'nope', phoneConfirm: 'nope' }), REGISTRATION_MESSAGES.incomplete),
    ).toBe(FORM_MESSAGES.phone);
  });

  it('reads a browser form: texts trimmed by the schema, passwords as typed, empty answers left out', () => {
    const form = new URLSearchParams({ ...valid, name: '  ', password: ' Noodles2024 ' });
    expect(registrationFromForm(form)).toEqual({ ...valid, name: undefined, password: ' Noodles2024 ' });
  });

  it('has every message of spec section 5 in the three languages, as the spec words it in English', () => {
    const spec: Record<string, string> = {
      [REGISTRATION_MESSAGES.incomplete]: 'Please fill in the blanks.',
      [REGISTRATION_MESSAGES.accountExists]: 'Account already exist',
      [FORM_MESSAGES.phone]: 'Invalid phone format.',
      [FORM_MESSAGES.email]: 'Invalid email format.',
      [PASSWORD_INVALID]: 'Invalid password: use up to 200 characters, without line breaks or tabs.',
      [PASSWORD_MESSAGES.min]: 'Minimum 8 characters',
      [PASSWORD_MESSAGES.digit]: 'At least 1 number',
      [PASSWORD_MESSAGES.lower]: 'At least 1 lower-case letter',
      [PASSWORD_MESSAGES.upper]: 'At least 1 upper-case letter',
      [REGISTRATION_MESSAGES.passwordMismatch]: 'The passwords are inconsistent.',
      [REGISTRATION_MESSAGES.phoneMismatch]: 'The contact numbers are inconsistent.',
      [PASSWORD_BREACHED]: 'This password is too common and has appeared in data breaches. Please choose another.',
    };
    for (const [key, english] of Object.entries(spec)) {
      expect(text('en', key), key).toBe(english);
      for (const locale of ['zh-hk', 'zh-cn']) expect(text(locale, key), `${key} ${locale}`).toMatch(/[\u3400-\u9fff]/);
    }
  });
});
