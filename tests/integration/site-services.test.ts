import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MARKET, type FeaturesPayload } from '../../domain/features.ts';
import { TRANSLATION_REPORT_LIMIT } from '../../server/config.ts';
import type { RunningServer } from '../../server/server.ts';
import { MAX_MISSING_KEYS } from '../../server/services/missing-translate/missing-translate.ts';
import {
  asRest,
  createAccount,
  createTestApp,
  rejectionOf,
  skipReason,
  socketClient,
  startTestServer,
  testConfig,
  type FeathersErrorJSON,
  type SocketClient,
  type TestAccount,
  type TestApp,
} from './harness.ts';

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
    [admin, editor, member] = (
      await Promise.all([
        createAccount(knex, { role: 'admin' }),
        createAccount(knex, { role: 'editor' }),
        createAccount(knex),
      ])
    ).map(caller) as [Caller, Caller, Caller];
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers the spec defaults to anyone: region hk, currency HKD, currencies SGD and HKD, both flags on', async () => {
    const payload = (await features().find(asRest())) as FeaturesPayload;
    expect(payload).toMatchObject({
      contactForm: true,
      subscription: true,
      region: 'hk',
      currency: 'HKD',
      currencies: ['SGD', 'HKD'],
    });
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
    expect((await rejectionOf(features().patch(null, { subscription: false }, asRest()))).name).toBe(
      'NotAuthenticated',
    );
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
    const changed = (await features().patch(
      null,
      { region: 'sg', currencies: ['SGD', 'HKD', 'MYR'], currency: 'SGD' },
      asRest(admin),
    )) as unknown as FeaturesPayload;
    expect(changed).toMatchObject({ region: 'sg', currency: 'SGD', currencies: ['SGD', 'HKD', 'MYR'] });
    await features().patch(
      null,
      { region: DEFAULT_MARKET.region, currencies: DEFAULT_MARKET.currencies, currency: DEFAULT_MARKET.currency },
      asRest(admin),
    );
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
      const heard = new Promise<FeaturesPayload>((resolve) =>
        visitor.client.service('features').on('patched', resolve),
      );
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
  const list = async () => (await service().find(asRest(editor, { $limit: 100 }))) as { total: number; data: Row[] };

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
      service().create(
        [
          { key: 'ok.key', url: '/', locale: 'en' },
          { key: "x'; drop table users; --", url: '/', locale: 'en' },
        ],
        asRest(),
      ),
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
    const filler = Array.from({ length: MAX_MISSING_KEYS - existing }, (_, i) => ({
      id: `fill${i}`,
      locale: 'en',
      key: `filler.k${i}`,
      url: '/',
    }));
    await knex.batchInsert('missing_translations', filler, 500);
    await service().create(
      [
        { key: 'brand.new', url: '/', locale: 'en' },
        { key: 'filler.k0', url: '/en/x', locale: 'en' },
      ],
      asRest(),
    );
    expect(Number(((await knex('missing_translations').count({ n: '*' }).first()) as { n: string | number }).n)).toBe(
      MAX_MISSING_KEYS,
    );
    expect(await knex('missing_translations').where({ key: 'filler.k0' }).first()).toMatchObject({
      count: 2,
      url: '/en/x',
    });
    await knex('missing_translations').where('key', 'like', 'filler.%').delete();
  });

  it('lets staff remove a translated key', async () => {
    const [row] = (await list()).data;
    const removed = (await service().remove(row!._id, asRest(editor))) as Row;
    expect(removed._id).toBe(row!._id);
    expect((await rejectionOf(service().remove(row!._id, asRest(editor)))).name).toBe('NotFound');
  });
});

describe.skipIf(skipReason)('missingTranslate from outside, over REST and socket.io', () => {
  let nextAddress = 1;
  /** Each test its own addresses, behind the trusted loopback proxy. */
  const newAddress = () => `10.9.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
  const report = (key: string) => [{ key, url: '/zh-hk', locale: 'zh-hk' }];
  const sockets: SocketClient[] = [];
  const socket = (url: string, address = newAddress()) => {
    const opened = socketClient(url, { 'x-forwarded-for': address });
    sockets.push(opened);
    return opened;
  };

  /** A REST call as a browser or a script sends it, optionally signed in. */
  async function call(
    server: RunningServer,
    method: string,
    path: string,
    options: { body?: unknown; token?: string; address?: string; locale?: string } = {},
  ) {
    const response = await fetch(`${server.url}/api/${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'x-forwarded-for': options.address ?? newAddress(),
        ...(options.locale ? { 'x-locale': options.locale } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as FeathersErrorJSON & Record<string, unknown>,
    };
  }
  const signIn = async (server: RunningServer, account: TestAccount) =>
    (
      await call(server, 'POST', 'authentication', {
        body: { strategy: 'local', email: account.email, password: account.password },
      })
    ).body.accessToken as string;
  const keys = async (server: RunningServer) =>
    (await server.database.knex('missing_translations').orderBy('key').pluck('key')) as string[];

  afterAll(() => {
    for (const opened of sockets) opened.close();
  });

  describe('on a development server', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startTestServer({ trustProxy: 'loopback', translationReportLimit: { points: 3, duration: 60 } });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('takes anonymous reports up to the limit per address, over REST and the socket together', async () => {
      // Production servers refuse them; development ones take 120 batches a minute per address.
      expect(testConfig().translationReportLimit).toEqual(TRANSLATION_REPORT_LIMIT);
      expect(TRANSLATION_REPORT_LIMIT).toEqual({ points: 120, duration: 60 });
      const address = newAddress();
      for (const key of ['rl.one', 'rl.two']) {
        expect((await call(server, 'POST', 'missingTranslate', { body: report(key), address })).status).toBe(201);
      }
      const sameAddress = socket(server.url, address);
      expect(await sameAddress.client.service('missingTranslate').create(report('rl.three'))).toEqual({ received: 1 });

      const refused = await call(server, 'POST', 'missingTranslate', {
        body: report('rl.four'),
        address,
        locale: 'zh-hk',
      });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        name: 'TooManyRequests',
        message: '你的網絡傳送的缺漏翻譯報告太多，請一分鐘後再試。',
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await rejectionOf(sameAddress.client.service('missingTranslate').create(report('rl.five')))).toMatchObject(
        { name: 'TooManyRequests', code: 429 },
      );

      // Other addresses still report, over either transport.
      expect((await call(server, 'POST', 'missingTranslate', { body: report('rl.other') })).status).toBe(201);
      expect(await socket(server.url).client.service('missingTranslate').create(report('rl.socket'))).toEqual({
        received: 1,
      });
      expect(await keys(server)).toEqual(['rl.one', 'rl.other', 'rl.socket', 'rl.three', 'rl.two']);
    });

    it('lets an editor remove one key but only an admin empty the list, over REST and the socket', async () => {
      const knex = server.database.knex;
      const [editor, admin] = await Promise.all([
        createAccount(knex, { role: 'editor' }),
        createAccount(knex, { role: 'admin' }),
      ]);
      const editorToken = await signIn(server, editor);
      await call(server, 'POST', 'missingTranslate', { body: [...report('rm.one'), ...report('rm.two')] });
      const before = await keys(server);
      expect(before.length).toBeGreaterThanOrEqual(2);

      const multi = await call(server, 'DELETE', 'missingTranslate', { token: editorToken });
      expect(multi.status).toBe(403);
      expect(multi.body).toMatchObject({ name: 'Forbidden', message: 'You do not have permission to do this.' });
      const editorSocket = socket(server.url);
      await editorSocket.client.authenticate({ strategy: 'local', email: editor.email, password: editor.password });
      expect(await rejectionOf(editorSocket.client.service('missingTranslate').remove(null))).toMatchObject({
        name: 'Forbidden',
        code: 403,
      });
      expect(await keys(server)).toEqual(before);

      const one = (await knex('missing_translations').where({ key: 'rm.one' }).first('id')) as { id: string };
      expect((await call(server, 'DELETE', `missingTranslate/${one.id}`, { token: editorToken })).status).toBe(200);
      const two = (await knex('missing_translations').where({ key: 'rm.two' }).first('id')) as { id: string };
      expect(await editorSocket.client.service('missingTranslate').remove(two.id)).toMatchObject({ key: 'rm.two' });
      expect(await keys(server)).toEqual(before.filter((key) => !key.startsWith('rm.')));

      const adminSocket = socket(server.url);
      await adminSocket.client.authenticate({ strategy: 'local', email: admin.email, password: admin.password });
      expect(((await adminSocket.client.service('missingTranslate').remove(null)) as unknown[]).length).toBe(
        before.length - 2,
      );
      expect(await keys(server)).toEqual([]);
      await call(server, 'POST', 'missingTranslate', { body: report('rm.three') });
      const emptied = await call(server, 'DELETE', 'missingTranslate', { token: await signIn(server, admin) });
      expect(emptied.status).toBe(200);
      expect(await keys(server)).toEqual([]);
    });
  });

  describe('on a production server', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startTestServer({ env: 'production', trustProxy: 'loopback' });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('refuses every report from outside, anonymous or signed in, and stores nothing', async () => {
      const anonymous = await call(server, 'POST', 'missingTranslate', { body: report('prod.anonymous') });
      expect(anonymous.status).toBe(405);
      expect(anonymous.body).toMatchObject({
        name: 'MethodNotAllowed',
        message: 'This server does not take missing-translation reports; only a development server does.',
      });
      expect(
        await rejectionOf(socket(server.url).client.service('missingTranslate').create(report('prod.socket'))),
      ).toMatchObject({ name: 'MethodNotAllowed', code: 405 });

      const editor = await createAccount(server.database.knex, { role: 'editor' });
      expect(
        (
          await call(server, 'POST', 'missingTranslate', {
            body: report('prod.editor'),
            token: await signIn(server, editor),
          })
        ).status,
      ).toBe(405);
      expect(await keys(server)).toEqual([]);
      // Staff still read the list.
      expect(
        (await call(server, 'GET', 'missingTranslate', { token: await signIn(server, editor) })).body,
      ).toMatchObject({ total: 0 });
    });
  });
});
