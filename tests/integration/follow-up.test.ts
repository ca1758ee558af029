import type { Application } from '@feathersjs/feathers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  asRest,
  createAccount,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  type SocketClient,
  startTestServer,
  type TestAccount,
  uniqueEmail,
  untypedService,
  validEnquiry,
} from './harness.ts';

/**
 * Staff's follow-up of the leads (decision 035): a status and notes on enquiries, contact forms
 * and subscribers, which staff patch and nothing else of what the visitor sent; the visitor never
 * sets them; admins alone change a subscriber's own answers.
 */

type Lead = { _id: string; followUp: string; notes: string | null; email: string; [key: string]: unknown };

describe.skipIf(skipReason)('follow-up of enquiries, contact forms and subscribers', () => {
  let server: RunningServer;
  let admin: TestAccount;
  let editor: TestAccount;
  let member: TestAccount;
  const sockets: SocketClient[] = [];
  let ip = 0;

  const visitor = () => ({ ...asRest(), ip: `10.35.0.${++ip}` });
  const signedIn = async (account: TestAccount, transport: 'rest' | 'socket' = 'rest'): Promise<Application> => {
    let client: Application;
    if (transport === 'rest') client = restClient(server.url);
    else {
      const s = socketClient(server.url);
      sockets.push(s);
      client = s.client;
    }
    await client.authenticate({ strategy: 'local', email: account.email, password: account.password });
    return client;
  };
  const enquiry = async () =>
    (await untypedService(server.api, 'enquiries').create(
      validEnquiry(uniqueEmail('lead')),
      visitor(),
    )) as unknown as Lead;
  const contactForm = async () =>
    (await untypedService(server.api, 'contactForms').create(
      { name: 'Lee Lead', phone: '91234567', email: uniqueEmail('form'), companyName: 'Lead Ltd' },
      visitor(),
    )) as unknown as Lead;
  const subscriber = async () => {
    const email = uniqueEmail('sub');
    await untypedService(server.api, 'subscribers').create(
      { campaign: '23hkrace', name: 'Sam Sub', companyName: 'Sub Co', email },
      visitor(),
    );
    return (
      await untypedService(server.api, 'subscribers').find({ paginate: false, query: { email } })
    )[0] as unknown as Lead;
  };
  const stored = async (service: 'enquiries' | 'contactForms' | 'subscribers', id: string) =>
    (await untypedService(server.api, service).get(id)) as unknown as Lead;

  beforeAll(async () => {
    server = await startTestServer();
    const { knex } = server.database;
    admin = await createAccount(knex, { role: 'admin' });
    editor = await createAccount(knex, { role: 'editor' });
    member = await createAccount(knex, { role: 'member' });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  it('starts every lead at `new`, without notes', async () => {
    for (const lead of [await enquiry(), await contactForm(), await subscriber()])
      expect(lead).toMatchObject({ followUp: 'new', notes: null });
  });

  it('lets an editor set the follow-up and notes over REST, in plain data and in a $set', async () => {
    const client = await signedIn(editor);
    const first = await enquiry();
    const patched = (await client
      .service('enquiries')
      .patch(first._id, { followUp: 'contacted', notes: 'Called on Monday; demo booked.' })) as Lead;
    expect(patched).toMatchObject({
      followUp: 'contacted',
      notes: 'Called on Monday; demo booked.',
      email: first.email,
    });
    const form = await contactForm();
    expect(
      await client.service('contactForms').patch(form._id, { $set: { followUp: 'closed', notes: 'Not a fit.' } }),
    ).toMatchObject({ followUp: 'closed', notes: 'Not a fit.' });
    expect(await stored('contactForms', form._id)).toMatchObject({ followUp: 'closed', notes: 'Not a fit.' });
    // The editor's patch is in the audit log, with the fields it changed.
    const [log] = (await untypedService(server.api, 'auditLogs').find({
      paginate: false,
      query: { recordId: first._id },
    })) as unknown as { changes: object }[];
    expect(log?.changes).toEqual({
      followUp: { before: 'new', after: 'contacted' },
      notes: { before: null, after: 'Called on Monday; demo booked.' },
    });
  });

  it('checks the status and the length of the notes', async () => {
    const client = await signedIn(admin, 'socket');
    const lead = await enquiry();
    expect(await rejectionOf(client.service('enquiries').patch(lead._id, { followUp: 'won' }))).toMatchObject({
      code: 400,
      errors: { followUp: expect.any(String) },
    });
    expect(await rejectionOf(client.service('enquiries').patch(lead._id, { notes: 'x'.repeat(5001) }))).toMatchObject({
      code: 400,
      errors: { notes: expect.any(String) },
    });
    expect(await client.service('enquiries').patch(lead._id, { notes: 'y'.repeat(5000) })).toMatchObject({
      notes: 'y'.repeat(5000),
    });
  });

  it('refuses staff changing what the visitor sent, in any syntax, and writes nothing', async () => {
    const lead = await enquiry();
    const form = await contactForm();
    for (const [account, transport] of [
      [editor, 'rest'],
      [admin, 'socket'],
    ] as const) {
      const client = await signedIn(account, transport);
      for (const data of [
        { email: 'someone-else@example.test' },
        { followUp: 'contacted', firstName: 'Changed' },
        { $set: { companyName: 'Changed Ltd' } },
        { $push: { contactMethods: 'whatsapp' } },
      ]) {
        const refused = await rejectionOf(client.service('enquiries').patch(lead._id, data));
        expect(refused, JSON.stringify(data)).toMatchObject({ code: 403 });
      }
      expect(await rejectionOf(client.service('contactForms').patch(form._id, { testing: true }))).toMatchObject({
        code: 403,
        errors: { testing: expect.any(String) },
      });
    }
    expect(await stored('enquiries', lead._id)).toMatchObject({
      email: lead.email,
      firstName: lead.firstName,
      companyName: lead.companyName,
      contactMethods: lead.contactMethods,
      followUp: 'new',
    });
    expect(await stored('contactForms', form._id)).toMatchObject({ testing: null, followUp: 'new' });
    // Members and signed-out callers patch nothing.
    expect(
      await rejectionOf((await signedIn(member)).service('enquiries').patch(lead._id, { followUp: 'closed' })),
    ).toMatchObject({ code: 403 });
    expect(
      await rejectionOf(restClient(server.url).service('contactForms').patch(form._id, { followUp: 'closed' })),
    ).toMatchObject({ code: 401 });
  });

  it('refuses a visitor’s form that sets the follow-up or notes, and stores nothing', async () => {
    const email = uniqueEmail('sneaky');
    const enquiries = untypedService(server.api, 'enquiries');
    expect(
      await rejectionOf(enquiries.create({ ...validEnquiry(email), followUp: 'closed' }, visitor())),
    ).toMatchObject({ code: 403, errors: { followUp: expect.any(String) } });
    expect(
      await rejectionOf(enquiries.create({ ...validEnquiry(email), notes: 'VIP, skip the queue' }, visitor())),
    ).toMatchObject({ code: 403 });
    expect(await enquiries.find({ paginate: false, query: { email } })).toEqual([]);
    const forms = untypedService(server.api, 'contactForms');
    expect(
      await rejectionOf(
        forms.create(
          { name: 'Sneaky', phone: '91234567', email, companyName: 'S Ltd', followUp: 'contacted' },
          visitor(),
        ),
      ),
    ).toMatchObject({ code: 403 });
    expect(await forms.find({ paginate: false, query: { email } })).toEqual([]);
    const subscribers = untypedService(server.api, 'subscribers');
    expect(await rejectionOf(subscribers.create({ campaign: '23hkrace', email, notes: 'x' }, visitor()))).toMatchObject(
      { code: 403 },
    );
    expect(await subscribers.find({ paginate: false, query: { email } })).toEqual([]);
  });

  it('lets editors follow up a subscriber, and admins alone change its answers', async () => {
    const sub = await subscriber();
    const asEditor = await signedIn(editor);
    expect(
      await asEditor.service('subscribers').patch(sub._id, { followUp: 'contacted', notes: 'Sent the brochure.' }),
    ).toMatchObject({ followUp: 'contacted', notes: 'Sent the brochure.' });
    expect(await rejectionOf(asEditor.service('subscribers').patch(sub._id, { name: 'Renamed' }))).toMatchObject({
      code: 403,
      errors: { name: expect.any(String) },
    });
    expect(
      await rejectionOf(asEditor.service('subscribers').patch(sub._id, { $set: { companyName: 'Renamed Co' } })),
    ).toMatchObject({ code: 403 });
    const asAdmin = await signedIn(admin);
    expect(
      await asAdmin.service('subscribers').patch(sub._id, { name: 'Sam Renamed', followUp: 'closed' }),
    ).toMatchObject({ name: 'Sam Renamed', followUp: 'closed', notes: 'Sent the brochure.' });
  });

  it('filters and sorts leads by their follow-up', async () => {
    const lead = await enquiry();
    await untypedService(server.api, 'enquiries').patch(lead._id, { followUp: 'closed' });
    const client = await signedIn(editor);
    const page = (await client
      .service('enquiries')
      .find({ query: { followUp: 'closed', $sort: { followUp: 1 }, $limit: 100 } })) as { data: Lead[] };
    expect(page.data.map((row) => row._id)).toContain(lead._id);
    expect(page.data.every((row) => row.followUp === 'closed')).toBe(true);
  });
});
