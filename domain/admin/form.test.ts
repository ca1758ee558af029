import { describe, expect, it } from 'vitest';
import { modules } from '../entities/modules.ts';
import { appSettings } from '../entities/app-settings.ts';
import { appTemplates } from '../entities/app-templates.ts';
import { blogs } from '../entities/blogs.ts';
import { subscribers } from '../entities/subscribers.ts';
import { users } from '../entities/users.ts';
import { admins } from '../entities/admins.ts';
import { pushMessages } from '../entities/push-messages.ts';
import {
  checkChanges,
  formChanges,
  inputName,
  inputValue,
  itemCountName,
  itemInputName,
  listChange,
  readInput,
} from './form.ts';
import { editorFieldsOf } from './screens.ts';

const fields = editorFieldsOf(modules, 'admin', 'patch');
const field = (name: string) => fields.find((candidate) => candidate.name === name)!;

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
}

const kds = {
  _id: 'm1',
  key: 'kds',
  name: { en: 'Kitchen Display', 'zh-hk': '廚房顯示' },
  monthPrice: 18800,
  counter: true,
  billing: 'monthly',
  industries: ['a', 'b'],
  updatedAt: new Date('2026-11-01T04:00:00Z'),
};

describe('the editor’s form', () => {
  it('shows money in dollars, text in each language, lists one per line and days in Hong Kong', () => {
    expect(inputValue(field('monthPrice'), 18800)).toBe('188.00');
    expect(inputValue(field('name'), kds.name)).toEqual({ en: 'Kitchen Display', 'zh-hk': '廚房顯示', 'zh-cn': '' });
    expect(inputValue(field('industries'), ['a', 'b'])).toBe('a\nb');
    expect(inputValue(field('counter'), null)).toBe(false);
    expect(inputValue({ ...field('key'), widget: 'date' }, '2026-03-01T16:30:00Z')).toBe('2026-03-02');
    // A moment to the minute, as Hong Kong's clocks showed it.
    expect(inputValue({ ...field('key'), widget: 'dateTime' }, '2026-03-01T16:30:00Z')).toBe('2026-03-02T00:30');
  });

  it('reads inputs back as the service takes them, and what was not sent as nothing', () => {
    expect(readInput(field('monthPrice'), form({ [inputName('monthPrice')]: ' 12.5 ' }))).toBe(1250);
    // Not a number: passed on for the service to refuse in the user's language.
    expect(readInput(field('monthPrice'), form({ [inputName('monthPrice')]: 'abc' }))).toBe('abc');
    expect(readInput(field('order'), form({ [inputName('order')]: '' }))).toBeNull();
    expect(readInput(field('order'), form({}))).toBeUndefined();
    expect(readInput(field('counter'), form({ 'v.counter.present': '1' }))).toBe(false);
    expect(readInput(field('counter'), form({ 'v.counter.present': '1', 'v.counter': 'on' }))).toBe(true);
    expect(readInput(field('industries'), form({ 'v.industries': ' a \n\n b ' }))).toEqual(['a', 'b']);
    expect(readInput(field('name'), form({ 'v.name.en': ' Kiosk ', 'v.name.zh-hk': '', 'v.name.zh-cn': '' }))).toEqual({
      en: 'Kiosk',
    });
    expect(readInput({ ...field('key'), widget: 'date' }, form({ 'v.key': '2026-03-02' }))).toBe(
      '2026-03-01T16:00:00.000Z',
    );
    expect(readInput({ ...field('key'), widget: 'dateTime' }, form({ 'v.key': '2026-03-02T00:30' }))).toBe(
      '2026-03-01T16:30:00.000Z',
    );
  });

  it('patches only what changed since the record was loaded', () => {
    const submitted = form({
      'v.key': 'kds',
      'v.name.en': 'Kitchen Display',
      'v.name.zh-hk': '廚房顯示',
      'v.name.zh-cn': '',
      'v.monthPrice': '199',
      'v.counter.present': '1',
      'v.counter': 'on',
      'v.billing': 'monthly',
      'v.industries': 'a\nb',
    });
    expect(formChanges(fields, submitted, kds)).toEqual({ monthPrice: 19900 });
  });

  it('reads an emptied text of several languages as its stored default, so leaving it empty changes nothing', () => {
    const description = field('description');
    const empty = form({ 'v.description.en': ' ', 'v.description.zh-hk': '', 'v.description.zh-cn': '' });
    expect(readInput(description, empty)).toEqual({});
    // A required one has no empty value: null, for the service to refuse.
    expect(readInput(field('name'), form({ 'v.name.en': '', 'v.name.zh-hk': '', 'v.name.zh-cn': '' }))).toBeNull();
    const withoutText = { ...kds, description: {} };
    expect(
      formChanges(
        fields.filter((candidate) => candidate.name === 'description'),
        empty,
        withoutText,
      ),
    ).toEqual({});
    // Emptied where it held text: the default is what is sent.
    expect(
      formChanges(
        fields.filter((candidate) => candidate.name === 'description'),
        empty,
        { ...kds, description: { en: 'Screens for the kitchen' } },
      ),
    ).toEqual({ description: {} });
  });

  it('creates with what was given, leaving empty fields to their defaults', () => {
    const created = formChanges(
      editorFieldsOf(modules, 'admin', 'create'),
      form({ 'v.key': 'new', 'v.name.en': 'New', 'v.monthPrice': '', 'v.industries': '' }),
      null,
    );
    expect(created).toEqual({ key: 'new', name: { en: 'New' } });
  });
});

describe('an article’s body in the editor', () => {
  const body = editorFieldsOf(blogs, 'editor', 'patch').find((candidate) => candidate.name === 'body')!;
  const saved = { en: '<h2>Why</h2><p>Pay <strong>here</strong>.</p>', 'zh-hk': '<p>這裏付款。</p>' };

  it('is rich text in each language: an input per language, read back as the text in each', () => {
    expect(body.widget).toBe('richText');
    expect(inputValue(body, saved)).toEqual({ ...saved, 'zh-cn': '' });
    const sent = form({ 'v.body.en': saved.en, 'v.body.zh-hk': saved['zh-hk'], 'v.body.zh-cn': '' });
    expect(readInput(body, sent)).toEqual(saved);
  });

  it('is left alone by a save that did not change it', () => {
    const sent = form({ 'v.body.en': saved.en, 'v.body.zh-hk': saved['zh-hk'], 'v.body.zh-cn': '' });
    expect(formChanges([body], sent, { body: saved })).toEqual({});
  });
});

describe('a list of records in the editor', () => {
  const plan = editorFieldsOf(appTemplates, 'admin', 'patch').find((candidate) => candidate.name === 'modules')!;

  it('is read row by row, money in cents, empty rows left out', () => {
    const data = form({
      [itemCountName('modules')]: '3',
      [itemInputName('modules', 0, 'id')]: 'kds',
      [itemInputName('modules', 0, 'monthPrice')]: '188',
      [itemInputName('modules', 0, 'count')]: '2',
      [itemInputName('modules', 2, 'id')]: 'qr',
      [itemInputName('modules', 2, 'monthPrice')]: '3.5',
    });
    expect(readInput(plan, data)).toEqual([
      { id: 'kds', monthPrice: 18800, count: 2 },
      { id: 'qr', monthPrice: 350 },
    ]);
    expect(readInput(plan, form({}))).toBeUndefined();
  });

  const kds = { id: 'kds', monthPrice: 18800, count: 1 };
  const ods = { id: 'ods', monthPrice: 12800, count: 1 };
  const qr = { id: 'qr', monthPrice: 38800, count: 1 };

  it('sends one change as the operator it needs', () => {
    expect(listChange('modules', 'id', [kds, ods], [kds, ods, qr])).toEqual({ $push: { modules: qr } });
    expect(listChange('modules', 'id', [kds, ods, qr], [kds, qr])).toEqual({ $pull: { modules: { id: 'ods' } } });
    expect(listChange('modules', 'id', [kds, ods], [kds, { ...ods, count: 3 }])).toEqual({
      $set: { 'modules.$': { ...ods, count: 3 } },
    });
  });

  it('sends several changes, a new order or an item added in the middle as the whole list', () => {
    expect(listChange('modules', 'id', [kds, ods], [ods, kds])).toEqual({ modules: [ods, kds] });
    expect(listChange('modules', 'id', [kds, ods], [{ ...kds, count: 2 }, qr])).toEqual({
      modules: [{ ...kds, count: 2 }, qr],
    });
    expect(listChange('modules', 'id', [kds, ods], [kds, qr, ods])).toEqual({ modules: [kds, qr, ods] });
  });
});

describe('the editor’s own check before a save', () => {
  it('finds what the service would refuse, with the service’s message keys', () => {
    const userFields = editorFieldsOf(users, 'admin', 'create');
    const problems = checkChanges(userFields, { email: 'not-an-email', password: 'short' }, true);
    expect(problems.email).toBe('validation.email');
    expect(problems.password).toBe('validation.passwordMin');
    // A required field left empty on create.
    const blogFields = editorFieldsOf(blogs, 'editor', 'create');
    expect(checkChanges(blogFields, { slug: 'a-post' }, true)).toMatchObject({
      title: 'validation.required',
      body: 'validation.required',
      category: 'validation.required',
    });
    // A text in each language needs its English.
    expect(checkChanges(blogFields, { title: { 'zh-hk': '標題' } }, false)).toEqual({ title: 'validation.required' });
  });

  it('asks a confirmed password twice, and says when the two differ (decision 052)', () => {
    const creating = editorFieldsOf(admins, 'admin', 'create');
    const sent = (entries: Record<string, string>) => formChanges(creating, form(entries), null);
    const both = sent({ 'v.email': 'lee@example.com', 'v.type': 'editor', 'v.password': 'Abcdefg1' });
    expect(checkChanges(creating, both, true)).toEqual({ passwordConfirm: 'validation.passwordDifferent' });
    const differ = sent({
      'v.email': 'lee@example.com',
      'v.type': 'editor',
      'v.password': 'Abcdefg1',
      'v.passwordConfirm': 'Abcdefg2',
    });
    expect(differ.passwordConfirm).toBe('Abcdefg2');
    expect(checkChanges(creating, differ, true)).toEqual({ passwordConfirm: 'validation.passwordDifferent' });
    expect(checkChanges(creating, { ...differ, passwordConfirm: 'Abcdefg1' }, true)).toEqual({});
    // On edit both may stay empty (the password is kept); one without the other differs.
    const editing = editorFieldsOf(admins, 'admin', 'patch');
    const record = { _id: 'a1', email: 'lee@example.com', type: 'editor' };
    const unchanged = formChanges(
      editing,
      form({ 'v.email': 'lee@example.com', 'v.password': '', 'v.passwordConfirm': '' }),
      record,
    );
    expect(unchanged).toEqual({});
    expect(checkChanges(editing, unchanged, false)).toEqual({});
    expect(checkChanges(editing, { password: 'Abcdefg1' }, false)).toEqual({
      passwordConfirm: 'validation.passwordDifferent',
    });
    expect(checkChanges(editing, { password: 'Abcdefg1', passwordConfirm: 'Abcdefg1' }, false)).toEqual({});
  });

  it('passes what the service takes, and on patch asks only about what changed', () => {
    const subscriberFields = editorFieldsOf(subscribers, 'admin', 'patch');
    expect(checkChanges(subscriberFields, {}, false)).toEqual({});
    expect(checkChanges(subscriberFields, { email: 'wing@example.com' }, false)).toEqual({});
    expect(checkChanges(subscriberFields, { email: null }, false)).toEqual({ email: 'validation.required' });
  });

  it('applies the record’s own rules to the record as the save would leave it', () => {
    const subscriberFields = editorFieldsOf(subscribers, 'admin', 'patch');
    const stored = { email: 'wing@example.com', campaign: '23hkrace', locale: 'en' };
    const rules = { recordRules: subscribers.recordRules, stored };
    const problems = checkChanges(subscriberFields, { email: 'not-an-email' }, false, rules);
    expect(problems.email).toMatch(/^[a-z]+\.[A-Za-z.]+$/);
    expect(problems).toEqual(subscribers.recordRules!({ ...stored, email: 'not-an-email' }));
    expect(checkChanges(subscriberFields, { email: 'mei@example.com' }, false, rules)).toEqual({});
  });
});

describe('the app settings’ colour, map and day-range widgets in the editor', () => {
  const settingsFields = editorFieldsOf(appSettings, 'editor', 'patch');
  const setting = (name: string) => settingsFields.find((candidate) => candidate.name === name)!;
  const stored = {
    _id: 's1',
    header: { en: 'Welcome' },
    footerColor1: '#14625c',
    footerColor2: '#25978a',
    showEvent: true,
    showShop: true,
    sponsorName: null,
    // As the database answers a JSON object: its keys in its own order.
    sponsorShown: { to: '2026-12-31', from: '2026-12-01' },
    mapHongKong: { latitude: 22.3193, longitude: 114.1694, latitudeDelta: 0.35, longitudeDelta: 0.35 },
    mapCanada: { latitude: 56.1304, longitude: -106.3468, latitudeDelta: 30, longitudeDelta: 60 },
    homeGallery: ['g2', 'g1'],
  };
  const inputsOf = (record: typeof stored) =>
    Object.fromEntries(
      settingsFields.flatMap((field) => {
        const shown = inputValue(field, record[field.name as keyof typeof stored]);
        if (typeof shown === 'object')
          return Object.entries(shown).map(([part, text]) => [inputName(field.name, part), text]);
        if (typeof shown === 'boolean')
          return [[`${inputName(field.name)}.present`, '1'], ...(shown ? [[inputName(field.name), 'on']] : [])];
        return [[inputName(field.name), shown]];
      }),
    );

  it('gives each its widget, editable by staff', () => {
    expect(
      ['footerColor1', 'mapHongKong', 'sponsorShown', 'headerPhoto'].map((name) => [
        setting(name).widget,
        setting(name).editable,
      ]),
    ).toEqual([
      ['color', true],
      ['mapPoint', true],
      ['dateRange', true],
      ['image', true],
    ]);
  });

  it('shows a map point and a range part by part, and an empty one as empty inputs', () => {
    expect(inputValue(setting('mapCanada'), stored.mapCanada)).toEqual({
      latitude: '56.1304',
      longitude: '-106.3468',
      latitudeDelta: '30',
      longitudeDelta: '60',
    });
    expect(inputValue(setting('sponsorShown'), stored.sponsorShown)).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(inputValue(setting('sponsorShown'), null)).toEqual({ from: '', to: '' });
  });

  it('reads the parts back as the schema takes them, a pasted pair in Latitude as both coordinates', () => {
    const point = (parts: Record<string, string>) =>
      readInput(
        setting('mapHongKong'),
        form(Object.fromEntries(Object.entries(parts).map(([part, text]) => [inputName('mapHongKong', part), text]))),
      );
    expect(point({ latitude: ' 22.28 ', longitude: '114.16', latitudeDelta: '0.2', longitudeDelta: '0.25' })).toEqual({
      latitude: 22.28,
      longitude: 114.16,
      latitudeDelta: 0.2,
      longitudeDelta: 0.25,
    });
    // Works without the page's scripts: the form is read on the server.
    expect(point({ latitude: '22.28, 114.16', longitude: '', latitudeDelta: '0.2', longitudeDelta: '0.2' })).toEqual({
      latitude: 22.28,
      longitude: 114.16,
      latitudeDelta: 0.2,
      longitudeDelta: 0.2,
    });
    expect(point({ latitude: '', longitude: '(49.28 -123.12)', latitudeDelta: '1', longitudeDelta: '1' })).toEqual({
      latitude: 49.28,
      longitude: -123.12,
      latitudeDelta: 1,
      longitudeDelta: 1,
    });
    // Not a number: passed on for the schema to refuse by part; an empty part is left out.
    expect(point({ latitude: 'north', longitude: '114.16', latitudeDelta: '', longitudeDelta: '0.2' })).toEqual({
      latitude: 'north',
      longitude: 114.16,
      longitudeDelta: 0.2,
    });
    expect(point({ latitude: '', longitude: '', latitudeDelta: '', longitudeDelta: '' })).toBeNull();
    expect(point({})).toBeUndefined();
    const range = readInput(
      setting('sponsorShown'),
      form({ [inputName('sponsorShown', 'from')]: '2026-12-01', [inputName('sponsorShown', 'to')]: '' }),
    );
    expect(range).toEqual({ from: '2026-12-01' });
    expect(
      readInput(
        setting('sponsorShown'),
        form({ [inputName('sponsorShown', 'from')]: '', [inputName('sponsorShown', 'to')]: '' }),
      ),
    ).toBeNull();
    expect(readInput(setting('footerColor1'), form({ [inputName('footerColor1')]: ' 1A6B4F ' }))).toBe('#1a6b4f');
  });

  it('sends nothing for values the save did not change, whatever order the database keeps their keys in', () => {
    expect(formChanges(settingsFields, form(inputsOf(stored)), stored)).toEqual({});
    const changed = {
      ...inputsOf(stored),
      [inputName('mapCanada', 'latitude')]: '49.2827, -123.1207',
      [inputName('footerColor2')]: '#FF0000',
    };
    expect(formChanges(settingsFields, form(changed), stored)).toEqual({
      footerColor2: '#ff0000',
      mapCanada: { latitude: 49.2827, longitude: -123.1207, latitudeDelta: 30, longitudeDelta: 60 },
    });
  });

  it('sends the gallery as its ids in order, one a line: a new order is a change, a duplicate is refused', () => {
    const gallery = setting('homeGallery');
    expect([gallery.widget, gallery.editable]).toEqual(['gallery', true]);
    expect(inputValue(gallery, stored.homeGallery)).toBe('g2\ng1');
    const reordered = { ...inputsOf(stored), [inputName('homeGallery')]: 'g1\ng2\n' };
    expect(formChanges(settingsFields, form(reordered), stored)).toEqual({ homeGallery: ['g1', 'g2'] });
    expect(checkChanges(settingsFields, { homeGallery: ['g1', 'g1'] }, false)).toEqual({
      homeGallery: 'validation.duplicate',
    });
  });

  it('checks before a save with the service’s keys, each part of a value under its own name', () => {
    const changes = {
      footerColor1: '#12345',
      mapHongKong: { latitude: 95, longitude: 114.16, latitudeDelta: 0, longitudeDelta: 0.2 },
      sponsorShown: { from: '2026-12-31', to: '2026-12-01' },
    };
    expect(checkChanges(settingsFields, changes, false)).toEqual({
      footerColor1: 'validation.colour',
      'mapHongKong.latitude': 'validation.latitude',
      'mapHongKong.latitudeDelta': 'validation.latitudeSpan',
      'sponsorShown.to': 'validation.dayRangeOrder',
    });
    // A required value emptied, and an optional one cleared.
    expect(checkChanges(settingsFields, { mapCanada: null, sponsorShown: null }, false)).toEqual({
      mapCanada: 'validation.required',
    });
  });
});

describe('a date and time in the editor', () => {
  const pushFields = editorFieldsOf(pushMessages, 'editor', 'patch');
  const date = pushFields.find((candidate) => candidate.name === 'date')!;

  it('is shown and read on Hong Kong’s clock, to the minute', () => {
    expect(date.widget).toBe('dateTime');
    expect(inputValue(date, new Date('2026-12-01T13:05:42Z'))).toBe('2026-12-01T21:05');
    expect(readInput(date, form({ 'v.date': '2026-12-01T21:05' }))).toBe('2026-12-01T13:05:00.000Z');
    expect(readInput(date, form({ 'v.date': '2026-12-02T00:30:15' }))).toBe('2026-12-01T16:30:15.000Z');
    expect(readInput(date, form({ 'v.date': 'tomorrow' }))).toBe('tomorrow');
    expect(readInput(date, form({ 'v.date': '' }))).toBeNull();
  });

  it('is no change when the same minute comes back', () => {
    const stored = { _id: 'p1', date: new Date('2026-12-01T13:05:42Z'), updatedAt: new Date() };
    const only = pushFields.filter((candidate) => candidate.name === 'date');
    expect(formChanges(only, form({ 'v.date': '2026-12-01T21:05' }), stored)).toEqual({});
    expect(formChanges(only, form({ 'v.date': '2026-12-01T21:06' }), stored)).toEqual({
      date: '2026-12-01T13:06:00.000Z',
    });
  });
});
