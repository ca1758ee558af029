import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../server/db/ids.ts';
import type { RunningServer } from '../../server/server.ts';
import type { ExportRecord, ExportsService } from '../../server/services/exports/exports.ts';
import { startServer } from '../../server/server.ts';
import {
  asRest,
  createAccount,
  createTestDatabase,
  rejectionOf,
  skipReason,
  socketClient,
  testConfig,
  type TestAccount,
} from './harness.ts';

/*
 * Exports of back-office tables (decision 036): written by a job as the staff member who asked,
 * page by page, in the export's language; followed, cancelled and downloaded by the one who asked.
 */

const BOM = '\uFEFF';
const caller = (account: TestAccount) => ({ _id: account._id, role: account.role, email: account.email });
const FINAL = new Set(['done', 'failed', 'cancelled']);

/** The lines of a CSV file without its BOM (no cell here holds a line break). */
const lines = (text: string) => text.replace(BOM, '').trimEnd().split('\r\n');

describe.skipIf(skipReason)('exports', () => {
  let server: RunningServer;
  let root: string;
  let tempDir: string;
  let admin: TestAccount;
  /** The staff member who asks for the exports below. */
  let exporter: TestAccount;
  let otherEditor: TestAccount;
  let member: TestAccount;
  let adminToken: string;
  let exporterToken: string;
  let otherToken: string;
  const exportsService = () => server.api.service('exports') as unknown as ExportsService;

  const signIn = async (email: string, password: string): Promise<string> => {
    const response = await fetch(`${server.url}/api/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ strategy: 'local', email, password }),
    });
    const body = (await response.json()) as { accessToken?: string };
    if (!body.accessToken) throw new Error(`could not sign in ${email}`);
    return body.accessToken;
  };
  const download = async (id: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}/api/exports/${id}/download`, { headers });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /** The export once its job has finished with it. */
  const settled = async (id: string, timeoutMs = 60_000): Promise<ExportRecord> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const record = await exportsService().read(id);
      if (FINAL.has(record.state)) return record;
      if (Date.now() > until) throw new Error(`export ${id} still ${record.state}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const start = (account: TestAccount, data: object) => exportsService().create(data, asRest(caller(account)));

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'exports-store-'));
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'exports-temp-'));
    const database = await createTestDatabase();
    server = await startServer(testConfig({ exports: { storage: { kind: 'folder', root }, tempDir } }), {
      database,
      pages: false,
    });
    const { knex } = server.database;
    admin = await createAccount(knex, { role: 'admin' });
    // Every export here holds personal data (subscribers, contact forms): an admin's (decision 052).
    exporter = await createAccount(knex, { role: 'admin' });
    otherEditor = await createAccount(knex, { role: 'editor' });
    member = await createAccount(knex, { role: 'member' });
    adminToken = await signIn(admin.email, admin.password);
    exporterToken = await signIn(exporter.email, exporter.password);
    otherToken = await signIn(otherEditor.email, otherEditor.password);
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 10, 4, 0) + minutes * 60_000);
    await knex('subscribers').insert([
      {
        id: newId(),
        email: 'sub-a@example.test',
        name: '=HYPERLINK("http://evil.test")',
        company_name: '+Acme',
        phone: '-12',
        campaign: 'sg23',
        locale: 'zh-hk',
        created_at: at(3),
      },
      {
        id: newId(),
        email: 'sub-b@example.test',
        name: '陳大文',
        company_name: '@Home',
        phone: '+85291234567',
        campaign: '23hkrace',
        locale: 'en',
        created_at: at(2),
      },
      {
        id: newId(),
        email: 'sub-c@example.test',
        name: 'Plain',
        company_name: 'Co',
        phone: null,
        campaign: 'sg23',
        locale: null,
        created_at: at(1),
      },
    ]);
    // Many contact forms, inserted in batches (one statement per thousand).
    const forms = Array.from({ length: 20_000 }, (_, index) => ({
      id: newId() + String(index).padStart(5, '0'),
      name: `Bulk ${index}`,
      phone: '91234567',
      email: `bulk-${index}@example.test`,
      company_name: 'Bulk Co',
      testing: index % 2 === 0,
      created_at: new Date(Date.UTC(2026, 1, 1) + index * 1000),
    }));
    for (let i = 0; i < forms.length; i += 1000) await knex('contact_forms').insert(forms.slice(i, i + 1000));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
    await rm(tempDir, { recursive: true, force: true });
  });

  it('writes the query’s rows as CSV with a BOM, the headers in the language, enum labels, only the chosen columns and formulas neutralised', async () => {
    const created = await start(exporter, {
      source: 'subscribers',
      format: 'csv',
      columns: ['name', 'companyName', 'phone', 'campaign', 'locale', 'createdAt'],
      query: {
        email: { $in: ['sub-a@example.test', 'sub-b@example.test', 'sub-c@example.test'] },
        $sort: { createdAt: -1, _id: 1 },
      },
      locale: 'zh-hk',
    });
    expect(created).toMatchObject({ state: 'queued', user: exporter._id, source: 'subscribers', format: 'csv' });
    const done = await settled(created._id);
    expect(done).toMatchObject({ state: 'done', rows: 3, total: 3, error: null });
    const file = await download(done._id, bearer(exporterToken));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toMatch(
      /^attachment; filename="subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = file.body.toString('utf8');
    expect(text.startsWith(BOM)).toBe(true);
    expect(lines(text)).toEqual([
      '姓名,公司名稱,電話號碼,推廣活動,語言,建立時間',
      `"'=HYPERLINK(""http://evil.test"")",'+Acme,'-12,新加坡 2023,繁體中文,2026-01-10`,
      `陳大文,'@Home,'+85291234567,賽馬日（香港 2023）,英文,2026-01-10`,
      'Plain,Co,,新加坡 2023,,2026-01-10',
    ]);
  });

  it('writes a reference as its record’s name, looked up once per page', async () => {
    const { knex } = server.database;
    const mine = newId();
    const gone = newId();
    await knex('attachments').insert([
      {
        id: mine,
        name: 'logo-export.png',
        mime: 'image/png',
        size: 10,
        folder: 'general',
        uploaded_by: member._id,
        created_at: new Date(Date.UTC(2026, 0, 1)),
      },
      {
        id: gone,
        name: 'orphan-export.png',
        mime: 'image/png',
        size: 10,
        folder: 'general',
        uploaded_by: null,
        created_at: new Date(Date.UTC(2026, 0, 2)),
      },
    ]);
    const created = await start(exporter, {
      source: 'attachments',
      format: 'csv',
      columns: ['name', 'uploadedBy'],
      ids: [mine, gone],
      locale: 'en',
    });
    const done = await settled(created._id);
    expect(done).toMatchObject({ state: 'done', rows: 2 });
    const text = (await download(done._id, bearer(exporterToken))).body.toString('utf8');
    expect(lines(text).slice(1).sort()).toEqual([`logo-export.png,${member.email}`, 'orphan-export.png,']);
  });

  it('writes XLSX with the same rows, read back', async () => {
    const created = await start(exporter, {
      source: 'subscribers',
      format: 'xlsx',
      columns: ['name', 'campaign', 'locale'],
      query: {
        email: { $in: ['sub-a@example.test', 'sub-b@example.test', 'sub-c@example.test'] },
        $sort: { createdAt: -1, _id: 1 },
      },
      locale: 'en',
    });
    const done = await settled(created._id);
    expect(done.state).toBe('done');
    const file = await download(done._id, bearer(exporterToken));
    expect(file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const rows: unknown[][] = [];
    sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toEqual([
      ['Name', 'Campaign', 'Language'],
      ['=HYPERLINK("http://evil.test")', 'Singapore 2023', '繁體中文'],
      ['陳大文', 'Race day, Hong Kong 2023', 'English'],
      ['Plain', 'Singapore 2023'],
    ]);
  });

  it('exports only the selected ids', async () => {
    const picked = (await server.database.knex('contact_forms').orderBy('id').limit(3).select('id', 'email')) as {
      id: string;
      email: string;
    }[];
    const created = await start(admin, {
      source: 'contactForms',
      format: 'csv',
      columns: ['email'],
      ids: picked.map((row) => row.id),
      locale: 'en',
    });
    const done = await settled(created._id);
    expect(done).toMatchObject({ state: 'done', rows: 3 });
    const file = await download(done._id, bearer(adminToken));
    expect(lines(file.body.toString('utf8')).slice(1).sort()).toEqual(picked.map((row) => row.email).sort());
  });

  it('refuses an entity the editor may not read or export, unknown columns, members and signed-out callers', async () => {
    expect(
      await rejectionOf(start(otherEditor, { source: 'auditLogs', format: 'csv', columns: ['service'] })),
    ).toMatchObject({ code: 403 });
    // Editors read contact forms and follow them up, but personal data is exported by admins only (decision 052).
    expect(
      await rejectionOf(start(otherEditor, { source: 'contactForms', format: 'csv', columns: ['email'] })),
    ).toMatchObject({ code: 403 });
    expect(
      await rejectionOf(start(exporter, { source: 'contactForms', format: 'csv', columns: ['secret'] })),
    ).toMatchObject({ code: 400 });
    expect(
      await rejectionOf(
        start(exporter, { source: 'contactForms', format: 'csv', columns: ['email'], query: { $limit: 5 } }),
      ),
    ).toMatchObject({ code: 400 });
    expect(
      await rejectionOf(start(member, { source: 'contactForms', format: 'csv', columns: ['email'] })),
    ).toMatchObject({ code: 403 });
    expect(
      await rejectionOf(
        exportsService().create({ source: 'contactForms', format: 'csv', columns: ['email'] }, { provider: 'rest' }),
      ),
    ).toMatchObject({ code: 401 });
  });

  it('writes 20 000 rows page by page, with its total, and records the export in the audit log', async () => {
    const created = await start(exporter, {
      source: 'contactForms',
      format: 'csv',
      columns: ['email', 'testing', 'createdAt'],
      query: { email: { $regex: 'bulk-' } },
      locale: 'en',
    });
    const done = await settled(created._id, 120_000);
    expect(done).toMatchObject({ state: 'done', rows: 20_000, total: 20_000 });
    const file = await download(done._id, bearer(exporterToken));
    const all = lines(file.body.toString('utf8'));
    expect(all).toHaveLength(20_001);
    expect(all[0]).toBe('Email,Test submission,Created');
    expect(new Set(all.slice(1)).size).toBe(20_000);
    const [logged] = (await server.database.knex('audit_logs').where({ record_id: created._id })) as {
      method: string;
      user_id: string;
      service: string;
    }[];
    expect(logged).toMatchObject({ method: 'export', user_id: exporter._id, service: 'contactForms' });
  }, 150_000);

  it('stops a cancelled export and leaves no file', async () => {
    const created = await start(exporter, {
      source: 'contactForms',
      format: 'xlsx',
      columns: ['name', 'email', 'phone', 'companyName', 'testing', 'createdAt'],
      locale: 'zh-cn',
    });
    // Cancelled once it has written something.
    for (let i = 0; i < 600 && (await exportsService().read(created._id)).rows === 0; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const cancelled = await exportsService().patch(created._id, { state: 'cancelled' }, asRest(caller(exporter)));
    expect(cancelled.state).toBe('cancelled');
    const until = Date.now() + 30_000;
    while ((await readdir(tempDir)).length > 0 && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await readdir(tempDir)).toEqual([]);
    const record = await settled(created._id);
    expect(record).toMatchObject({ state: 'cancelled', fileKey: null });
    expect(record.rows).toBeLessThan(20_000);
    expect(await readdir(root)).not.toContain(created._id);
    expect((await download(created._id, bearer(exporterToken))).status).toBe(404);
    expect(
      await rejectionOf(exportsService().patch(created._id, { state: 'cancelled' }, asRest(caller(exporter)))),
    ).toMatchObject({ code: 409 });
  });

  it('answers and downloads only to the one who asked or an admin', async () => {
    const created = await start(exporter, { source: 'subscribers', format: 'csv', columns: ['email'], locale: 'en' });
    await settled(created._id);
    expect(await rejectionOf(exportsService().get(created._id, asRest(caller(otherEditor))))).toMatchObject({
      code: 404,
    });
    expect(await exportsService().get(created._id, asRest(caller(admin)))).toMatchObject({ state: 'done' });
    expect((await download(created._id, bearer(otherToken))).status).toBe(404);
    expect((await download(created._id)).status).toBe(401);
    expect((await download(created._id, bearer(adminToken))).status).toBe(200);
    expect((await download(created._id, { cookie: `tp_session=${exporterToken}` })).status).toBe(200);
  });

  it('announces progress to the one who asked', async () => {
    const socket = socketClient(server.url);
    try {
      await socket.client.authenticate({ strategy: 'local', email: exporter.email, password: exporter.password });
      const heard: { _id: string; state: string }[] = [];
      socket.client.service('exports').on('patched', (record: { _id: string; state: string }) => heard.push(record));
      const created = (await socket.client
        .service('exports')
        .create({ source: 'subscribers', format: 'csv', columns: ['email'], locale: 'en' })) as { _id: string };
      await settled(created._id);
      const until = Date.now() + 5000;
      while (!heard.some((record) => record._id === created._id && record.state === 'done') && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard.filter((record) => record._id === created._id).map((record) => record.state)).toContain('done');
    } finally {
      socket.close();
    }
  });
});
