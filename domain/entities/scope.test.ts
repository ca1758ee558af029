import { describe, expect, it } from 'vitest';
import { admins } from './admins.ts';
import {
  CONFIRMATION_DIFFERS,
  confirmationName,
  confirmedFields,
  OUT_OF_SCOPE,
  scopeProblems,
  takeConfirmations,
  writtenValues,
} from './scope.ts';
import { users } from './users.ts';

describe('the values a write gives', () => {
  it('are its plain keys and its $set paths, not its other operators', () => {
    expect(writtenValues({ name: 'A', $set: { type: 'editor' }, $push: { tags: 'x' } })).toEqual({
      name: 'A',
      type: 'editor',
    });
    expect(writtenValues(null)).toEqual({});
    expect(writtenValues(['type'])).toEqual({});
  });
});

describe('a scoped definition’s writes', () => {
  it('stay inside the scope, whatever the syntax', () => {
    expect(scopeProblems(admins, { type: 'editor' })).toEqual({});
    expect(scopeProblems(admins, { type: 'member' })).toEqual({ type: OUT_OF_SCOPE });
    expect(scopeProblems(admins, { $set: { type: 'member' } })).toEqual({ type: OUT_OF_SCOPE });
    expect(scopeProblems(admins, { type: null })).toEqual({ type: OUT_OF_SCOPE });
    // Not plain: the field's own schema refuses it.
    expect(scopeProblems(admins, { type: { $ne: 'x' } })).toEqual({});
    // A write that does not touch the scoped field, and a definition without a scope.
    expect(scopeProblems(admins, { name: 'A' })).toEqual({});
    expect(scopeProblems(users, { role: 'member' })).toEqual({});
  });
});

describe('confirmed fields', () => {
  it('are the ones marked, their confirmation named after them', () => {
    expect(confirmedFields(admins.fields)).toEqual(['password']);
    expect(confirmedFields(users.fields)).toEqual([]);
    expect(confirmationName('password')).toBe('passwordConfirm');
  });

  it('take the confirmation out of the data, plain or in $set, and say when it differs', () => {
    expect(takeConfirmations(admins.fields, { password: 'Abcdefg1', passwordConfirm: 'Abcdefg1' })).toEqual({
      data: { password: 'Abcdefg1' },
      errors: {},
    });
    expect(takeConfirmations(admins.fields, { password: 'Abcdefg1', passwordConfirm: 'Abcdefg2' })).toEqual({
      data: { password: 'Abcdefg1' },
      errors: { passwordConfirm: CONFIRMATION_DIFFERS },
    });
    expect(takeConfirmations(admins.fields, { $set: { password: 'Abcdefg1', passwordConfirm: 'Abcdefg1' } })).toEqual({
      data: { $set: { password: 'Abcdefg1' } },
      errors: {},
    });
    expect(takeConfirmations(admins.fields, { name: 'A', $set: { passwordConfirm: 'Abcdefg1' } })).toEqual({
      data: { name: 'A' },
      errors: { passwordConfirm: CONFIRMATION_DIFFERS },
    });
  });

  it('leave data without a confirmation as it is, the same object', () => {
    const data = { password: 'Abcdefg1' };
    expect(takeConfirmations(admins.fields, data).data).toBe(data);
    // Where no field is confirmed, a confirmation is just an unknown field for validation to refuse.
    const other = { password: 'Abcdefg1', passwordConfirm: 'x' };
    expect(takeConfirmations(users.fields, other)).toEqual({ data: other, errors: {} });
  });
});
