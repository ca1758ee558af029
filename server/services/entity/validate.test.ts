import { BadRequest } from '@feathersjs/errors';
import { describe, expect, it } from 'vitest';
import { z } from '../../../domain/zod.ts';
import { defineEntity } from '../../../domain/entities/types.ts';
import { createData, validateCreate, validatePatch } from './validate.ts';

/** A definition whose title counts how often it is checked, with a rule over two fields. */
function countingNotes() {
  const checks = { title: 0 };
  const def = defineEntity({
    service: 'notes',
    table: 'notes',
    fields: {
      _id: { kind: 'id', column: 'id', readonly: true },
      title: {
        kind: 'string',
        required: true,
        schema: z.string().transform((title) => {
          checks.title += 1;
          return title.trim();
        }),
      },
      kind: { kind: 'enum', enum: ['plain', 'other'], required: true },
      detail: { kind: 'string' },
    },
    recordRules: (note): Record<string, string> =>
      note.kind === 'other' && !note.detail ? { detail: 'validation.required' } : {},
    defaultSort: { _id: 1 },
    access: { find: 'public', get: 'public', create: 'public', patch: 'public', remove: 'public' },
  });
  return { def, checks };
}

const refusal = (write: () => unknown) => {
  try {
    write();
  } catch (error) {
    if (error instanceof BadRequest) return error.errors as Record<string, string>;
    throw error;
  }
  throw new Error('expected the data to be refused');
};

describe('create data is checked once per write', () => {
  it('passes on what a hook checked, as it is, without checking it again', () => {
    const { def, checks } = countingNotes();
    const valid = validateCreate(def, { title: ' Menu ', kind: 'plain' });
    expect(createData(def, valid)).toBe(valid);
    expect(checks.title).toBe(1);
    expect(Object.isFrozen(valid)).toBe(true);
  });

  it('checks data no hook checked, a changed copy, and data checked for another definition', () => {
    const { def, checks } = countingNotes();
    expect(createData(def, { title: 'Menu', kind: 'plain' })).toEqual({ title: 'Menu', kind: 'plain' });
    const valid = validateCreate(def, { title: 'Menu', kind: 'plain' });
    expect(createData(def, { ...valid, title: ' Lunch ' })).toEqual({ title: 'Lunch', kind: 'plain' });
    expect(refusal(() => createData(def, { ...valid, title: 42 }))).toEqual({ title: 'validation.invalid' });
    expect(checks.title).toBe(3);
    const other = countingNotes();
    expect(createData(other.def, valid)).not.toBe(valid);
    expect(other.checks.title).toBe(1);
  });
});

describe("a definition's record rules", () => {
  it('run after the fields on every create, their message keys kept', () => {
    const { def } = countingNotes();
    expect(refusal(() => validateCreate(def, { title: 'Menu', kind: 'other' }))).toEqual({
      detail: 'validation.required',
    });
    expect(validateCreate(def, { title: 'Menu', kind: 'other', detail: 'Lunch' })).toEqual({
      title: 'Menu',
      kind: 'other',
      detail: 'Lunch',
    });
  });

  it('read the record as a patch leaves it', () => {
    const { def } = countingNotes();
    const stored = { _id: 'n1', title: 'Menu', kind: 'other', detail: 'Lunch' };
    expect(validatePatch(def, { title: 'Dinner' }, stored)).toEqual({ title: 'Dinner' });
    expect(validatePatch(def, { detail: undefined }, stored)).toEqual({});
    expect(refusal(() => validatePatch(def, { detail: null }, stored))).toEqual({ detail: 'validation.required' });
    expect(refusal(() => validatePatch(def, { kind: 'other' }, { ...stored, kind: 'plain', detail: null }))).toEqual({
      detail: 'validation.required',
    });
  });
});
