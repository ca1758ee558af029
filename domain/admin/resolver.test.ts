import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import zhHk from '../../locales/zh-hk.json';
import { appSettings } from '../entities/app-settings.ts';
import { appTemplates } from '../entities/app-templates.ts';
import { blogs } from '../entities/blogs.ts';
import { modules } from '../entities/modules.ts';
import { subscribers } from '../entities/subscribers.ts';
import { users } from '../entities/users.ts';
import { checkChanges, formChanges, inputName, itemCountName, itemInputName, readInput } from './form.ts';
import {
  editorDefaults,
  editorErrors,
  editorFormData,
  editorResolver,
  errorTexts,
  type EditorValues,
} from './resolver.ts';
import { editorFieldsOf } from './screens.ts';

type Messages = { [key: string]: string | Messages };

/** A message key's text in a language, as the pages show it. */
const textIn = (messages: Messages) => (key: string) => {
  const text = key
    .split('.')
    .reduce<string | Messages | undefined>(
      (node, part) => (typeof node === 'object' ? node[part] : undefined),
      messages,
    );
  return typeof text === 'string' ? text : key;
};
const english = textIn(en);

/** What the resolver answers for these values (it answers at once: no promise to wait for). */
async function resolve(
  options: Omit<Parameters<typeof editorResolver>[0], 'translate'> & { translate?: (key: string) => string },
  values: EditorValues,
) {
  const resolver = editorResolver({ translate: english, ...options });
  return resolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });
}

/** The editor's values for a record with some inputs changed. */
const changed = (defaults: EditorValues, inputs: Record<string, EditorValues['v'][string]>): EditorValues => ({
  v: { ...defaults.v, ...inputs },
});

const kds = {
  _id: 'm1',
  key: 'kds',
  name: { en: 'Kitchen Display', 'zh-hk': '廚房顯示' },
  shortDesc: { en: 'Orders on a screen' },
  description: {},
  monthPrice: 18800,
  currency: 'HKD',
  released: false,
  order: null,
  counter: true,
  billing: 'monthly',
  industries: ['a', 'b'],
  updatedAt: new Date('2026-11-01T04:00:00Z'),
};

describe('the editor’s values on react-hook-form', () => {
  const fields = editorFieldsOf(modules, 'admin', 'patch');

  it('start from what the inputs show: money in dollars, a text by language, a list one per line, a checkbox as checked', () => {
    const { v } = editorDefaults(fields, kds);
    expect(v.monthPrice).toBe('188.00');
    expect(v.name).toEqual({ en: 'Kitchen Display', 'zh-hk': '廚房顯示', 'zh-cn': '' });
    expect(v.industries).toBe('a\nb');
    expect(v.counter).toBe(true);
    expect(v.billing).toBe('monthly');
    // Only what staff may write.
    expect(Object.keys(v).sort()).toEqual(
      fields
        .filter((field) => field.editable)
        .map((field) => field.name)
        .sort(),
    );
  });

  it('post the same form data as the inputs, so an untouched record sends no change', () => {
    const defaults = editorDefaults(fields, kds);
    const data = editorFormData(fields, defaults);
    expect(data.get(inputName('monthPrice'))).toBe('188.00');
    expect(data.get('v.counter.present')).toBe('1');
    expect(data.get(inputName('counter'))).toBe('on');
    expect(data.get(inputName('name', 'zh-hk'))).toBe('廚房顯示');
    expect(formChanges(fields, data, kds)).toEqual({});
    // An unchecked box posts only that it was shown.
    const unchecked = editorFormData(fields, changed(defaults, { counter: false }));
    expect(unchecked.has(inputName('counter'))).toBe(false);
    expect(formChanges(fields, unchecked, kds)).toEqual({ counter: false });
  });

  it('never show a password, and read a choice the list lacks as the browser would', () => {
    const userFields = editorFieldsOf(users, 'admin', 'create');
    const { v } = editorDefaults(userFields, null);
    expect(v.password).toBe('');
    const role = userFields.find((field) => field.widget === 'enum' && field.def.required);
    if (role) expect(v[role.name]).toBe(role.def.enum?.[0]);
  });

  it('keep a list of records as its rows, posted row by row', () => {
    const planFields = editorFieldsOf(appTemplates, 'admin', 'patch');
    const plan = planFields.find((field) => field.name === 'modules')!;
    const stored = { modules: [{ id: 'kds', monthPrice: 18800, count: 2 }] };
    const { v } = editorDefaults([plan], stored);
    expect(v.modules).toEqual([
      {
        ...Object.fromEntries(plan.items!.map((column) => [column.name, ''])),
        id: 'kds',
        monthPrice: '188.00',
        count: '2',
      },
    ]);
    const data = editorFormData([plan], {
      v: { modules: [...(v.modules as Record<string, string>[]), { id: 'qr', monthPrice: '3.5', count: '' }] },
    });
    expect(data.get(itemCountName('modules'))).toBe('2');
    expect(data.get(itemInputName('modules', 1, 'monthPrice'))).toBe('3.5');
    expect(readInput(plan, data)).toEqual([
      { id: 'kds', monthPrice: 18800, count: 2 },
      { id: 'qr', monthPrice: 350 },
    ]);
    expect(formChanges([plan], editorFormData([plan], { v }), stored)).toEqual({});
  });

  it('round-trip the app settings’ widgets: colours, map points, day ranges, images', () => {
    const settingsFields = editorFieldsOf(appSettings, 'editor', 'patch');
    const stored = {
      header: { en: 'Welcome' },
      headerPhoto: 'a1',
      footerColor1: '#14625c',
      footerColor2: '#25978a',
      showEvent: true,
      showShop: false,
      sponsorName: null,
      // As the database answers a JSON object: its keys in its own order.
      sponsorShown: { to: '2026-12-31', from: '2026-12-01' },
      mapHongKong: { latitude: 22.3193, longitude: 114.1694, latitudeDelta: 0.35, longitudeDelta: 0.35 },
      mapCanada: { latitude: 56.1304, longitude: -106.3468, latitudeDelta: 30, longitudeDelta: 60 },
      homeGallery: ['g2', 'g1'],
    };
    const defaults = editorDefaults(settingsFields, stored);
    expect(defaults.v.sponsorShown).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(defaults.v.mapHongKong).toEqual({
      latitude: '22.3193',
      longitude: '114.1694',
      latitudeDelta: '0.35',
      longitudeDelta: '0.35',
    });
    expect(defaults.v.headerPhoto).toBe('a1');
    expect(formChanges(settingsFields, editorFormData(settingsFields, defaults), stored)).toEqual({});
    const edited = changed(defaults, {
      footerColor2: '#FF0000',
      mapCanada: { latitude: '49.2827, -123.1207', longitude: '', latitudeDelta: '30', longitudeDelta: '60' },
      headerPhoto: '',
    });
    expect(formChanges(settingsFields, editorFormData(settingsFields, edited), stored)).toEqual({
      footerColor2: '#ff0000',
      headerPhoto: null,
      mapCanada: { latitude: 49.2827, longitude: -123.1207, latitudeDelta: 30, longitudeDelta: 60 },
    });
  });
});

describe('the editor’s resolver', () => {
  it('passes what the service takes, with the values as they are', async () => {
    const fields = editorFieldsOf(modules, 'admin', 'patch');
    const values = changed(editorDefaults(fields, kds), { monthPrice: '199' });
    expect(await resolve({ fields, record: kds, creating: false }, values)).toEqual({ values, errors: {} });
  });

  it('gives each field the service’s message key as its type and its text in the staff member’s language', async () => {
    const fields = editorFieldsOf(users, 'admin', 'create');
    const values = changed(editorDefaults(fields, null), { email: 'not-an-email', password: 'short' });
    const result = await resolve({ fields, record: null, creating: true }, values);
    expect(result.values).toEqual({});
    expect(result.errors.v?.email).toEqual({ type: 'validation.email', message: 'Email format is wrong' });
    expect(result.errors.v?.password).toEqual({ type: 'validation.passwordMin', message: 'Minimum 8 characters' });
    const chinese = await resolve({ fields, record: null, creating: true, translate: textIn(zhHk) }, values);
    expect(chinese.errors.v?.email).toEqual({ type: 'validation.email', message: '電郵格式不正確' });
  });

  it('answers exactly what the editor’s check answers for the values it would send', async () => {
    const fields = editorFieldsOf(blogs, 'editor', 'create');
    const values = changed(editorDefaults(fields, null), {
      slug: 'a-post',
      title: { en: '', 'zh-hk': '標題', 'zh-cn': '' },
    });
    const expected = checkChanges(fields, formChanges(fields, editorFormData(fields, values), null), true);
    expect(expected).toMatchObject({ title: 'validation.required', body: 'validation.required' });
    const { errors } = await resolve({ fields, record: null, creating: true }, values);
    expect(errorTexts(errors)).toEqual(
      Object.fromEntries(Object.entries(expected).map(([name, key]) => [name, english(key)])),
    );
    expect(errorTexts(errors).title).toBe('Required');
  });

  it('on a patch asks only about what changed, and empties a required field as Required', async () => {
    const fields = editorFieldsOf(subscribers, 'admin', 'patch');
    const stored = { _id: 's1', email: 'wing@example.com', campaign: '23hkrace', locale: 'en' };
    const defaults = editorDefaults(fields, stored);
    expect((await resolve({ fields, record: stored, creating: false }, defaults)).errors).toEqual({});
    const emptied = await resolve({ fields, record: stored, creating: false }, changed(defaults, { email: '' }));
    expect(emptied.errors.v?.email).toEqual({ type: 'validation.required', message: 'Required' });
  });

  it('applies the record’s own rules to the record as the save would leave it', async () => {
    const fields = editorFieldsOf(subscribers, 'admin', 'patch');
    const stored = { _id: 's1', email: 'wing@example.com', campaign: '23hkrace', locale: 'en' };
    const values = changed(editorDefaults(fields, stored), { email: 'not-an-email' });
    const { errors } = await resolve(
      { fields, record: stored, creating: false, recordRules: subscribers.recordRules },
      values,
    );
    const rules = subscribers.recordRules!({ ...stored, email: 'not-an-email' });
    expect(errors.v?.email?.type).toBe(rules.email);
    expect(errors.v?.email?.message).toBe(english(rules.email!));
  });

  it('puts a value’s parts under their own names, beside the whole value’s message', async () => {
    const fields = editorFieldsOf(appSettings, 'editor', 'patch');
    const stored = {
      mapHongKong: { latitude: 22.3193, longitude: 114.1694, latitudeDelta: 0.35, longitudeDelta: 0.35 },
      mapCanada: { latitude: 56.1, longitude: -106.3, latitudeDelta: 30, longitudeDelta: 60 },
    };
    const values = changed(editorDefaults(fields, stored), {
      footerColor1: '#12345',
      mapHongKong: { latitude: '95', longitude: '114.16', latitudeDelta: '0', longitudeDelta: '0.2' },
      sponsorShown: { from: '2026-12-31', to: '2026-12-01' },
    });
    const { errors } = await resolve({ fields, record: stored, creating: false }, values);
    expect(errors.v?.mapHongKong).toMatchObject({
      latitude: { type: 'validation.latitude', message: 'Enter a latitude from -90 to 90.' },
      latitudeDelta: { type: 'validation.latitudeSpan' },
    });
    expect(errorTexts(errors)).toEqual({
      footerColor1: english('validation.colour'),
      'mapHongKong.latitude': english('validation.latitude'),
      'mapHongKong.latitudeDelta': english('validation.latitudeSpan'),
      'sponsorShown.to': english('validation.dayRangeOrder'),
    });
    const cleared = await resolve(
      { fields, record: stored, creating: false },
      changed(editorDefaults(fields, stored), {
        mapCanada: { latitude: '', longitude: '', latitudeDelta: '', longitudeDelta: '' },
      }),
    );
    expect(errorTexts(cleared.errors)).toEqual({ mapCanada: 'Required' });
  });
});

describe('the editor’s errors from the server’s answer', () => {
  it('sit where the resolver’s do, and read back by field and part', () => {
    const errors = editorErrors({
      email: { key: 'server', text: 'This value is already in use.' },
      'mapHongKong.latitude': { key: 'server', text: 'Enter a latitude from -90 to 90.' },
    });
    expect(errors.v?.email).toEqual({ type: 'server', message: 'This value is already in use.' });
    expect(errorTexts(errors)).toEqual({
      email: 'This value is already in use.',
      'mapHongKong.latitude': 'Enter a latitude from -90 to 90.',
    });
    // An element react-hook-form keeps beside a message is not read as a part.
    expect(
      errorTexts({ v: { email: { type: 'server', message: 'Taken', ref: { name: 'v.email' } } } } as never),
    ).toEqual({ email: 'Taken' });
  });
});
