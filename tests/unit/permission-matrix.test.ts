import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cell, exporters, withMatrix } from '../../domain/admin/permissions.ts';
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
    expect(cell(entities.admins, 'editor')).toBe('—');
    expect(cell(entities.admins, 'admin')).toBe('list · read · create · change · delete');
  });

  it('says who exports each table: personal data by admins only, nothing where the back office has no export', () => {
    expect(exporters('modules')).toBe('editor, admin');
    expect(exporters('contactForms')).toBe('admin (personal data)');
    expect(exporters('admins')).toBe('admin (personal data)');
    // Not a back-office table, and a table with no exported field.
    expect(exporters('balanceEntries')).toBe('—');
    expect(exporters('mailDeliveries')).toBe('—');
  });
});
