import { randomBytes, randomUUID } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities, type EntityName } from '../../domain/entities/index.ts';
import type { EntityDef } from '../../domain/entities/types.ts';
import { CALLERS, allows } from '../../domain/admin/access.ts';
import { API_VERSION, describedSources, openApiDocument, type OpenApiDocument } from '../../server/openapi/document.ts';
import { descriptionOf, UNDESCRIBED_ROUTES, UNDESCRIBED_SERVICES } from '../../server/openapi/registry.ts';
import { CONTENT_TYPES } from '../../server/services/exports/writers.ts';
import { EXPORT_TYPES } from '../../server/openapi/document.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  accessTokenOf,
  createAccount,
  asRest,
  skipReason,
  startTestServer,
  testConfig,
  typedService,
  uniqueEmail,
  untypedService,
} from './harness.ts';
import { signAdId } from '../../server/services/ads/signed-ids.ts';
import { sessionCookieName } from '../../domain/session-cookie.ts';
import { deliveryDates } from '../../server/purchase/delivery-dates.ts';
import type { ShippingCountry } from '../../domain/orders/countries.ts';
import { newId } from '../../server/db/ids.ts';
import { appDefinition } from '../../domain/apps/apps.ts';
import { dayOf, startOfDay } from '../../domain/billing/calendar.ts';
import { contractEnd } from '../../domain/billing/schedule.ts';
import { billingAddress, CARDS, shipping } from './payment-fixture.ts';
import { FakeGraph } from '../fake-graph.ts';
import {
  VERIFICATION_MAIL_JOB,
  VERIFICATION_RULES,
  Verifications,
} from '../../server/services/email-verifications/verifications.ts';

/*
 * The API's reference against the API itself (decision 058): for a visitor, a member, an editor, an
 * admin and a user of the apps, every operation their document lists is called for real, with their
 * own token, and every operation another caller's document lists but theirs does not is refused to
 * them. The status and the body
 * that come back must be ones the document gives for it, the body valid by its schema (JSON Schema
 * 2020-12, with formats). Each create sends the document's own example and must make its record
 * (201), which is then read, patched with the patch's example and removed (200 each); what the
 * caller cannot remove is removed inside the server. And every registered service is in some
 * caller's document, or left out with a reason.
 */

type Operation = {
  operationId: string;
  parameters?: { name?: string; in?: string; $ref?: string }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown } | undefined> }>;
  'x-feathers'?: { service: string; method: string };
};

/** A 1×1 PNG, the smallest picture an upload accepts. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Operations whose example is not sent (`method service`), with the reason: what they do would leave
 * the machine, or needs what no test server has. Their error answers are still checked, with an empty
 * body. None now: payments go to the test server's sandbox gateway, posts to its local Facebook
 * provider, a page's posts come from a stand-in Graph API, mail to the outbox.
 */
const NOT_SENT: Readonly<Record<string, string>> = {};

/** What a valid request needs beyond its example: a real record's id, a real account's password. */
/** Who calls: each caller of the permission matrix, with a token of their own where they sign in. */
type Caller = 'anonymous' | 'member' | 'editor' | 'admin' | 'appUser';

type RealValues = (context: {
  /** The example as the document gives it, with its references filled in. */
  example: Record<string, unknown>;
  existing: (service: string, query?: Record<string, unknown>) => Promise<string | undefined>;
  /** Makes a record inside the server for the request to name; removed after the caller's calls. */
  make: (service: EntityName, data: Record<string, unknown>) => Promise<string>;
  device: (push?: boolean) => Promise<{ deviceId: string; secret: string }>;
  server: RunningServer;
  caller: Caller;
  member: { email: string; password: string };
  appUser: { email: string; password: string };
  /** The caller's own account, where they sign in with a password: its email follows a change. */
  self: { email: string; password: string } | undefined;
  /** The caller's orders and plans, paid through the test server's sandbox gateway. */
  paid: PaidPlans;
  /** The stand-in for Facebook's Graph API that the test server reads a page's posts from. */
  graph: FakeGraph;
}) => Promise<Record<string, unknown>> | Record<string, unknown>;
const REAL_VALUES: Readonly<Record<string, RealValues>> = {
  'create authentication': ({ member }) => ({ email: member.email, password: member.password }),
  'create appAuthentication': ({ appUser }) => ({ email: appUser.email, password: appUser.password }),
  // An app user changes their own address with their password.
  'patch appUsers': ({ caller, appUser }) => (caller === 'appUser' ? { currentPassword: appUser.password } : {}),
  // A plan with a price (an enterprise plan is quoted by hand).
  'create quotes': async ({ existing }) => ({ plan: await existing('appTemplates', { type: 'lite' }) }),
  'create exports': () => ({ source: 'industries', columns: ['name'] }),
  // Changing one's own address takes one's password; a new address each time, as addresses are unique.
  'patch users': ({ caller, self }) => {
    if (caller === 'admin' || !self) return {};
    self.email = uniqueEmail(`reference-${caller}`);
    return { email: self.email, currentPassword: self.password };
  },
  // Resets are limited per address asked for: each caller asks for its own.
  'create passwordResets': ({ caller }) => ({ email: uniqueEmail(`reference-reset-${caller}`) }),
  'create appPasswordResets': ({ caller }) => ({ email: uniqueEmail(`reference-app-reset-${caller}`) }),
  // A priced plan again, shipped on the first day on offer, under a key of this order's own.
  'create orders': async ({ existing, example }) => {
    const shipping = example.shipping as { country: ShippingCountry };
    return {
      plan: await existing('appTemplates', { type: 'lite' }),
      shipping: { ...shipping, shippingDate: deliveryDates(shipping.country)[0] },
      idempotencyKey: `reference-${randomUUID()}`,
    };
  },
  // An ad's id as a pick signs it for the apps.
  'create adReports': async ({ existing, device }) => ({
    ad: signAdId(testConfig().appSecret, (await existing('ads')) ?? '', null),
    ...(await device()),
  }),
  'create pushReceipts': async ({ existing, device }) => ({
    message: await existing('pushMessages'),
    ...(await device()),
  }),
  // A test send goes to the message's test device, through the test server's local push provider.
  'create pushSends': async ({ make, device, server }) => {
    const { deviceId } = await device(true);
    const row = (await server.database.knex('app_devices').where('device_id', deviceId).first('id')) as { id: string };
    return { message: await make('pushMessages', { title: { en: 'Test' }, body: { en: 'Test' }, device: row.id }) };
  },
  // An unpaid order of the caller's own, paid with a card the sandbox gateway has just tokenized.
  'create payments': async ({ paid }) => {
    const order = await paid.order();
    return {
      order: order._id,
      paymentMethodId: await paid.card(),
      billingAddress,
      idempotencyKey: `reference-${randomUUID()}`,
      expectedTotal: order.total,
    };
  },
  // The caller's paid plan gets another card, then is stopped at the end of its term.
  'create cardChanges': async ({ paid }) => ({
    subscription: (await paid.plan('changes')).subscription,
    paymentMethodId: await paid.card(),
  }),
  'create subscriptionChanges': async ({ paid }) => ({
    subscription: (await paid.plan('changes')).subscription,
    action: 'cancel',
  }),
  // A plan inside its minimum term ends now for its fee, charged on its card on file.
  'create terminations': async ({ paid }) => ({ subscription: (await paid.plan('termination')).subscription }),
  // A device of a module that comes with the caller's paid plan (Flexi's kitchen screen).
  'create devices': async ({ paid, server }) => {
    const { subscription } = await paid.plan('changes');
    const { knex } = server.database;
    const row = (await knex('subscriptions').where('id', subscription).first('modules')) as {
      modules: { id: string }[];
    };
    const keys = (await knex('modules')
      .whereIn(
        'id',
        row.modules.map((module) => module.id),
      )
      .select('id', 'key')) as { id: string; key: string | null }[];
    return { module: keys.find((module) => appDefinition(module.key).devicePrefix !== null)?.id };
  },
  // Staff deliver a paid order: the caller's own, paid a moment ago.
  'create fulfilments': async ({ paid }) => ({ order: (await paid.plan('fulfilment')).order }),
  // The page's posts from the Graph API (the test server's is a stand-in): one empty page of them.
  'create facebook': ({ graph }) => {
    graph.answerNext({ status: 200, body: { data: [], paging: {} } });
    return { source: 'graph' };
  },
  // A published item whose post failed is posted again, through the test server's local provider.
  'create facebookPosts': async ({ server }) => ({ news: await failedPost(server) }),
  // A mail whose last attempt failed (what the queue writes then); sent again, its job finds no open code and skips.
  'create mailRetries': async ({ server }) => ({ delivery: await failedDelivery(server) }),
  // Anyone holding a mailed link verifies its account: a new unverified account's link, for every caller
  // (a code proves only the signed-in account's own address, and a caller here is verified or an app user).
  'create emailVerifications': async ({ server }) => ({ code: undefined, token: await verificationLink(server) }),
};

/** What the payments' operations are sent with: the caller's orders, cards and paid plans. */
interface PaidPlans {
  /** A new unpaid order of the caller's (Flexi, twelve months ahead). */
  order: () => Promise<{ _id: string; total: number }>;
  /** A card tokenized by the sandbox gateway, as the card fields of the purchase page do. */
  card: () => Promise<string>;
  /** A plan of the caller's, paid by card (its order and subscription): one for each use. */
  plan: (use: 'changes' | 'termination' | 'fulfilment') => Promise<{ order: string; subscription: string }>;
}

/** A news item published, whose post to the company's Facebook page failed (as its job leaves it). */
async function failedPost(server: RunningServer): Promise<string> {
  const item = (await untypedService(server.api, 'news').create({
    title: { en: 'Pickup orders are here' },
    content: { en: '<p>Order ahead and skip the queue.</p>' },
    region: 'hk',
    status: 'draft',
  })) as { _id: string };
  await server.database
    .knex('news')
    .where('id', item._id)
    .update({ status: 'published', post_to_facebook: true, facebook_status: 'failed', facebook_error: 'timed out' });
  return item._id;
}

/** A `mailDeliveries` row in `failed`, as the queue leaves a mail after its last attempt. */
async function failedDelivery(server: RunningServer): Promise<string> {
  const id = newId();
  const now = new Date();
  await server.database.knex('mail_deliveries').insert({
    id,
    kind: VERIFICATION_MAIL_JOB,
    recipient: uniqueEmail('reference-failed'),
    state: 'failed',
    attempts: 3,
    last_error: 'connect ECONNREFUSED',
    job_id: randomUUID(),
    job_data: JSON.stringify({ verification: newId(), sealed: '' }),
    created_at: now,
    updated_at: now,
  });
  return id;
}

/** A new unverified account and the token of the link its verification mail would carry. */
async function verificationLink(server: RunningServer): Promise<string> {
  const { knex } = server.database;
  const account = await createAccount(knex, { label: 'reference-verify', verified: false });
  const token = randomBytes(32).toString('base64url');
  const hashes = new Verifications({
    knex,
    jobs: undefined as never,
    secret: testConfig().appSecret,
    clock: () => () => new Date(),
  });
  const now = new Date();
  await knex('email_verifications').insert({
    id: newId(),
    user_id: account._id,
    email: account.email,
    reason: 'registration',
    code_hash: hashes.codeHash(account._id, account.email, '000000'),
    token_hash: hashes.tokenHash(token),
    attempts: 0,
    created_at: now,
    expires_at: new Date(now.getTime() + VERIFICATION_RULES.ttlMs),
  });
  return token;
}

/** What a described service's create makes beside its answer, removed after it (a registration's account). */
const MADE_BESIDE: Readonly<Record<string, (body: Record<string, unknown>, server: RunningServer) => Promise<void>>> = {
  registrations: async (body, server) => {
    const users = untypedService(server.api, 'users');
    const page = (await users.find({ query: { email: body.email, $limit: 5 } })) as { data: { _id: string }[] };
    for (const user of page.data) await users.remove(user._id);
  },
};

let nextAddress = 1;
const address = () => `10.58.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe.skipIf(skipReason)('the API reference (OpenAPI)', () => {
  let server: RunningServer;
  const tokens: Record<Caller, string | undefined> = {
    anonymous: undefined,
    member: undefined,
    editor: undefined,
    admin: undefined,
    appUser: undefined,
  };
  const appUser = { email: uniqueEmail('reference-app'), password: 'Kowloon2026' };
  const member = { email: '', password: '' };
  /** Each caller's own account (its id, for what a caller may change of its own only). */
  const accounts: Partial<Record<Caller, { _id: string; email: string; password: string }>> = {};
  /** Each caller's document, read before any run signs its caller out. */
  const documents: Partial<Record<Caller, OpenApiDocument>> = {};
  /** The operations each caller's run left unsent (`NOT_SENT`), to hold that list to real ones. */
  const unsentAnywhere: string[] = [];

  async function call(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    const multipart = options.body instanceof FormData;
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        'x-forwarded-for': address(),
        ...(options.body !== undefined && !multipart ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      ...(options.body === undefined
        ? {}
        : { body: multipart ? (options.body as FormData) : JSON.stringify(options.body) }),
    });
    // Files (PDF, CSV, pictures) are read as bytes; everything else is JSON.
    const json = (response.headers.get('content-type') ?? '').includes('json');
    const text = json ? await response.text() : '';
    if (!json) await response.arrayBuffer();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as unknown) : undefined,
      headers: response.headers,
    };
  }

  /** A new installation of the apps, with the secret its reports are signed with. */
  async function registerDevice(push = false): Promise<{ deviceId: string; secret: string }> {
    const deviceId = `reference-${randomUUID()}`;
    const answer = await call('POST', '/api/appDevices', {
      body: { deviceId, platform: 'android', ...(push ? { pushEnabled: true, pushToken: `token-${deviceId}` } : {}) },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return { deviceId, secret: (answer.body as { secret: string }).secret };
  }

  /** Each caller's paid plans, made the first time a request needs one (each is a real payment). */
  const plans = new Map<string, Promise<{ order: string; subscription: string }>>();
  function paidPlans(caller: Caller): PaidPlans {
    const account = accounts[caller];
    const params = () => asRest({ _id: account?._id ?? '', role: caller as 'member' | 'editor' | 'admin' });
    const flexi = async () =>
      (await existingId('appTemplates', new Map(), { key: 'restaurant-flexi' })) ?? 'no-flexi-plan';
    const paid: PaidPlans = {
      order: async () =>
        typedService(server.api, 'orders').create(
          {
            plan: await flexi(),
            addOns: [],
            prepaidMonths: 12,
            shipping: shipping(),
            idempotencyKey: `reference-${randomUUID()}`,
          },
          params(),
        ),
      card: async () => {
        const sandbox = server.paymentSandbox?.sandbox;
        if (!sandbox) throw new Error('the test server has no sandbox gateway');
        const card = { number: CARDS.success, expMonth: 12, expYear: 2034, cvc: '123' };
        return (await sandbox.tokenize(card)).paymentMethodId;
      },
      plan: (use) => {
        const key = `${caller} ${use}`;
        let plan = plans.get(key);
        if (!plan) {
          plan = (async () => {
            const order = await paid.order();
            const payment = await typedService(server.api, 'payments').create(
              {
                order: order._id,
                paymentMethodId: await paid.card(),
                billingAddress,
                idempotencyKey: `reference-${randomUUID()}`,
                expectedTotal: order.total,
              },
              params(),
            );
            expect(payment.status).toBe('succeeded');
            const { knex } = server.database;
            const row = (await knex('subscriptions').where('order_id', order._id).first()) as {
              id: string;
              contract_start: Date;
              billing_anchor_day: number;
              prepaid_months: number;
              period: 'monthly' | 'annual';
            };
            // Twelve months paid ahead of a two-year term (as a plan arranged with staff has): a fee is left to pay.
            if (use === 'termination') {
              const terms = {
                start: dayOf(row.contract_start),
                anchorDay: row.billing_anchor_day,
                prepaidMonths: row.prepaid_months,
                contractMonths: 24,
                period: row.period,
              };
              await knex('subscriptions')
                .where('id', row.id)
                .update({ contract_months: 24, contract_end: startOfDay(contractEnd(terms)) });
            }
            return { order: order._id, subscription: row.id };
          })();
          plans.set(key, plan);
        }
        return plan;
      },
    };
    return paid;
  }

  /** An existing record's id, for an example that names one: the caller's list's, else any. */
  async function existingId(
    service: string,
    ids: Map<string, string>,
    query: Record<string, unknown> = {},
  ): Promise<string | undefined> {
    const known = Object.keys(query).length === 0 ? ids.get(service) : undefined;
    if (known) return known;
    if (!Object.hasOwn(entities, service)) return undefined;
    const page = (await untypedService(server.api, service as EntityName).find({ query: { ...query, $limit: 1 } })) as {
      data?: { _id?: unknown }[];
    };
    const id = page.data?.[0]?._id;
    return typeof id === 'string' ? id : undefined;
  }

  /**
   * A create's or patch's example as it is sent: each field the schema marks as a reference (`x-ref`)
   * names an existing record of that service, and a service whose valid request needs more than the
   * document can know (a real record, a real password) takes it from `REAL_VALUES`.
   */
  async function withReferences(
    document: OpenApiDocument,
    schema: unknown,
    example: unknown,
    service: string,
    method: string,
    caller: Caller,
    ids: Map<string, string>,
    made: [EntityName, string][],
  ): Promise<unknown> {
    if (typeof example !== 'object' || example === null || Array.isArray(example)) return example;
    const body = structuredClone(example) as Record<string, unknown>;
    const own = schema as { $ref?: string; properties?: Record<string, { 'x-ref'?: string; type?: unknown }> };
    const resolved = own.$ref ? (document.components.schemas[own.$ref.split('/').pop() ?? ''] as typeof own) : own;
    for (const [name, property] of Object.entries(resolved.properties ?? {})) {
      const ref = property['x-ref'];
      if (!ref || !(name in body)) continue;
      const id = await existingId(ref, ids);
      body[name] = property.type === 'array' ? (id ? [id] : []) : id;
    }
    const real = await REAL_VALUES[`${method} ${service}`]?.({
      example: body,
      existing: (one, query) => existingId(one, ids, query),
      make: async (one, data) => {
        const record = (await untypedService(server.api, one).create(data)) as { _id: string };
        made.push([one, record._id]);
        return record._id;
      },
      device: registerDevice,
      server,
      caller,
      member,
      appUser,
      self: caller === 'member' ? member : accounts[caller],
      paid: paidPlans(caller),
      graph,
    });
    return { ...body, ...real };
  }

  async function documentFor(token: string | undefined): Promise<OpenApiDocument> {
    const { status, body } = await call('GET', '/api/openapi.json', { token });
    expect(status).toBe(200);
    return body as OpenApiDocument;
  }

  const graph = new FakeGraph();

  beforeAll(async () => {
    // A Facebook page to import from, read from the stand-in Graph API; posts go to the local provider.
    await graph.start();
    const { facebook } = testConfig();
    server = await startTestServer({
      trustProxy: 'loopback',
      facebook: { ...facebook, provider: 'local', graphUrl: graph.url, page: { id: 'tillpoint', token: 'page-token' } },
    });
    const admin = await createAccount(server.database.knex, { role: 'admin', label: 'reference-admin' });
    tokens.admin = await accessTokenOf(server.url, admin, address());
    Object.assign(member, await createAccount(server.database.knex, { role: 'member', label: 'reference-member' }));
    tokens.member = await accessTokenOf(server.url, member, address());
    accounts.member = member as typeof member & { _id: string };
    accounts.editor = await createAccount(server.database.knex, { role: 'editor', label: 'reference-editor' });
    tokens.editor = await accessTokenOf(server.url, accounts.editor, address());
    accounts.admin = admin;
    const created = await call('POST', '/api/appUsers', {
      body: { name: 'Chan Tai Man', email: appUser.email, password: appUser.password },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const signedIn = await call('POST', '/api/appAuthentication', {
      body: { strategy: 'local', email: appUser.email, password: appUser.password },
    });
    expect(signedIn.status).toBe(201);
    tokens.appUser = (signedIn.body as { accessToken: string }).accessToken;
    accounts.appUser = { ...appUser, _id: (created.body as { _id: string })._id };
    for (const caller of Object.keys(tokens) as Caller[]) documents[caller] = await documentFor(tokens[caller]);
  });
  afterAll(async () => {
    await server?.close();
    await graph.stop();
  });

  it('serves the document with an ETag, and answers 304 to a client that holds it', async () => {
    const first = await call('GET', '/api/openapi.json');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toContain('no-cache');
    const again = await fetch(`${server.url}/api/openapi.json`, { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
    const refused = await call('GET', '/api/openapi.json', { token: 'not-a-token' });
    expect(refused.status).toBe(401);
  });

  it('reads the site’s session cookie where no token is sent, as the reference page’s renderer asks', async () => {
    const cookie = (token: string) => ({ cookie: `${sessionCookieName(false)}=${token}` });
    const paths = (answer: { body: unknown }) => Object.keys((answer.body as OpenApiDocument).paths);
    const staff = await call('GET', '/api/openapi.json', { headers: cookie(tokens.admin ?? '') });
    expect(staff.status).toBe(200);
    expect(paths(staff)).toContain('/api/auditLogs');
    expect(staff.headers.get('cache-control')).toBe('private, no-cache');
    expect(staff.headers.get('vary')).toMatch(/Authorization, Cookie/);
    // A session that no longer verifies is a visitor's, as on the pages; a token sent is still checked.
    const stale = await call('GET', '/api/openapi.json', { headers: cookie('not-a-token') });
    expect(stale.status).toBe(200);
    expect(paths(stale)).not.toContain('/api/auditLogs');
    const both = await call('GET', '/api/openapi.json', { token: 'not-a-token', headers: cookie(tokens.admin ?? '') });
    expect(both.status).toBe(401);
  });

  it('shows a visitor only what a visitor may call, and staff the staff’s services', async () => {
    const anonymous = await documentFor(undefined);
    const admin = await documentFor(tokens.admin);
    const app = await documentFor(tokens.appUser);
    for (const def of Object.values(entities)) {
      const listed = (doc: OpenApiDocument) => doc.paths[`/api/${def.service}`]?.get !== undefined;
      expect(listed(anonymous), `${def.service} find, anonymous`).toBe(allows(def.access.find, 'anonymous'));
      expect(listed(admin), `${def.service} find, admin`).toBe(allows(def.access.find, 'admin'));
      expect(listed(app), `${def.service} find, appUser`).toBe(allows(def.access.find, 'appUser'));
    }
    expect(Object.keys(anonymous.paths)).not.toContain('/api/auditLogs');
    expect(Object.keys(admin.paths)).toContain('/api/auditLogs');
    expect(anonymous.components.securitySchemes).toMatchObject({
      memberToken: { scheme: 'bearer' },
      appUserToken: { scheme: 'bearer' },
    });
  });

  it('describes every registered service, or leaves it out with a reason', async () => {
    const documents = await Promise.all([undefined, tokens.admin, tokens.appUser].map(documentFor));
    const described = new Set(
      documents.flatMap((doc) =>
        Object.values(doc.paths).flatMap((item) =>
          Object.values(item).map((op) => (op as Operation)['x-feathers']?.service),
        ),
      ),
    );
    const missing = Object.keys(server.api.services).filter((path) => {
      if (described.has(path) || Object.hasOwn(UNDESCRIBED_SERVICES, path)) return false;
      const def = (entities as Record<string, (typeof entities)[keyof typeof entities] | undefined>)[path];
      // An entity no outside caller may call (the outbox) has nothing to show anyone.
      if (def) return CALLERS.some((caller) => Object.values(def.access).some((access) => allows(access, caller)));
      return true;
    });
    expect(missing).toEqual([]);
    // Every service that is not an entity files a description beside its class.
    const undescribed = Object.keys(server.api.services).filter(
      (path) => !Object.hasOwn(entities, path) && !descriptionOf(path) && !Object.hasOwn(UNDESCRIBED_SERVICES, path),
    );
    expect(undescribed).toEqual([]);
    // The pages write the same documents from the definitions and descriptions alone.
    expect(openApiDocument(describedSources(), 'admin', { version: API_VERSION })).toEqual(documents[1]);
    expect(openApiDocument(describedSources(), 'anonymous', { version: API_VERSION })).toEqual(documents[0]);
  });

  it('describes every Express route under /api that is not a service, or leaves it out with a reason', async () => {
    type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };
    const router = (server.api as unknown as { _router?: { stack: Layer[] } })._router;
    const routes = (layers: Layer[]): string[] =>
      layers.flatMap((layer) =>
        layer.route
          ? Object.keys(layer.route.methods)
              .filter((method) => method !== '_all')
              .map((method) => `${method.toUpperCase()} /api${layer.route?.path.replace(/:(\w+)/g, '{$1}')}`)
          : layer.handle?.stack
            ? routes(layer.handle.stack)
            : [],
      );
    const found = routes(router?.stack ?? []);
    // The routes of the routers the API mounts: uploads, downloads, tickets, webhooks, this document.
    expect(found).toEqual(expect.arrayContaining(['GET /api/invoices/{id}/pdf', 'GET /api/exports/{id}/download']));
    const documents = await Promise.all([undefined, tokens.admin, tokens.appUser].map(documentFor));
    const member = await createAccount(server.database.knex, { role: 'member', label: 'reference-routes' });
    documents.push(await documentFor(await accessTokenOf(server.url, member, address())));
    const described = new Set(
      documents.flatMap((doc) =>
        Object.entries(doc.paths).flatMap(([path, item]) =>
          Object.keys(item).map((verb) => `${verb.toUpperCase()} ${path}`),
        ),
      ),
    );
    // The document itself, and `router.all` routes (socket tickets answer 405 to all but POST).
    const missing = found.filter(
      (route) =>
        !described.has(route) &&
        !Object.hasOwn(UNDESCRIBED_ROUTES, route) &&
        route !== 'GET /api/openapi.json' &&
        !(route.startsWith('ALL ') && [...described].some((one) => one.endsWith(` ${route.slice(4)}`))),
    );
    expect(missing).toEqual([]);
    // The exports' files are documented with the types the writers send.
    expect(Object.values(EXPORT_TYPES).sort()).toEqual(Object.values(CONTENT_TYPES).sort());
  });

  describe.each(['anonymous', 'member', 'editor', 'admin', 'appUser'] as const)('as %s', (caller) => {
    // Before the caller's own run, which ends by signing its token out.
    it('refuses what only other callers’ documents list', async () => {
      const token = tokens[caller];
      const operations = (doc: OpenApiDocument) =>
        Object.entries(doc.paths).flatMap(([path, item]) =>
          Object.entries(item).map(([verb, op]) => ({ key: `${verb} ${path}`, verb, path, op: op as Operation })),
        );
      const mine = new Set(operations(documents[caller] as OpenApiDocument).map(({ key }) => key));
      const theirs = new Map<string, { verb: string; path: string; op: Operation }>();
      for (const other of Object.keys(tokens) as Caller[])
        for (const one of operations(documents[other] as OpenApiDocument))
          if (!mine.has(one.key)) theirs.set(one.key, one);
      // Everyone but an admin misses some of the staff's operations.
      if (caller !== 'admin') expect(theirs.size).toBeGreaterThan(0);
      const results: string[] = [];
      for (const { verb, path, op } of theirs.values()) {
        const url = path.replace('{id}', 'no-such-record-0058').replace('{folder}', 'profile');
        let body: unknown;
        if (op.requestBody?.content['multipart/form-data']) {
          body = new FormData();
          (body as FormData).append('file', new Blob([PIXEL], { type: 'image/png' }), 'pixel.png');
        } else if (op.requestBody) body = {};
        const answer = await call(verb.toUpperCase(), url, { token, body });
        // A service refuses by its access rule: no sign-in, or not this caller's. A route that
        // serves files by id answers any other caller's request as it answers a missing file.
        const refusals = op['x-feathers'] ? [401, 403] : [401, 403, 404];
        if (!refusals.includes(answer.status))
          results.push(`${verb} ${url}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      }
      expect(results).toEqual([]);
    }, 60_000);

    it('every operation listed answers as the document says', async () => {
      const token = tokens[caller];
      const document = await documentFor(token);
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      const validators = new Map<string, ValidateFunction>();
      const validatorFor = (schema: unknown, key: string) => {
        let validate = validators.get(key);
        if (!validate) {
          // The schema beside the document's components, so its `#/components/...` references resolve.
          validate = ajv.compile({ ...(schema as object), components: document.components });
          validators.set(key, validate);
        }
        return validate;
      };
      const ids = new Map<string, string>();
      const created = new Map<string, string>();
      const othersOnly = new Set<string>();
      const made: [EntityName, string][] = [];
      const unsent = new Set<string>();
      const results: string[] = [];
      const trace: string[] = [];
      const ordered = Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([verb, op]) => ({ path, verb, op: op as Operation })),
      );
      const serviceOf = (path: string, op: Operation) => op['x-feathers']?.service ?? path.split('/')[2] ?? '';
      // Lists first (their ids serve references), then each service's record from create to remove,
      // sign-outs last.
      const rank = ({ verb, path }: { verb: string; path: string }) =>
        verb === 'get' && !path.includes('{id}') ? 0 : /Authentication$/i.test(path) && verb === 'delete' ? 2 : 1;
      const step = ({ verb, path }: { verb: string; path: string }) =>
        (({ post: 0, get: 1, patch: 2, delete: 3 })[verb] ?? 0) + (path.includes('{id}/') ? 0.5 : 0);
      ordered.sort(
        (a, b) =>
          rank(a) - rank(b) ||
          (rank(a) === 1 ? serviceOf(a.path, a.op).localeCompare(serviceOf(b.path, b.op)) : 0) ||
          step(a) - step(b),
      );
      try {
        for (const { path, verb, op } of ordered) {
          const service = serviceOf(path, op);
          const mine = created.get(service);
          const def = (entities as Record<string, EntityDef | undefined>)[service];
          // Where a caller changes only their own account (`owner` is the record itself), their own.
          const population = caller === 'appUser' ? 'appUsers' : 'users';
          const self =
            verb === 'patch' &&
            def?.owner?.field === '_id' &&
            (def.owner.of ?? 'users') === population &&
            !(def.owner.allRows.write as readonly string[]).includes(caller)
              ? accounts[caller]?._id
              : undefined;
          // Our own record where the caller may create one; else one the list showed (a setting).
          const creates = document.paths[`/api/${service}`]?.post !== undefined && !othersOnly.has(service);
          const id =
            self ??
            mine ??
            (verb === 'delete' || creates ? 'no-such-record-0058' : (ids.get(service) ?? 'no-such-record-0058'));
          let url = path.replace('{id}', encodeURIComponent(id)).replace('{folder}', 'profile');
          if (caller === 'admin' || caller === 'editor') url = url.replace('/upload/profile', '/upload/general');
          let body: unknown;
          const json = op.requestBody?.content['application/json'] as
            { schema: unknown; example?: unknown } | undefined;
          const method = op['x-feathers']?.method;
          const notSent = method ? NOT_SENT[`${method} ${service}`] : undefined;
          if (json && (method === 'create' || method === 'patch') && !('example' in json))
            results.push(`${verb} ${path}: no example of its request`);
          if (notSent) unsent.add(`${method} ${service}`);
          // The example is sent as the document gives it, with real records where it names them.
          const example =
            json !== undefined && 'example' in json && !notSent && (verb === 'post' || id !== 'no-such-record-0058');
          if (op.requestBody?.content['multipart/form-data']) {
            const form = new FormData();
            form.append('file', new Blob([PIXEL], { type: 'image/png' }), 'pixel.png');
            body = form;
          } else if (json && example) {
            body = await withReferences(document, json.schema, json.example, service, method ?? '', caller, ids, made);
            const request = validatorFor(json.schema, `${path} ${verb} request`);
            if (!request(json.example))
              results.push(`${verb} ${path}: its example is not valid (${ajv.errorsText(request.errors)})`);
          } else if (json) body = {};
          if (verb === 'get' && !path.includes('{id}')) url += '?$limit=2';
          const started = Date.now();
          const answer = await call(verb.toUpperCase(), url, { token, body });
          if (verb === 'get' && !path.includes('{id}') && answer.status === 200) {
            const first = (answer.body as { data?: { _id?: unknown }[] }).data?.[0]?._id;
            if (typeof first === 'string') ids.set(service, first);
          }
          if (process.env.OPENAPI_TRACE)
            trace.push(`${caller} ${verb} ${url} ${answer.status} ${Date.now() - started} ms`);
          // A record made from the example, or one of ours read, changed or removed, is a success.
          const success = Object.keys(op.responses).find((status) => /^2\d\d$/.test(status));
          const expectsSuccess = example || (mine !== undefined && (verb === 'get' || verb === 'delete'));
          if (expectsSuccess && String(answer.status) !== success)
            results.push(
              `${verb} ${url}: ${answer.status}, not ${success}, for ${JSON.stringify(body)}: ${JSON.stringify(answer.body).slice(0, 300)}`,
            );
          if (verb === 'post' && method === 'create' && answer.status === 201) {
            const record = (answer.body as { _id?: unknown } | undefined)?._id;
            // An account made by someone who is not staff (an app user signing another up) is that
            // account's own: its maker never reads it, so it goes at once and the caller's own is used.
            const ownOnly =
              def?.owner?.field === '_id' && !(def.owner.allRows.read as readonly string[]).includes(caller);
            if (typeof record === 'string' && def) {
              if (ownOnly) {
                await untypedService(server.api, service as EntityName).remove(record);
                othersOnly.add(service);
              } else created.set(service, record);
            }
            await MADE_BESIDE[service]?.(body as Record<string, unknown>, server);
          }
          if (verb === 'delete' && mine !== undefined && answer.status === 200) created.delete(service);
          const response = op.responses[String(answer.status)];
          if (!response) {
            results.push(`${verb} ${url}: ${answer.status} is not documented (${JSON.stringify(answer.body)})`);
            continue;
          }
          const resolved = response.$ref
            ? (document.components.responses as Record<string, typeof response>)[response.$ref.split('/').pop() ?? '']
            : response;
          const type = (answer.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
          const content = resolved?.content ?? {};
          // A file: its type must be one the operation documents (a wildcard such as `image/*` too).
          if (type && !type.includes('json') && answer.status < 300) {
            const documented = Object.keys(content).some(
              (one) => one.split(';')[0] === type || (one.endsWith('/*') && type.startsWith(one.slice(0, -1))),
            );
            if (!documented) results.push(`${verb} ${url}: ${answer.status} answered ${type}, not documented`);
            continue;
          }
          const schema = content['application/json']?.schema;
          if (!schema) {
            results.push(`${verb} ${url}: ${answer.status} has no schema`);
            continue;
          }
          const validate = validatorFor(schema, `${path} ${verb} ${answer.status}`);
          if (!validate(answer.body))
            results.push(
              `${verb} ${url}: ${answer.status} ${ajv.errorsText(validate.errors)} in ${JSON.stringify(answer.body).slice(0, 300)}`,
            );
          if ((answer.status === 429 || answer.status === 503) && !answer.headers.get('retry-after'))
            results.push(`${verb} ${url}: ${answer.status} without Retry-After`);
        }
      } finally {
        // What this caller made and did not remove itself is removed inside the server, the last
        // made first (a record made later may name one made before it, or one made for a request).
        for (const [service, record] of [...[...created].reverse(), ...[...made].reverse()])
          await untypedService(server.api, service as EntityName).remove(record);
      }
      if (process.env.OPENAPI_TRACE) console.error(trace.join('\n'));
      expect(ordered.length).toBeGreaterThan(10);
      expect(results).toEqual([]);
      unsentAnywhere.push(...unsent);
      // An admin's document lists about 200 operations: each is a real call, so more than the default time.
    }, 90_000);
  });

  it('names only operations that exist among those whose example is not sent', () => {
    expect(new Set(unsentAnywhere)).toEqual(new Set(Object.keys(NOT_SENT)));
  });

  it('signs in the way the document says', async () => {
    const { status, body } = await call('POST', '/api/authentication', { body: { strategy: 'local', ...ADMIN } });
    expect(status).toBe(201);
    expect(body).toMatchObject({ accessToken: expect.any(String), user: { email: ADMIN.email } });
  });
});
