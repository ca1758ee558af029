import { describe, expect, it } from 'vitest';
import { entities } from '../entities/index.ts';
import { appTemplates } from '../entities/app-templates.ts';
import { contactForms } from '../entities/contact-forms.ts';
import { users } from '../entities/users.ts';
import { admins } from '../entities/admins.ts';
import { enquiries } from '../entities/enquiries.ts';
import {
  actionsFor,
  ADMIN_SCREENS,
  columnsOf,
  editorFieldsOf,
  exportedFieldsOf,
  relatedListsFor,
  rowActionsFor,
  rowActionFits,
  screensFor,
  type AdminSource,
} from './screens.ts';

describe('the back office’s screens', () => {
  it('name each record by a field its entity has', () => {
    for (const [source, screen] of Object.entries(ADMIN_SCREENS)) {
      expect(entities[source as AdminSource].fields, source).toHaveProperty(screen.title);
    }
  });

  it('list for each role only what its access lets it read', () => {
    const editor = screensFor('editor');
    const admin = screensFor('admin');
    expect(admin).toEqual(Object.keys(ADMIN_SCREENS));
    expect(editor).toContain('contactForms');
    expect(screensFor('member')).not.toContain('contactForms');
  });

  it('offer only the actions both the role and the screen allow', () => {
    expect([...actionsFor('modules', 'editor')].sort()).toEqual(['add', 'clone', 'edit', 'export']);
    expect([...actionsFor('modules', 'admin')].sort()).toEqual(['add', 'clone', 'edit', 'export', 'remove', 'select']);
    // Other people's accounts are changed by admins only (the owner rule), whatever `patch` says.
    expect(actionsFor('users', 'editor').has('edit')).toBe(false);
    expect(actionsFor('users', 'admin').has('edit')).toBe(true);
    // Staff follow enquiries up (their follow-up and notes only); invoices are never removed.
    expect(actionsFor('enquiries', 'editor').has('edit')).toBe(true);
    expect(actionsFor('invoices', 'admin').has('remove')).toBe(false);
    expect(rowActionsFor('mailDeliveries', 'admin')[0]?.service).toBe('mailRetries');
    expect(rowActionsFor('mailDeliveries', 'editor')).toEqual([]);
    // A paid order is marked set up by staff, on the rows still being set up.
    expect(rowActionsFor('orders', 'editor')).toMatchObject([
      { service: 'fulfilments', field: 'order', when: { status: 'provisioning' } },
    ]);
    expect(rowActionsFor('orders', 'member')).toEqual([]);
  });

  it('offer each of a push message’s actions on the rows in a state for it', () => {
    const offered = (row: Record<string, unknown>) =>
      rowActionsFor('pushMessages', 'editor')
        .filter((action) => rowActionFits(action, row))
        .map((action) => action.key);
    expect(offered({ status: 'draft', device: null, date: null })).toEqual(['sendNow']);
    expect(offered({ status: 'draft', device: 'd1', date: '2026-12-01T00:00:00Z' })).toEqual([
      'sendTest',
      'sendNow',
      'schedule',
    ]);
    expect(offered({ status: 'scheduled', device: null, date: '2026-12-01T00:00:00Z' })).toEqual(['sendNow', 'cancel']);
    expect(offered({ status: 'sent', device: 'd1' })).toEqual(['sendTest']);
    expect(offered({ status: 'cancelled', device: null })).toEqual([]);
    expect(rowActionsFor('pushMessages', 'member')).toEqual([]);
  });

  it('show a news item’s push messages and registrants on its page, and post a failed one again (decision 059)', () => {
    expect(relatedListsFor('news', 'editor')).toEqual([
      { source: 'pushMessages', field: 'news' },
      { source: 'eventRegistrations', field: 'news' },
    ]);
    const offered = (row: Record<string, unknown>) =>
      rowActionsFor('news', 'editor')
        .filter((action) => rowActionFits(action, row))
        .map((action) => action.key);
    expect(offered({ status: 'published', facebookStatus: 'failed' })).toEqual(['postToFacebook']);
    for (const facebookStatus of [null, 'pending', 'posting', 'posted'])
      expect(offered({ status: 'published', facebookStatus })).toEqual([]);
    expect(offered({ status: 'draft', facebookStatus: 'failed' })).toEqual([]);
    // The post's id is the server's, shown as a link to it on Facebook.
    const post = editorFieldsOf(entities.news, 'editor', 'patch').find((field) => field.name === 'facebookPostId');
    expect(post).toMatchObject({ editable: false, widget: 'link' });
    expect(post?.def.hints?.href).toBe('https://www.facebook.com/{value}');
  });

  it('let whoever lists every row of an entity export it, and only its exported fields', () => {
    expect(actionsFor('modules', 'editor').has('export')).toBe(true);
    expect(actionsFor('blogs', 'editor').has('export')).toBe(true);
    // Editors do not read the audit log at all.
    expect(actionsFor('auditLogs', 'editor').has('export')).toBe(false);
    expect(actionsFor('auditLogs', 'admin').has('export')).toBe(true);
    expect(exportedFieldsOf(contactForms).map((field) => field.name)).toEqual([
      'name',
      'phone',
      'email',
      'companyName',
      'testing',
      'followUp',
      'notes',
      'createdAt',
    ]);
  });

  it('let only admins export records that hold personal data (decision 052)', () => {
    const personal = (Object.keys(ADMIN_SCREENS) as AdminSource[]).filter((source) => entities[source].personalData);
    expect(personal.sort()).toEqual(
      [
        'admins',
        'appDevices',
        'appUsers',
        'auditLogs',
        'contactForms',
        'enquiries',
        'eventRegistrations',
        'invoices',
        'orders',
        'outbox',
        'payments',
        'subscribers',
        'users',
      ].sort(),
    );
    for (const source of personal) {
      expect(actionsFor(source, 'editor').has('export'), source).toBe(false);
      expect(actionsFor(source, 'admin').has('export'), source).toBe(true);
    }
    // Editors still read and follow up what they may not export.
    expect(actionsFor('contactForms', 'editor').has('edit')).toBe(true);
  });

  it('show admins to admins only, under System', () => {
    expect(screensFor('admin')).toContain('admins');
    expect(screensFor('editor')).not.toContain('admins');
    expect(ADMIN_SCREENS.admins.group).toBe('system');
    expect([...actionsFor('admins', 'admin')].sort()).toEqual(['add', 'edit', 'export', 'remove', 'select']);
    expect(actionsFor('admins', 'editor').size).toBe(0);
  });

  it('ask a confirmed password twice: required on create, optional on edit', () => {
    const fields = (mode: 'create' | 'patch') =>
      editorFieldsOf(admins, 'admin', mode)
        .filter((field) => field.editable)
        .map((field) => ({ name: field.name, required: field.def.required === true, confirms: field.confirms }));
    expect(fields('create')).toEqual([
      { name: 'name', required: false, confirms: undefined },
      { name: 'email', required: true, confirms: undefined },
      { name: 'password', required: true, confirms: undefined },
      { name: 'passwordConfirm', required: true, confirms: 'password' },
      { name: 'type', required: true, confirms: undefined },
      { name: 'locale', required: false, confirms: undefined },
    ]);
    const patch = fields('patch');
    expect(patch.find((field) => field.name === 'password')).toEqual({
      name: 'password',
      required: false,
      confirms: undefined,
    });
    expect(patch.find((field) => field.name === 'passwordConfirm')).toEqual({
      name: 'passwordConfirm',
      required: false,
      confirms: 'password',
    });
  });

  it('put the columns in the definition’s order, its `column` hints first', () => {
    expect(columnsOf(users).map((field) => field.name)).toEqual(['email', 'name', 'role', 'companyName', 'createdAt']);
  });

  it('let the editor write only what the role may write, and a password only on create', () => {
    const editable = (role: 'editor' | 'admin', mode: 'create' | 'patch') =>
      editorFieldsOf(users, role, mode)
        .filter((field) => field.editable)
        .map((field) => field.name);
    expect(editable('admin', 'create')).toContain('password');
    expect(editable('admin', 'patch')).not.toContain('password');
    expect(editable('admin', 'patch')).toContain('role');
    expect(editable('editor', 'patch')).not.toContain('role');
    expect(editable('admin', 'patch')).not.toContain('emailVerifiedAt');
    // On an enquiry, staff write only the follow-up and the notes; the visitor's answers stay as sent.
    expect(
      editorFieldsOf(enquiries, 'editor', 'patch')
        .filter((field) => field.editable)
        .map((field) => field.name)
        .sort(),
    ).toEqual(['followUp', 'notes']);
    // A list of records (a plan's modules) is written row by row: a reference, money and a count.
    const modules = editorFieldsOf(appTemplates, 'admin', 'patch').find((field) => field.name === 'modules');
    expect(modules?.editable).toBe(true);
    expect(modules?.items).toEqual([
      { name: 'id', widget: 'ref', ref: 'modules', required: true },
      { name: 'monthPrice', widget: 'money', required: true },
      { name: 'count', widget: 'number', required: false },
    ]);
  });
});
