import { describe, expect, it } from 'vitest';
import { appDevices } from '../entities/app-devices.ts';
import { appUsers } from '../entities/app-users.ts';
import { exportCell } from './export-cells.ts';
import { checkChanges, formChanges, inputName, inputValue, readInput } from './form.ts';
import { editorDefaults, editorFormData } from './resolver.ts';
import {
  actionsFor,
  columnsOf,
  detailFieldsOf,
  editorFieldsOf,
  filtersOf,
  relatedListsFor,
  screensFor,
} from './screens.ts';
import { parseView, viewQuery } from './view.ts';

/*
 * The widgets the app users' screens brought: a calendar day (a date of birth) kept exactly as
 * written, and a switch that sets a moment (an account disabled).
 */

const editorFields = editorFieldsOf(appUsers, 'editor', 'patch');
const field = (name: string, fields = editorFields) => fields.find((candidate) => candidate.name === name)!;

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
}

const person = {
  _id: 'u1',
  name: 'Chan Tai Man',
  email: 'taiman@example.com',
  date: '1990-05-17',
  gender: 'male',
  locale: 'zh-hk',
  region: 'hk',
  disabledAt: null,
  updatedAt: '2026-11-01T04:00:00.000Z',
};

describe('a calendar day in the editor', () => {
  it('shows the day as kept and reads it back as typed, whatever the time zone', () => {
    const day = field('date');
    expect(day.widget).toBe('day');
    expect(day.editable).toBe(true);
    expect(inputValue(day, '1990-05-17')).toBe('1990-05-17');
    expect(inputValue(day, '2000-01-01')).toBe('2000-01-01');
    expect(inputValue(day, null)).toBe('');
    expect(readInput(day, form({ [inputName('date')]: ' 1990-05-17 ' }))).toBe('1990-05-17');
    // Unlike a date (Hong Kong's midnight as a moment), no time is added: the day is the value.
    expect(readInput(day, form({ [inputName('date')]: '2000-01-01' }))).toBe('2000-01-01');
    expect(readInput(day, form({ [inputName('date')]: '' }))).toBeNull();
    expect(readInput(day, form({}))).toBeUndefined();
  });

  it('sends a changed day alone, and nothing for the same day', () => {
    const changes = (typed: string) => formChanges([field('date')], form({ [inputName('date')]: typed }), person);
    expect(changes('1990-05-17')).toEqual({});
    expect(changes('1991-12-31')).toEqual({ date: '1991-12-31' });
    expect(changes('')).toEqual({ date: null });
  });

  it('is checked by the definition’s own rule before it is sent', () => {
    expect(checkChanges(editorFields, { date: '1990-02-30' }, false)).toEqual({ date: 'validation.day' });
    expect(checkChanges(editorFields, { date: '1890-01-01' }, false)).toEqual({ date: 'validation.dayTooEarly' });
    expect(checkChanges(editorFields, { date: '1990-05-17' }, false)).toEqual({});
  });

  it('is written to an export as kept, and shows as one', () => {
    const t = (key: string) => key;
    expect(exportCell(appUsers, 'date', person, t, 'en')).toBe('1990-05-17');
    expect(exportCell(appUsers, 'date', { date: '2000-01-01' }, t, 'zh-hk')).toBe('2000-01-01');
  });

  it('is filtered by days compared as written, with no time zone', () => {
    expect(filtersOf(appUsers).find((filter) => filter.name === 'date')?.type).toBe('dateRange');
    const view = parseView(appUsers, new URLSearchParams('f.date.min=1990-01-01&f.date.max=1990-12-31'));
    expect(viewQuery(appUsers, view).date).toEqual({ $gte: '1990-01-01', $lte: '1990-12-31' });
    const bad = parseView(appUsers, new URLSearchParams('f.date.min=1990-13-01'));
    expect(viewQuery(appUsers, bad).date).toBeUndefined();
  });
});

describe('a switch that sets a moment', () => {
  const disabled = field('disabledAt');
  const now = new Date('2026-11-29T02:00:00.000Z');
  const switched = (on: boolean, original: Record<string, unknown> | null) =>
    formChanges(
      [disabled],
      form({ [`${inputName('disabledAt')}.present`]: '1', ...(on ? { [inputName('disabledAt')]: 'on' } : {}) }),
      original,
      now,
    );

  it('is on while the moment is set', () => {
    expect(disabled.widget).toBe('timestampSwitch');
    expect(disabled.editable).toBe(true);
    expect(inputValue(disabled, '2026-11-02T03:00:00.000Z')).toBe(true);
    expect(inputValue(disabled, null)).toBe(false);
  });

  it('sets the moment to now when switched on, keeps it while left on, clears it when switched off', () => {
    expect(switched(true, person)).toEqual({ disabledAt: now.toISOString() });
    const since = '2026-11-02T03:00:00.000Z';
    expect(switched(true, { ...person, disabledAt: since })).toEqual({});
    expect(switched(false, { ...person, disabledAt: since })).toEqual({ disabledAt: null });
    expect(switched(false, person)).toEqual({});
    // Not on the form: not touched.
    expect(readInput(disabled, form({}))).toBeUndefined();
  });

  it('posts as the page’s inputs would, so the editor’s check sends the same', () => {
    const values = editorDefaults([disabled], { ...person, disabledAt: '2026-11-02T03:00:00.000Z' });
    expect(values.v.disabledAt).toBe(true);
    const posted = editorFormData([disabled], values);
    expect(posted.get(`${inputName('disabledAt')}.present`)).toBe('1');
    expect(posted.get(inputName('disabledAt'))).toBe('on');
    const off = editorFormData([disabled], { v: { disabledAt: false } });
    expect(off.has(inputName('disabledAt'))).toBe(false);
  });

  it('is filtered as set or not', () => {
    expect(filtersOf(appUsers).find((filter) => filter.name === 'disabledAt')?.type).toBe('boolean');
    const query = (text: string) => viewQuery(appUsers, parseView(appUsers, new URLSearchParams(text))).disabledAt;
    expect(query('f.disabledAt=true')).toEqual({ $ne: null });
    expect(query('f.disabledAt=false')).toBeNull();
    expect(query('f.disabledAt=true&f.disabledAt=false')).toBeUndefined();
  });
});

describe('the app users’ and devices’ screens', () => {
  it('let an editor change a person but never their email or password', () => {
    expect(actionsFor('appUsers', 'editor').has('edit')).toBe(true);
    expect(field('email').editable).toBe(false);
    expect(editorFields.some((candidate) => candidate.name === 'password')).toBe(false);
    const admin = editorFieldsOf(appUsers, 'admin', 'patch');
    expect(field('email', admin).editable).toBe(true);
    expect(
      editorFields
        .filter((candidate) => candidate.editable)
        .map((candidate) => candidate.name)
        .sort(),
    ).toEqual(['date', 'disabledAt', 'gender', 'locale', 'name', 'region']);
  });

  it('let staff read devices, admins change and export them, and nobody add one', () => {
    expect(screensFor('editor')).toEqual(expect.arrayContaining(['appUsers', 'appDevices']));
    // Devices hold addresses: personal data, exported by admins alone (decision 052).
    expect([...actionsFor('appDevices', 'editor')].sort()).toEqual([]);
    expect([...actionsFor('appDevices', 'admin')].sort()).toEqual(['edit', 'export', 'remove', 'select']);
    expect(actionsFor('appUsers', 'admin').has('clone')).toBe(false);
  });

  it('list a person’s devices on their page, by the devices’ reference to them', () => {
    expect(relatedListsFor('appUsers', 'editor')).toEqual([{ source: 'appDevices', field: 'user' }]);
    expect(relatedListsFor('appDevices', 'editor')).toEqual([]);
    const user = appDevices.fields.user;
    expect(user.kind === 'ref' && user.ref === 'appUsers' && user.filterable).toBe(true);
  });
});

describe('a text filtered as a whole value', () => {
  it('matches the region typed, and only where the definition asks for it', () => {
    expect(filtersOf(appUsers).find((filter) => filter.name === 'region')?.type).toBe('text');
    expect(filtersOf(appUsers).some((filter) => filter.name === 'email')).toBe(false);
    const view = parseView(appUsers, new URLSearchParams('f.region=+sg+&f.gender=female&f.locale=zh-cn'));
    expect(view.choices).toEqual({ region: ['sg'], gender: ['female'], locale: ['zh-cn'] });
    expect(viewQuery(appUsers, view)).toMatchObject({ region: 'sg', gender: 'female', locale: 'zh-cn' });
    expect(parseView(appUsers, new URLSearchParams('f.region=')).choices).toEqual({});
  });
});

describe('the app devices’ table', () => {
  it('shows the spec’s fields first: device, user, last IP, first and last session, push', () => {
    expect(
      columnsOf(appDevices)
        .map((column) => column.name)
        .slice(0, 6),
    ).toEqual(['deviceId', 'user', 'lastIP', 'firstSessionAt', 'lastSessionAt', 'pushEnabled']);
    // The push token is long: on the device's own page, not in the table.
    expect(detailFieldsOf(appDevices).map((column) => column.name)).toContain('pushToken');
    expect(detailFieldsOf(appDevices).map((column) => column.name)).not.toContain('secretHash');
  });
});
