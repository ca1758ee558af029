import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../../domain/entities/index.ts';
import { CALLERS, allows } from '../../domain/admin/access.ts';
import { API_VERSION, describedSources, openApiDocument, type OpenApiDocument } from '../../server/openapi/document.ts';
import { descriptionOf, UNDESCRIBED_ROUTES, UNDESCRIBED_SERVICES } from '../../server/openapi/registry.ts';
import { CONTENT_TYPES } from '../../server/services/exports/writers.ts';
import { EXPORT_TYPES } from '../../server/openapi/document.ts';
import type { RunningServer } from '../../server/server.ts';
import { ADMIN, accessTokenOf, createAccount, skipReason, startTestServer, uniqueEmail } from './harness.ts';

/*
 * The API's reference against the API itself (decision 058): for a visitor, an admin and a user of
 * the apps, every operation their document lists is called for real, and the status and the body
 * that come back must be ones the document gives for it, the body valid by its schema (JSON Schema
 * 2020-12, with formats). And every registered service is in some caller's document, or left out
 * with a reason.
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

let nextAddress = 1;
const address = () => `10.58.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe.skipIf(skipReason)('the API reference (OpenAPI)', () => {
  let server: RunningServer;
  const tokens: Record<'anonymous' | 'admin' | 'appUser', string | undefined> = {
    anonymous: undefined,
    admin: undefined,
    appUser: undefined,
  };
  const appUser = { email: uniqueEmail('reference-app'), password: 'Kowloon2026' };

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

  async function documentFor(token: string | undefined): Promise<OpenApiDocument> {
    const { status, body } = await call('GET', '/api/openapi.json', { token });
    expect(status).toBe(200);
    return body as OpenApiDocument;
  }

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    const admin = await createAccount(server.database.knex, { role: 'admin', label: 'reference-admin' });
    tokens.admin = await accessTokenOf(server.url, admin, address());
    const created = await call('POST', '/api/appUsers', {
      body: { name: 'Chan Tai Man', email: appUser.email, password: appUser.password },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const signedIn = await call('POST', '/api/appAuthentication', {
      body: { strategy: 'local', email: appUser.email, password: appUser.password },
    });
    expect(signedIn.status).toBe(201);
    tokens.appUser = (signedIn.body as { accessToken: string }).accessToken;
  });
  afterAll(async () => {
    await server?.close();
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

  describe.each(['anonymous', 'admin', 'appUser'] as const)('as %s', (caller) => {
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
      const results: string[] = [];
      const trace: string[] = [];
      const ordered = Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([verb, op]) => ({ path, verb, op: op as Operation })),
      );
      // Reads first (their ids serve the calls by id), writes next, sign-outs last.
      const rank = ({ verb, path }: { verb: string; path: string }) =>
        (verb === 'get' && !path.includes('{id}') ? 0 : verb === 'get' ? 1 : verb === 'delete' ? 3 : 2) +
        (/Authentication$/i.test(path) && verb === 'delete' ? 10 : 0);
      ordered.sort((a, b) => rank(a) - rank(b));
      for (const { path, verb, op } of ordered) {
        const service = op['x-feathers']?.service ?? path.split('/')[2] ?? '';
        const known = ids.get(service);
        const id = verb === 'delete' ? 'no-such-record-0058' : (known ?? 'no-such-record-0058');
        let url = path.replace('{id}', encodeURIComponent(id)).replace('{folder}', 'profile');
        if (caller === 'admin') url = url.replace('/upload/profile', '/upload/general');
        let body: unknown;
        if (op.requestBody?.content['multipart/form-data']) {
          const form = new FormData();
          form.append('file', new Blob([PIXEL], { type: 'image/png' }), 'pixel.png');
          body = form;
        } else if (op.requestBody) body = {};
        if (verb === 'get' && !path.includes('{id}')) url += '?$limit=2';
        const answer = await call(verb.toUpperCase(), url, { token, body });
        if (verb === 'get' && !path.includes('{id}') && answer.status === 200) {
          const first = (answer.body as { data?: { _id?: unknown }[] }).data?.[0]?._id;
          if (typeof first === 'string') ids.set(service, first);
        }
        if (process.env.OPENAPI_TRACE) trace.push(`${caller} ${verb} ${url} ${answer.status}`);
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
      if (process.env.OPENAPI_TRACE) console.error(trace.join('\n'));
      expect(ordered.length).toBeGreaterThan(10);
      expect(results).toEqual([]);
    });
  });

  it('signs in the way the document says', async () => {
    const { status, body } = await call('POST', '/api/authentication', { body: { strategy: 'local', ...ADMIN } });
    expect(status).toBe(201);
    expect(body).toMatchObject({ accessToken: expect.any(String), user: { email: ADMIN.email } });
  });
});
