import { describe, expect, it } from 'vitest';
import { formErrors } from './messages.ts';
import {
  passwordResetFromForm,
  passwordResetRequestSchema,
  passwordResetSchema,
  RESET_TOKEN,
} from './password-reset.ts';

const form = (values: Record<string, string>) => new URLSearchParams(values);

describe('asking for a password reset', () => {
  it('takes an email, trimmed and in lower case', () => {
    expect(passwordResetRequestSchema.parse({ email: '  Mei.Chan@Example.COM ' })).toEqual({
      email: 'mei.chan@example.com',
    });
  });

  it('names an empty or malformed email by its message key', () => {
    for (const [email, key] of [
      ['', 'validation.required'],
      ['mei', 'validation.emailFormat'],
      [`${'a'.repeat(250)}@x.io`, 'validation.tooBig'],
    ] as const) {
      const result = passwordResetRequestSchema.safeParse({ email });
      expect(result.success).toBe(false);
      expect(formErrors(result.error!, { email })).toEqual({ email: key });
    }
  });
});

describe('setting the new password', () => {
  it('takes a password by the rules, typed twice, as typed', () => {
    const answers = passwordResetFromForm(
      form({ password: ' Noodles-2024 ', passwordConfirm: ' Noodles-2024 ', other: 'x' }),
    );
    expect(answers).toEqual({ password: ' Noodles-2024 ', passwordConfirm: ' Noodles-2024 ' });
    expect(passwordResetSchema.parse(answers)).toEqual(answers);
  });

  it('reads a field left out as empty', () => {
    expect(passwordResetFromForm(form({}))).toEqual({ password: '', passwordConfirm: '' });
  });

  it('names each problem by its message key', () => {
    const cases: [Record<string, string>, Record<string, string>][] = [
      [
        { password: '', passwordConfirm: '' },
        { password: 'validation.required', passwordConfirm: 'validation.required' },
      ],
      [{ password: 'short1A', passwordConfirm: 'short1A' }, { password: 'validation.passwordMin' }],
      [{ password: 'nodigits-Here', passwordConfirm: 'nodigits-Here' }, { password: 'validation.passwordDigit' }],
      [{ password: 'NOLOWER-2024', passwordConfirm: 'NOLOWER-2024' }, { password: 'validation.passwordLower' }],
      [{ password: 'noupper-2024', passwordConfirm: 'noupper-2024' }, { password: 'validation.passwordUpper' }],
      [{ password: 'Tab\there-2024', passwordConfirm: 'Tab\there-2024' }, { password: 'validation.passwordInvalid' }],
      [
        { password: 'Noodles-2024', passwordConfirm: 'Noodles-2025' },
        { passwordConfirm: 'validation.passwordMismatch' },
      ],
    ];
    for (const [input, errors] of cases) {
      const result = passwordResetSchema.safeParse(input);
      expect(result.success, JSON.stringify(input)).toBe(false);
      expect(formErrors(result.error!, input)).toEqual(errors);
    }
  });

  it('knows a token by its shape only', () => {
    expect(RESET_TOKEN.test('a'.repeat(43))).toBe(true);
    expect(RESET_TOKEN.test('short')).toBe(false);
    expect(RESET_TOKEN.test(`${'a'.repeat(42)}=`)).toBe(false);
  });
});
