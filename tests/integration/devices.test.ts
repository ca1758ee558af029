import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../app/context.ts';
import { loadApp, loadApps, loadDevice } from '../../app/routes/portal/apps.server.ts';
import { DEVICE_CAP, DEVICE_CODE_PATTERN, PAIRING_CODE_PATTERN } from '../../domain/apps/devices.ts';
import type { Caller } from '../../domain/entities/services.ts';
import { seedDemoPurchase } from '../../server/db/seed/demo-subscriptions.ts';
import { translate } from '../../server/i18n.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  asRest,
  clientService,
  createAccount,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  type SocketClient,
  startTestServer,
  type TestAccount,
  typedService,
  untypedService,
} from './harness.ts';

/*
 * The devices of a member's apps (decision 030), on both databases: each member reaches only
 * their own, on every path (in-process as the pages call it, REST, socket.io); what an attacker
 * sends (another member's id, a forged owner, subscription or code, a module they do not have
 * active, one device too many) is refused; messages come in the caller's language.
 */

type Device = {
  _id: string;
  user: string;
  subscription: string;
  module: string;
  name: string;
  code: string;
  pairingCode: string | null;
};

describe.skipIf(skipReason)('devices', () => {
  let server: RunningServer;
  let owner: TestAccount;
  let other: TestAccount;
  let editor: TestAccount;
  let admin: TestAccount;
  let ownerSubscription: string;
  let otherSubscription: string;
  const modules: Record<string, string> = {};
  const sockets: SocketClient[] = [];
  let address = 10;

  const caller = (account: TestAccount): Caller => ({ _id: account._id, role: account.role });
  /** In-process, as the pages call it: each call its own params. */
  const as = (account: TestAccount, locale = 'en') => ({ ...asRest(caller(account)), headers: { 'x-locale': locale } });
  const devices = () => typedService(server.api, 'devices');
  const attacker = () => untypedService(server.api, 'devices');

  const rest = async (account: TestAccount, locale = 'en') => {
    const client = restClient(server.url, { 'x-forwarded-for': `10.7.0.${(address += 1)}`, 'x-locale': locale });
    await client.authenticate({ strategy: 'local', email: account.email, password: account.password });
    return client;
  };
  const socket = async (account: TestAccount) => {
    const opened = socketClient(server.url, { 'x-forwarded-for': `10.7.1.${(address += 1)}` });
    sockets.push(opened);
    await opened.client.authenticate({ strategy: 'local', email: account.email, password: account.password });
    return opened.client;
  };

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    const knex = server.database.knex;
    owner = await createAccount(knex, { label: 'devices-owner' });
    other = await createAccount(knex, { label: 'devices-other' });
    editor = await createAccount(knex, { role: 'editor' });
    admin = await createAccount(knex, { role: 'admin' });
    for (const row of (await knex('modules').select('id', 'key')) as { id: string; key: string }[])
      modules[row.key] = row.id;
    // Flexi includes one KDS screen, QR self-ordering and loyalty; two kiosks are bought with it.
    await knex.transaction((trx) =>
      seedDemoPurchase(
        trx,
        {
          email: owner.email,
          planKey: 'restaurant-flexi',
          addOns: [
            { key: 'kiosk-self-order', count: 2 },
            { key: 'purchasing', count: 1 },
          ],
          prepaidMonths: 24,
          country: 'HK',
          paidDaysAgo: 30,
        },
        new Date(),
      ),
    );
    await knex.transaction((trx) =>
      seedDemoPurchase(
        trx,
        {
          email: other.email,
          planKey: 'restaurant-lite',
          addOns: [{ key: 'kds', count: 1 }],
          prepaidMonths: 12,
          country: 'HK',
          paidDaysAgo: 10,
        },
        new Date(),
      ),
    );
    const row = (await knex('subscriptions').where('user_id', owner._id).first('id', 'modules')) as {
      id: string;
      modules: Record<string, unknown>[];
    };
    ownerSubscription = row.id;
    otherSubscription = ((await knex('subscriptions').where('user_id', other._id).first('id')) as { id: string }).id;
    // An order display bought since, not yet set up (decision 028).
    const pending = {
      id: modules.ods,
      count: 1,
      monthPrice: 12800,
      billing: 'monthly',
      status: 'pending',
      availableOn: '2099-01-02',
    };
    await knex('subscriptions')
      .where('id', ownerSubscription)
      .update({ modules: JSON.stringify([...row.modules, pending]) });
  });
  afterAll(async () => {
    for (const opened of sockets) opened.close();
    await server?.close();
  });

  let kitchen: Device;

  it('registers a device to an active module for its caller, with codes the server makes', async () => {
    kitchen = (await devices().create({ module: modules.kds as string, name: '  Hot kitchen  ' }, as(owner))) as Device;
    expect(kitchen).toMatchObject({
      user: owner._id,
      subscription: ownerSubscription,
      module: modules.kds,
      name: 'Hot kitchen',
    });
    expect(kitchen.code).toMatch(DEVICE_CODE_PATTERN);
    expect(kitchen.code.startsWith('KDS-')).toBe(true);
    expect(kitchen.pairingCode).toMatch(PAIRING_CODE_PATTERN);
  });

  it('takes as many devices as a counter module has units, and the fixed cap otherwise', async () => {
    // One KDS screen on the plan, and it is taken.
    const full = await rejectionOf(
      devices().create({ module: modules.kds as string, name: 'Bar' }, as(owner, 'zh-hk')),
    );
    expect(full).toMatchObject({ code: 422, message: translate('zh-hk', 'apps.errors.limit', { limit: 1 }) });
    expect(full.message).toContain('1');
    // Two kiosks bought: two devices, not three.
    await devices().create({ module: modules['kiosk-self-order'] as string, name: 'Kiosk 1' }, as(owner));
    await devices().create({ module: modules['kiosk-self-order'] as string, name: 'Kiosk 2' }, as(owner));
    expect(
      await rejectionOf(
        devices().create({ module: modules['kiosk-self-order'] as string, name: 'Kiosk 3' }, as(owner)),
      ),
    ).toMatchObject({ code: 422 });
    // Purchasing is not sold per unit: the cap.
    for (let i = 0; i < DEVICE_CAP; i += 1)
      await devices().create({ module: modules.purchasing as string, name: `Scanner ${i + 1}` }, as(owner));
    expect(
      await rejectionOf(devices().create({ module: modules.purchasing as string, name: 'One more' }, as(owner))),
    ).toMatchObject({ code: 422 });
    const counted = await devices().find({ ...as(owner), query: { module: modules.purchasing as string, $limit: 0 } });
    expect(counted.total).toBe(DEVICE_CAP);
  });

  it('refuses a module the caller does not have active, with a message in their language', async () => {
    const notOnPlan = await rejectionOf(
      devices().create({ module: modules['online-shop'] as string, name: 'Shop' }, as(owner, 'zh-hk')),
    );
    expect(notOnPlan).toMatchObject({ code: 422, message: translate('zh-hk', 'apps.errors.notActive') });
    expect(notOnPlan.message).toMatch(/[\u3400-\u9fff]/);
    expect(
      await rejectionOf(devices().create({ module: modules.ods as string, name: 'Pickup' }, as(owner, 'zh-hk'))),
    ).toMatchObject({
      code: 422,
      message: translate('zh-hk', 'apps.errors.pending'),
    });
    // QR self-ordering is active, and runs in the POS: no device of its own.
    expect(
      await rejectionOf(devices().create({ module: modules['qr-self-order'] as string, name: 'Table 1' }, as(owner))),
    ).toMatchObject({
      code: 422,
      message: translate('en', 'apps.errors.noDevices'),
    });
    // The owner's KDS is not the other member's: theirs is their own Lite plan's, and an unknown module is no one's.
    expect(await rejectionOf(devices().create({ module: 'nosuchmodule', name: 'X' }, as(owner)))).toMatchObject({
      code: 422,
    });
    // A staff member has no plan of their own to register to.
    expect(
      await rejectionOf(devices().create({ module: modules.kds as string, name: 'Staff' }, as(admin))),
    ).toMatchObject({ code: 422 });
  });

  it('checks names in the caller’s language: trimmed, 1 to 60 characters', async () => {
    const empty = await rejectionOf(
      devices().create({ module: modules.kds as string, name: '   ' }, as(other, 'zh-hk')),
    );
    expect(empty).toMatchObject({ code: 400, errors: { name: translate('zh-hk', 'validation.required') } });
    const long = await rejectionOf(
      devices().create({ module: modules.kds as string, name: 'x'.repeat(61) }, as(other, 'zh-hk')),
    );
    expect(long).toMatchObject({ code: 400, errors: { name: '最多 60 個字元。' } });
    const missing = await rejectionOf(attacker().create({ module: modules.kds }, as(other, 'zh-hk')));
    expect(missing.errors).toMatchObject({ name: '必填' });
    const rename = await rejectionOf(devices().patch(kitchen._id, { name: 'y'.repeat(61) }, as(owner, 'zh-hk')));
    expect(rename).toMatchObject({ code: 400, errors: { name: '最多 60 個字元。' } });
    // Sixty characters once trimmed are fine.
    const exact = await devices().create({ module: modules.kds as string, name: ` ${'z'.repeat(60)} ` }, as(other));
    expect(exact.name).toBe('z'.repeat(60));
    await devices().remove(exact._id, as(other));
  });

  it('makes a registration its caller’s whatever owner, subscription or code it names', async () => {
    const forged = (await attacker().create(
      { module: modules.kds, name: 'Mine now', user: owner._id },
      as(other),
    )) as unknown as Device;
    expect(forged).toMatchObject({ user: other._id, subscription: otherSubscription });
    await devices().remove(forged._id, as(other));
    for (const field of [
      { subscription: ownerSubscription },
      { pairingCode: 'AAAA-BBBB' },
      { code: 'KDS-AAAAAA' },
      { pairedAt: new Date().toISOString() },
    ]) {
      const refused = await rejectionOf(
        attacker().create({ module: modules.kds, name: 'Forged', ...field }, as(other)),
      );
      expect(refused.code, JSON.stringify(field)).toBe(400);
    }
    // Nothing the owner has was touched.
    expect(await devices().get(kitchen._id, as(owner))).toMatchObject({ user: owner._id, name: 'Hot kitchen' });
  });

  it('lets its owner rename it, in every patch syntax, and nothing else', async () => {
    expect(await devices().patch(kitchen._id, { name: 'Wok station' }, as(owner))).toMatchObject({
      name: 'Wok station',
    });
    expect(await attacker().patch(kitchen._id, { $set: { name: 'Hot kitchen' } }, as(owner))).toMatchObject({
      name: 'Hot kitchen',
    });
    const writes: Record<string, unknown>[] = [
      { user: other._id },
      { $set: { user: other._id } },
      { $push: { user: other._id } },
      { subscription: otherSubscription },
      { $set: { subscription: otherSubscription } },
      { pairingCode: 'AAAA-BBBB' },
      { $set: { pairingCode: 'AAAA-BBBB' } },
      { code: 'KDS-AAAAAA' },
      { lastSeenAt: new Date().toISOString() },
    ];
    for (const data of writes)
      expect((await rejectionOf(attacker().patch(kitchen._id, data, as(owner)))).code, JSON.stringify(data)).toBe(400);
    for (const data of [{ module: modules.ods }, { $set: { module: modules.ods } }]) {
      expect((await rejectionOf(attacker().patch(kitchen._id, data, as(owner)))).code, JSON.stringify(data)).toBe(403);
    }
    const stored = (await server.database.knex('devices').where('id', kitchen._id).first()) as Record<string, unknown>;
    expect(stored).toMatchObject({
      user_id: owner._id,
      subscription_id: ownerSubscription,
      module_id: modules.kds,
      pairing_code: kitchen.pairingCode,
      code: kitchen.code,
    });
  });

  it('is not found for another member on every method, in-process, over REST and over socket.io', async () => {
    const inProcess = {
      get: () => devices().get(kitchen._id, as(other)),
      patch: () => devices().patch(kitchen._id, { name: 'Taken' }, as(other)),
      patchSet: () => attacker().patch(kitchen._id, { $set: { name: 'Taken' } }, as(other)),
      remove: () => devices().remove(kitchen._id, as(other)),
    };
    for (const [name, call] of Object.entries(inProcess)) expect((await rejectionOf(call())).code, name).toBe(404);
    for (const client of [await rest(other), await socket(other)]) {
      const service = clientService(client, 'devices');
      expect((await rejectionOf(service.get(kitchen._id))).code).toBe(404);
      expect((await rejectionOf(service.patch(kitchen._id, { name: 'Taken' }))).code).toBe(404);
      expect((await rejectionOf(service.patch(kitchen._id, { $set: { name: 'Taken' } }))).code).toBe(404);
      expect((await rejectionOf(service.remove(kitchen._id))).code).toBe(404);
      // A search names the owner: it finds nothing of theirs.
      const found = await service.find({ query: { user: owner._id } });
      expect(found.total).toBe(0);
      const all = await service.find({ query: { code: kitchen.code } });
      expect(all.data).toEqual([]);
    }
    expect(await devices().get(kitchen._id, as(owner))).toMatchObject({ name: 'Hot kitchen', user: owner._id });
  });

  it('answers its owner over REST and socket.io, and refuses the same forgeries there', async () => {
    const overRest = clientService(await rest(owner, 'zh-hk'), 'devices');
    const page = await overRest.find({ query: { module: modules.kds as string } });
    expect(page.data.map((device) => device._id)).toEqual([kitchen._id]);
    expect((await rejectionOf(overRest.patch(kitchen._id, { $set: { user: other._id } } as never))).code).toBe(400);
    const refused = await rejectionOf(overRest.create({ module: modules['online-shop'] as string, name: 'Shop' }));
    expect(refused).toMatchObject({ code: 422, message: translate('zh-hk', 'apps.errors.notActive') });

    const overSocket = clientService(await socket(owner), 'devices');
    const kiosks = await overSocket.find({ query: { module: modules['kiosk-self-order'] as string } });
    expect(kiosks.total).toBe(2);
    const removed = await overSocket.remove(kiosks.data[0]?._id as string);
    expect(removed.user).toBe(owner._id);
    // The place it held is free again.
    const again = await overSocket.create({
      module: modules['kiosk-self-order'] as string,
      name: 'Kiosk 3',
      user: other._id,
    } as never);
    expect(again.user).toBe(owner._id);
  });

  it('lets staff read every device; only admins change one', async () => {
    expect(await devices().get(kitchen._id, as(editor))).toMatchObject({ _id: kitchen._id });
    const all = await devices().find({ ...as(editor), query: { user: owner._id, $limit: 100 } });
    expect(all.total).toBeGreaterThan(1);
    expect((await rejectionOf(devices().patch(kitchen._id, { name: 'Editor' }, as(editor)))).code).toBe(403);
    expect((await rejectionOf(devices().remove(kitchen._id, as(editor)))).code).toBe(403);
    expect(await devices().patch(kitchen._id, { name: 'Hot kitchen' }, as(admin))).toMatchObject({ user: owner._id });
  });

  it('tells only the owner and staff of a new device over socket.io', async () => {
    const ownerSocket = socketClient(server.url, { 'x-forwarded-for': '10.7.2.1' });
    const otherSocket = socketClient(server.url, { 'x-forwarded-for': '10.7.2.2' });
    sockets.push(ownerSocket, otherSocket);
    await ownerSocket.client.authenticate({ strategy: 'local', email: owner.email, password: owner.password });
    await otherSocket.client.authenticate({ strategy: 'local', email: other.email, password: other.password });
    const heardByOther: unknown[] = [];
    otherSocket.client.service('devices').on('created', (device: unknown) => heardByOther.push(device));
    const heard = new Promise<Device>((resolve) => ownerSocket.client.service('devices').once('created', resolve));
    // Both kiosks are registered: one makes room first.
    const kiosks = await devices().find({ ...as(owner), query: { module: modules['kiosk-self-order'] as string } });
    await devices().remove(kiosks.data[0]?._id as string, as(owner));
    const device = await devices().create(
      { module: modules['kiosk-self-order'] as string, name: 'Kiosk 4' },
      as(owner),
    );
    expect((await heard)._id).toBe(device._id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heardByOther).toEqual([]);
  });

  it('gives the pages the member’s own apps and devices, and a 404 for another member’s device', async () => {
    const sessionOf = (account: TestAccount): SessionUser => ({
      _id: account._id,
      email: account.email,
      name: null,
      firstName: null,
      lastName: null,
      role: 'member',
      picture: null,
    });
    const ctx = { api: server.api };
    const grid = await loadApps(ctx, sessionOf(owner), 'en');
    expect(grid.subscription?._id).toBe(ownerSubscription);
    const kds = grid.apps.find((app) => app.slug === 'kds');
    expect(kds).toMatchObject({ status: 'active', included: true, devices: 1 });
    expect(grid.apps.find((app) => app.slug === 'ods')).toMatchObject({ status: 'pending', availableOn: '2099-01-02' });
    expect(grid.apps.find((app) => app.slug === 'qr-self-order')?.devices).toBeNull();
    expect(grid.offered.map((app) => app.slug)).toContain('online-shop');
    expect(grid.offered.map((app) => app.slug)).not.toContain('kds');

    const page = await loadApp(ctx, sessionOf(owner), 'zh-hk', 'kds');
    expect(page.state.kind).toBe('active');
    expect(page.limit).toBe(1);
    expect(page.devices.map((device) => device.code)).toEqual([kitchen.code]);
    expect(page.app.name).toEqual({ 'zh-hk': '廚房顯示系統' });
    expect((await loadApp(ctx, sessionOf(owner), 'en', 'online-shop')).state.kind).toBe('offered');

    expect((await loadDevice(ctx, sessionOf(owner), 'en', 'kds', kitchen._id)).device.pairingCode).toBe(
      kitchen.pairingCode,
    );
    const notFound = async (promise: Promise<unknown>) => {
      const thrown = await promise.then(
        () => null,
        (error: unknown) => error,
      );
      expect(thrown).toMatchObject({ init: { status: 404 } });
    };
    await notFound(loadDevice(ctx, sessionOf(other), 'en', 'kds', kitchen._id));
    // The right device under another app's address is not found either.
    await notFound(loadDevice(ctx, sessionOf(owner), 'en', 'ods', kitchen._id));
    await notFound(loadApp(ctx, sessionOf(owner), 'en', 'no-such-app'));
    // The other member's own KDS page lists their devices alone.
    expect((await loadApp(ctx, sessionOf(other), 'en', 'kds')).devices).toEqual([]);
  });
});
