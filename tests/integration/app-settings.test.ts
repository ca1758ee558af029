import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerContext, SessionUser } from '../../app/context.ts';
import { saveRecord } from '../../app/routes/admin/records.server.ts';
import { inputName } from '../../domain/admin/form.ts';
import { APP_SETTINGS_SEED } from '../../server/db/seed/app-settings.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  accessTokenOf,
  createAccount,
  rejectionOf,
  restCall,
  skipReason,
  socketClient,
  startTestServer,
  type SocketClient,
} from './harness.ts';
import { pdfOf, png } from './upload-fixtures.ts';

/**
 * The apps' settings (decision 046) through both transports: anyone reads the one record, staff
 * change it, nobody adds or removes one; the colour, map-point and day-range values are checked by
 * the same schemas as the editor's, with messages per part in the caller's language; patch
 * operators follow the write rules; the header photo is an uploaded image.
 */

type Settings = Record<string, unknown> & { _id: string };
type Caller = 'signed out' | 'member' | 'editor' | 'admin';

let nextAddress = 1;
const address = () => `10.46.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe.skipIf(skipReason)('the app settings service', () => {
  let server: RunningServer;
  const tokens = {} as Record<Exclude<Caller, 'signed out'>, string>;
  const sockets = {} as Record<Caller, SocketClient>;
  let settings: Settings;

  /** A REST call as a caller, in a language, from an address of its own; answers the status and the JSON body. */
  const rest = (caller: Caller, method: string, path: string, body?: unknown, locale = 'en') =>
    restCall(server.url, method, path, {
      body,
      locale,
      address: address(),
      ...(caller === 'signed out' ? {} : { token: tokens[caller] }),
    });

  const overSocket = (caller: Caller) => sockets[caller].client.service('appSettings');

  async function upload(file: Buffer, name: string, type: string, folder = 'settings'): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)], { type }), name);
    const response = await fetch(`${server.url}/api/attachments/upload/${folder}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.editor}`, 'x-forwarded-for': address() },
      body: form,
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { data: { info: { id: string } } }).data.info.id;
  }

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    for (const role of ['member', 'editor', 'admin'] as const) {
      const account = await createAccount(server.database.knex, { role, label: `app-settings-${role}` });
      tokens[role] = await accessTokenOf(server.url, account, address());
    }
    for (const caller of ['signed out', 'member', 'editor', 'admin'] as const) {
      const socket = socketClient(server.url, { 'x-forwarded-for': address(), 'x-locale': 'zh-hk' });
      sockets[caller] = socket;
      if (caller === 'signed out')
        await new Promise<void>((resolve) =>
          socket.socket.connected ? resolve() : socket.socket.once('connect', () => resolve()),
        );
      else await socket.client.authenticate({ strategy: 'jwt', accessToken: tokens[caller] });
    }
    const page = await rest('signed out', 'GET', 'appSettings');
    settings = (page.body.data as Settings[])[0] as Settings;
  });
  afterAll(async () => {
    for (const socket of Object.values(sockets)) socket.close();
    await server?.close();
  });

  it('is one record that anyone reads, over REST and the socket, as the seed made it', async () => {
    const page = await rest('signed out', 'GET', 'appSettings');
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(1);
    expect(settings).toMatchObject({ ...APP_SETTINGS_SEED, sponsorName: 'Harbour Coffee Roasters', headerPhoto: null });
    expect(settings.sponsorShown).toEqual({
      from: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      to: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(await overSocket('signed out').get(settings._id)).toMatchObject({
      _id: settings._id,
      footerColor1: APP_SETTINGS_SEED.footerColor1,
    });
    expect((await rest('member', 'GET', `appSettings/${settings._id}`)).body).toMatchObject({
      mapCanada: APP_SETTINGS_SEED.mapCanada,
    });
    // A second record is refused by the table itself, whoever writes it.
    await expect(
      server.database.knex('app_settings').insert({
        id: 'second',
        header: '{"en":"Two"}',
        footer_color1: '#000000',
        footer_color2: '#000000',
        map_hong_kong: '{}',
        map_canada: '{}',
      }),
    ).rejects.toThrow();
  });

  it('is changed by staff only, and never added to or removed, on either transport', async () => {
    const change = { sponsorName: 'Kowloon Tea House' };
    expect((await rest('signed out', 'PATCH', `appSettings/${settings._id}`, change)).status).toBe(401);
    expect((await rest('member', 'PATCH', `appSettings/${settings._id}`, change)).status).toBe(403);
    expect(await rejectionOf(overSocket('member').patch(settings._id, change))).toMatchObject({ code: 403 });
    expect(await rejectionOf(overSocket('signed out').patch(settings._id, change))).toMatchObject({ code: 401 });
    for (const caller of ['member', 'editor', 'admin'] as const) {
      expect((await rest(caller, 'POST', 'appSettings', { ...APP_SETTINGS_SEED })).status, caller).toBe(403);
      expect((await rest(caller, 'DELETE', `appSettings/${settings._id}`)).status, caller).toBe(403);
      expect(await rejectionOf(overSocket(caller).remove(settings._id))).toMatchObject({ code: 403 });
    }
    expect((await rest('editor', 'PATCH', `appSettings/${settings._id}`, change)).body).toMatchObject(change);
    expect(
      await overSocket('admin').patch(settings._id, { sponsorName: 'Sham Shui Po Bakery', footerColor1: '#1A6B4F' }),
    ).toMatchObject({
      sponsorName: 'Sham Shui Po Bakery',
      footerColor1: '#1a6b4f',
    });
    const rows = await server.database.knex('app_settings').select('id');
    expect(rows).toEqual([{ id: settings._id }]);
  });

  it('refuses a wrong colour, point or range with a message for each part, in the caller’s language', async () => {
    const wrong = {
      footerColor2: 'teal',
      mapHongKong: { latitude: 95, longitude: 114.16, latitudeDelta: 0, longitudeDelta: 0.3 },
      sponsorShown: { from: '2026-12-31', to: '2026-12-01' },
    };
    const inEnglish = await rest('editor', 'PATCH', `appSettings/${settings._id}`, wrong);
    expect(inEnglish.status).toBe(400);
    expect(inEnglish.body.errors).toEqual({
      footerColor2: 'Enter a colour as # and six hexadecimal digits, such as #14625c.',
      'mapHongKong.latitude': 'Enter a latitude from -90 to 90.',
      'mapHongKong.latitudeDelta': 'Enter a latitude span above 0 and up to 180.',
      'sponsorShown.to': 'The last day cannot be before the first day.',
    });
    const inChinese = await rejectionOf(
      overSocket('editor').patch(settings._id, {
        mapCanada: { latitude: 56, longitude: -200, latitudeDelta: 30 },
        sponsorShown: { from: '2026-02-30', to: '2026-03-01' },
      }),
    );
    expect(inChinese).toMatchObject({ code: 400 });
    expect(inChinese.errors).toEqual({
      'mapCanada.longitude': '請輸入 -180 至 180 之間的經度。',
      'mapCanada.longitudeDelta': '必填',
      'sponsorShown.from': '請以 YYYY-MM-DD 格式輸入日期。',
    });
    // A required value cannot be emptied; an optional one can.
    const emptied = await rest(
      'editor',
      'PATCH',
      `appSettings/${settings._id}`,
      { mapCanada: null, footerColor1: '' },
      'zh-cn',
    );
    expect(emptied.body.errors).toEqual({
      mapCanada: '必填',
      footerColor1: '请以 # 加六位十六进制数字输入颜色，例如 #14625c。',
    });
    expect((await rest('editor', 'PATCH', `appSettings/${settings._id}`, { sponsorShown: null })).body).toMatchObject({
      sponsorShown: null,
    });
    const stored = (await rest('signed out', 'GET', `appSettings/${settings._id}`)).body;
    expect(stored).toMatchObject({
      footerColor2: APP_SETTINGS_SEED.footerColor2,
      mapHongKong: APP_SETTINGS_SEED.mapHongKong,
      mapCanada: APP_SETTINGS_SEED.mapCanada,
    });
  });

  it('takes `$set` of a whole value and refuses one of a nested path, as the write rules say', async () => {
    const vancouver = { latitude: 49.2827, longitude: -123.1207, latitudeDelta: 0.5, longitudeDelta: 0.5 };
    expect(
      (
        await rest('editor', 'PATCH', `appSettings/${settings._id}`, {
          $set: { mapCanada: vancouver, showShop: false },
        })
      ).body,
    ).toMatchObject({ mapCanada: vancouver, showShop: false });
    // A part of a value is not a field: nested paths are refused, naming the path.
    const nested = await rest('editor', 'PATCH', `appSettings/${settings._id}`, {
      $set: { 'mapHongKong.latitude': 22.3 },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.errors).toEqual({ 'mapHongKong.latitude': 'This field is not accepted.' });
    const nestedOverSocket = await rejectionOf(
      overSocket('admin').patch(settings._id, { $set: { 'sponsorShown.to': '2027-01-01' } }),
    );
    expect(nestedOverSocket).toMatchObject({ code: 400, errors: { 'sponsorShown.to': '不接受此欄位。' } });
    // List operators do not apply to values that are not lists.
    expect(
      (await rest('editor', 'PATCH', `appSettings/${settings._id}`, { $push: { mapHongKong: vancouver } })).status,
    ).toBe(400);
    // The caller's role is checked before the syntax: a member's `$set` is refused whatever it names.
    expect(
      (await rest('member', 'PATCH', `appSettings/${settings._id}`, { $set: { 'mapHongKong.latitude': 22.3 } })).status,
    ).toBe(403);
    expect(
      await rejectionOf(overSocket('member').patch(settings._id, { $set: { footerColor1: '#000000' } })),
    ).toMatchObject({ code: 403 });
    const stored = (await rest('signed out', 'GET', `appSettings/${settings._id}`)).body;
    expect(stored).toMatchObject({ mapHongKong: APP_SETTINGS_SEED.mapHongKong, mapCanada: vancouver });
  });

  it('takes an image uploaded to the settings folder as the header photo, and refuses other files', async () => {
    const photo = await upload(await png(64, 32), 'header.png', 'image/png');
    const set = await rest('editor', 'PATCH', `appSettings/${settings._id}`, { headerPhoto: photo });
    expect(set.body).toMatchObject({ headerPhoto: photo });
    expect(await server.database.knex('attachments').where({ id: photo }).first('folder')).toEqual({
      folder: 'settings',
    });
    // The apps load it without signing in.
    const image = await fetch(`${server.url}/api/attachments/${photo}?width=small`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    await image.arrayBuffer();

    const pdf = await upload(pdfOf(2000), 'sponsor.pdf', 'application/pdf');
    const refused = await rest('editor', 'PATCH', `appSettings/${settings._id}`, { headerPhoto: pdf }, 'zh-hk');
    expect(refused).toMatchObject({
      status: 400,
      body: { errors: { headerPhoto: '請選擇圖片（JPEG、PNG、WebP 或 GIF）。' } },
    });
    const viaSet = await rejectionOf(overSocket('editor').patch(settings._id, { $set: { headerPhoto: pdf } }));
    expect(viaSet).toMatchObject({ code: 400, errors: { headerPhoto: '請選擇圖片（JPEG、PNG、WebP 或 GIF）。' } });
    const missing = await rest('editor', 'PATCH', `appSettings/${settings._id}`, { headerPhoto: 'nosuchattachment' });
    expect(missing.body.errors).toEqual({ headerPhoto: 'The linked record does not exist.' });
    expect(
      (
        (await rest('editor', 'PATCH', `appSettings/${settings._id}`, { headerPhoto: { $ne: null } })).body as {
          errors: unknown;
        }
      ).errors,
    ).toEqual({ headerPhoto: 'This value is not valid.' });
    expect((await rest('signed out', 'GET', `appSettings/${settings._id}`)).body).toMatchObject({ headerPhoto: photo });

    // Removing the file leaves the settings without a photo rather than failing.
    expect((await rest('admin', 'DELETE', `attachments/${photo}`)).status).toBe(200);
    expect((await rest('signed out', 'GET', `appSettings/${settings._id}`)).body).toMatchObject({ headerPhoto: null });
  });

  it('holds the back office’s saves to the same rules: a form read on the server, wrong parts named in the page’s language', async () => {
    const account = await createAccount(server.database.knex, { role: 'editor', label: 'app-settings-page' });
    const editor = { _id: account._id, email: account.email, role: 'editor' } as SessionUser;
    const context = { api: server.api, user: editor, ip: '127.0.0.1', headers: {} } as unknown as ServerContext;
    const current = (await rest('signed out', 'GET', `appSettings/${settings._id}`)).body;
    const form = (parts: Record<string, string>) => {
      const data = new FormData();
      data.set('id', settings._id);
      data.set('version', new Date(String(current.updatedAt)).toISOString());
      for (const [name, value] of Object.entries(parts)) data.set(name, value);
      return data;
    };
    // What a page without its scripts sends: the editor's own check never ran.
    const refused = await saveRecord(
      context,
      editor,
      'appSettings',
      form({
        [inputName('mapHongKong', 'latitude')]: '22.28, 114.16',
        [inputName('mapHongKong', 'longitude')]: '',
        [inputName('mapHongKong', 'latitudeDelta')]: '-1',
        [inputName('mapHongKong', 'longitudeDelta')]: '0.3',
        [inputName('sponsorShown', 'from')]: '2027-01-10',
        [inputName('sponsorShown', 'to')]: '2027-01-09',
        [inputName('footerColor1')]: '#12',
      }),
      'zh-cn',
    );
    expect(refused).toEqual({
      ok: false,
      conflict: false,
      message: '请检查标出的字段。',
      errors: {
        footerColor1: '请以 # 加六位十六进制数字输入颜色，例如 #14625c。',
        'mapHongKong.latitudeDelta': '纬度范围须大于 0，最多 180。',
        'sponsorShown.to': '结束日期不能早于开始日期。',
      },
    });
    const saved = await saveRecord(
      context,
      editor,
      'appSettings',
      form({
        [inputName('mapHongKong', 'latitude')]: '22.28, 114.16',
        [inputName('mapHongKong', 'longitude')]: '',
        [inputName('mapHongKong', 'latitudeDelta')]: '0.2',
        [inputName('mapHongKong', 'longitudeDelta')]: '0.3',
        [inputName('footerColor1')]: 'ABCDEF',
      }),
      'en',
    );
    expect(saved).toMatchObject({ ok: true, changed: true });
    expect((await rest('signed out', 'GET', `appSettings/${settings._id}`)).body).toMatchObject({
      footerColor1: '#abcdef',
      mapHongKong: { latitude: 22.28, longitude: 114.16, latitudeDelta: 0.2, longitudeDelta: 0.3 },
    });
  });

  it('tells every open app at once: a change reaches signed-out sockets', async () => {
    const heard = new Promise<Settings>((resolve) =>
      overSocket('signed out').once('patched', (record: Settings) => resolve(record)),
    );
    await rest('editor', 'PATCH', `appSettings/${settings._id}`, { showEvent: false });
    expect(await heard).toMatchObject({ _id: settings._id, showEvent: false });
  });

  it('records staff changes in the audit log, as any content', async () => {
    const logs = (await rest('admin', 'GET', `auditLogs?service=appSettings&recordId=${settings._id}&$limit=100`)).body
      .data as { method: string; changes: Record<string, unknown> }[];
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.every((log) => log.method === 'patch')).toBe(true);
    expect(logs.some((log) => 'mapCanada' in log.changes)).toBe(true);
  });
});
