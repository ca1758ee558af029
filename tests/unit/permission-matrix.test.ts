import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cell, withMatrix } from '../../domain/admin/permissions.ts';
import { entities } from '../../domain/entities/index.ts';

describe('the permission matrix', () => {
  it('in the README is the one the definitions give (npm run docs:permissions writes it)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toBe(withMatrix(readme));
  });

  it('says what each caller may do, own rows and published records included', () => {
    expect(cell(entities.users, 'anonymous')).toBe('create');
    expect(cell(entities.users, 'member')).toBe('list own · read own · create · change own');
    expect(cell(entities.users, 'editor')).toBe('list · read · create · change own');
    expect(cell(entities.users, 'admin')).toBe('list · read · create · change · delete');
    expect(cell(entities.blogs, 'anonymous')).toBe('list published · read published');
    expect(cell(entities.invoices, 'anonymous')).toBe('—');
    expect(cell(entities.doctordistricts, 'editor')).toBe('list · read · create · change');
  });
});
