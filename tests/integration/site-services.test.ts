import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MARKET, type FeaturesPayload } from '../../domain/features.ts';
import { MAX_MISSING_KEYS } from '../../server/services/missing-translations.ts';
import { asRest, createAccount, createTestApp, rejectionOf, skipReason, socketClient, startTestServer, type TestAccount, type TestApp } from './harness.ts';

type Caller = { _id: string; role: string };
const caller = (account: TestAccount): Caller => ({ _id: account._id, role: account.role });

describe.skipIf(skipReason)('the features service', () => {
  let app: TestApp;
  let admin: Caller;
  let editor: Caller;
  let member: Caller;
  const features = () => app.api.service('features');

  beforeAll(async () => {
    app = await createTestApp();
    const knex = app.database.knex;
    [admin, editor, member] = (await Promise.all([createAccount(knex, { role: 'admin' }), createAccount(knex, { role: 'editor' }), createAccount(knex)])).map(caller) as [Caller, Caller, Caller];
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers the spec defaults to anyone: region hk, currency HKD, currencies SGD and HKD, both flags on', async () => {
    const payload = (await features().find(asRest())) as FeaturesPayload;
    expect(payload).toMatchObject({ contactForm: true, subscription: true, region: 'hk', currency: 'HKD', currencies: ['SGD', 'HKD'] });
    expect(payload.regions?.map((region) => region.code)).toEqual(['hk', 'sg']);
    expect(await features().get('current', asRest(member))).toEqual(payload);
  });

  it('lets an admin turn a flag off and keeps the rest', async () => {
    const changed = (await features().patch(null, { contactForm: false }, asRest(admin))) as unknown as FeaturesPayload;
    expect(changed.contactForm).toBe(false);
    expect(changed.subscription).toBe(true);
    expect(((await features().find(asRest())) as FeaturesPayload).contactForm).toBe(false);
    await features().patch(null, { contactForm: true }, asRest(admin));
  });

  it('refuses changes from anyone but an admin', async () => {
    expect((await rejectionOf(features().patch(null, { subscription: false }, asRest()))).name).toBe('NotAuthenticated');
    expect((await rejectionOf(features().patch(null, { subscription: false }, asRest(member)))).name).toBe('Forbidden');
    expect((await rejectionOf(features().patch(null, { subscription: false }, asRest(editor)))).name).toBe('Forbidden');
    expect(((await features().find(asRest())) as FeaturesPayload).subscription).toBe(true);
  });

  it('rejects unknown fields, unknown currencies and a currency or region that is not offered, changing nothing', async () => {
    const before = await features().find(asRest());
    const unknownField = await rejectionOf(features().patch(null, { theme: 'dark' }, asRest(admin)));
    expect(unknownField).toMatchObject({ name: 'BadRequest', errors: { theme: 'This field is not accepted.' } });
    const unknownCurrency = await rejectionOf(features().patch(null, { currency: 'XYZ' }, asRest(admin)));
    expect(unknownCurrency.errors).toHaveProperty('currency');
    const notOffered = await rejectionOf(features().patch(null, { currency: 'JPY' }, asRest(admin)));
    expect(notOffered.errors).toEqual({ currency: 'This value is not valid.' });
    const noRegion = await rejectionOf(features().patch(null, { region: 'tw' }, asRest(admin)));
    expect(noRegion.errors).toEqual({ region: 'This value is not valid.' });
    const emptyList = await rejectionOf(features().patch(null, { currencies: [] }, asRest(admin)));
    expect(emptyList.errors).toHaveProperty('currencies');
    expect(await features().find(asRest())).toEqual(before);
  });

  it('changes market and currency together when both are valid', async () => {
    const changed = (await features().patch(null, { region: 'sg', currencies: ['SGD', 'HKD', 'MYR'], currency: 'SGD' }, asRest(admin))) as unknown as FeaturesPayload;
    expect(changed).toMatchObject({ region: 'sg', currency: 'SGD', currencies: ['SGD', 'HKD', 'MYR'] });
    await features().patch(null, { region: DEFAULT_MARKET.region, currencies: DEFAULT_MARKET.currencies, currency: DEFAULT_MARKET.currency }, asRest(admin));
  });
});

describe.skipIf(skipReason)('features over socket.io', () => {
  it('tells every connected page, signed in or not, when the features change', async () => {
    const server = await startTestServer();
    const account = await createAccount(server.database.knex, { role: 'admin' });
    const visitor = socketClient(server.url);
    const staff = socketClient(server.url);
    try {
      await staff.client.authenticate({ strategy: 'local', email: account.email, password: account.password });
      const heard = new Promise<FeaturesPayload>((resolve) => visitor.client.service('features').on('patched', resolve));
      expect(await visitor.client.service('features').find()).toMatchObject({ subscription: true });
      await staff.client.service('features').patch(null, { subscription: false });
      expect((await heard).subscription).toBe(false);
    } finally {
      visitor.close();
      staff.close();
      await server.close();
    }
  });
});

describe.skipIf(skipReason)('the missingTranslate service', () => {
  let app: TestApp;
  let editor: Caller;
  let member: Caller;
  const service = () => app.api.service('missingTranslate');
  type Row = { _id: string; key: string; locale: string; url: string; count: number };
  const list = async () => ((await service().find(asRest(editor, { $limit: 100 }))) as { total: number; data: Row[] });

  beforeAll(async () => {
    app = await createTestApp();
    editor = caller(await createAccount(app.database.knex, { role: 'editor' }));
    member = caller(await createAccount(app.database.knex));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps each missing key once per language, counting reports and remembering the last page', async () => {
    await service().create(
      [
        { key: 'home.hero', url: '/zh-hk', locale: 'zh-hk' },
        { key: 'home.hero', url: '/zh-hk/pricing', locale: 'zh-hk' },
        { key: 'home.hero', url: '/zh-cn', locale: 'zh-cn' },
      ],
      asRest(),
    );
    await service().create({ key: 'home.hero', url: '/zh-hk/blogs', locale: 'zh-hk' }, asRest());
    const { data } = await list();
    const hk = data.find((row) => row.locale === 'zh-hk' && row.key === 'home.hero');
    expect(hk).toMatchObject({ count: 2, url: '/zh-hk/blogs' });
    expect(data.find((row) => row.locale === 'zh-cn')).toMatchObject({ key: 'home.hero', count: 1 });
  });

  it('rejects what is not a message key or a language, storing nothing of the batch', async () => {
    const before = (await list()).total;
    const bad = await rejectionOf(
      service().create([{ key: 'ok.key', url: '/', locale: 'en' }, { key: "x'; drop table users; --", url: '/', locale: 'en' }], asRest()),
    );
    expect(bad.name).toBe('BadRequest');
    expect(bad.errors).toHaveProperty(['1.key']);
    expect((await rejectionOf(service().create({ key: 'a.b', locale: 'fr' }, asRest()))).name).toBe('BadRequest');
    expect((await rejectionOf(service().create([], asRest()))).name).toBe('BadRequest');
    expect((await list()).total).toBe(before);
  });

  it('shows the list to staff only', async () => {
    expect((await rejectionOf(service().find(asRest()))).name).toBe('NotAuthenticated');
    expect((await rejectionOf(service().find(asRest(member)))).name).toBe('Forbidden');
    expect((await rejectionOf(service().remove(null, asRest(member)))).name).toBe('Forbidden');
  });

  it('stops taking new keys when full but still counts known ones', async () => {
    const knex = app.database.knex;
    const existing = (await list()).total;
    const filler = Array.from({ length: MAX_MISSING_KEYS - existing }, (_, i) => ({ id: `fill${i}`, locale: 'en', key: `filler.k${i}`, url: '/' }));
    await knex.batchInsert('missing_translations', filler, 500);
    await service().create([{ key: 'brand.new', url: '/', locale: 'en' }, { key: 'filler.k0', url: '/en/x', locale: 'en' }], asRest());
    expect(Number(((await knex('missing_translations').count({ n: '*' }).first()) as { n: string | number }).n)).toBe(MAX_MISSING_KEYS);
    expect(await knex('missing_translations').where({ key: 'filler.k0' }).first()).toMatchObject({ count: 2, url: '/en/x' });
    await knex('missing_translations').where('key', 'like', 'filler.%').delete();
  });

  it('lets staff remove a translated key', async () => {
    const [row] = (await list()).data;
    const removed = (await service().remove(row!._id, asRest(editor))) as Row;
    expect(removed._id).toBe(row!._id);
    expect((await rejectionOf(service().remove(row!._id, asRest(editor)))).name).toBe('NotFound');
  });
});
