import { z } from '../../domain/zod.ts';
import { allows, type Caller } from '../../domain/admin/access.ts';
import { entities } from '../../domain/entities/index.ts';
import { i18nTextSchema, type Access, type EntityDef, type FieldDef } from '../../domain/entities/types.ts';
import { ATTACHMENT_FOLDERS } from '../../domain/uploads/limits.ts';
import { APP_AUTHENTICATION_PATH } from '../auth/app-users.ts';
import { RECORD_ID } from '../db/ids.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../services/entity/query.ts';
import { exampleOf, patchExampleOf, type Resolve } from './examples.ts';
import {
  describedServices,
  descriptionOf,
  entityRequestsOf,
  type JsonSchema,
  type SchemaSource,
  type StandardMethod,
} from './registry.ts';

/*
 * The API's reference (decision 058): an OpenAPI 3.1 document written from the entity definitions
 * and the descriptions the other services file beside their classes (registry.ts), for one caller:
 * what a visitor reads is what a visitor may call, and staff read the staff's services too. Nothing
 * here lists a service by hand; a new definition or a new described service appears on its own.
 */

/** The services as the document reads them: their paths, and the methods each offers. */
export interface ServiceSource {
  path: string;
  methods: readonly string[];
}

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: JsonSchema;
  paths: Record<string, Record<string, unknown>>;
  components: JsonSchema & { schemas: Record<string, JsonSchema> };
  [key: string]: unknown;
};

/** The API's version as its reference names it: the product's. */
export const API_VERSION = '0.1.0';

const STANDARD: readonly StandardMethod[] = ['find', 'get', 'create', 'patch', 'remove'];
const API = '/api';
export const SOCKET_PATH_FOR_REFERENCE = '/api/socket.io';
/** The header that names a custom method on a `POST` (Feathers' REST transport). */
export const METHOD_HEADER = 'X-Service-Method';

const ERROR_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'NotAuthenticated',
  402: 'PaymentError',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Unprocessable',
  429: 'TooManyRequests',
  500: 'GeneralError',
  503: 'Unavailable',
};

const ERROR_WORDS: Record<number, string> = {
  400: 'The request or its data is not valid; `errors` names each field refused.',
  401: 'No valid token was sent where one is needed, or the token sent is not valid any more.',
  402: 'A payment was refused.',
  403: 'The caller may not do this.',
  404: 'No such record, or none the caller may see.',
  405: 'The method is not offered.',
  409: 'The record is not in a state that allows it.',
  410: 'The link or record is gone.',
  413: 'The body is too large.',
  415: 'The body is not JSON (or, for uploads, not multipart).',
  422: 'The `Idempotency-Key` was used before for another request.',
  429: 'Too many requests: wait the seconds `Retry-After` says.',
  500: 'An unexpected error; its cause is logged, never sent.',
  503: 'The database or a provider is away: try again after `Retry-After` seconds.',
};

/** Statuses every call may give. */
const EVERY_CALL = [400, 401, 403, 429, 500, 503] as const;

/** The exports' files (the exports' writers say the same: the conformance test holds them together). */
export const EXPORT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** A zod schema as JSON Schema 2020-12, without its `$schema` (the document says the dialect once). */
function fromZod(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** One written value of a field, as JSON carries it; a reference names its service (`x-ref`). */
function valueJson(field: FieldDef, io: 'input' | 'output'): JsonSchema {
  const json = ownValueJson(field, io);
  // A text in several languages that is not required reads as `{}` while no language is written.
  if (io === 'output' && field.kind === 'i18n' && !field.required) delete json.required;
  return field.ref && (field.kind === 'ref' || field.kind === 'list') ? { ...json, 'x-ref': field.ref } : json;
}

function ownValueJson(field: FieldDef, io: 'input' | 'output'): JsonSchema {
  if (field.kind === 'date') return { type: 'string', format: 'date-time' };
  if (field.schema) return fromZod(field.schema, io);
  switch (field.kind) {
    case 'id':
    case 'ref':
      return { type: 'string', pattern: RECORD_ID.source };
    case 'string':
      return { type: 'string', maxLength: 500 };
    case 'email':
      return { type: 'string', format: 'email', maxLength: 254 };
    case 'password':
      return { type: 'string', maxLength: 200, writeOnly: true };
    case 'integer':
      return { type: 'integer', minimum: -2_000_000_000, maximum: 2_000_000_000 };
    case 'boolean':
      return { type: 'boolean' };
    case 'i18n':
      return fromZod(i18nTextSchema, io);
    case 'enum':
      return { type: 'string', enum: [...(field.enum ?? [])] };
    case 'list':
      return { type: 'array', maxItems: 500, items: field.item ? fromZod(field.item, io) : {} };
    case 'object':
      return { type: 'object' };
    case 'day':
      return { type: 'string', format: 'date' };
  }
}

/**
 * A zod schema, by zod 4's own mark rather than `instanceof`: the pages' server bundle may hold
 * another copy of the package than the services that made the schema.
 */
function isZod(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

/** Never null when read: given on every create, or filled in by the table. */
const alwaysSet = (name: string, field: FieldDef) =>
  name === '_id' || field.required === true || field.defaulted === true;

/** Whether the caller may write the field in an outside call (`writable`), and change it after create (`patchable`). */
function writes(field: FieldDef, caller: Caller, patch: boolean): boolean {
  if (field.readonly) return false;
  const rule = patch ? (field.patchable ?? field.writable) : field.writable;
  if (!rule) return true;
  return caller !== 'anonymous' && rule.includes(caller);
}

/** What a find's query may hold, for the machine (`x-query`) and the reader. */
function queryFacts(def: EntityDef) {
  const named = (test: (field: FieldDef) => boolean) =>
    Object.entries(def.fields)
      .filter(([, field]) => !field.hidden && test(field))
      .map(([name]) => name);
  return {
    filterable: named((field) => field.filterable === true),
    sortable: named((field) => field.sortable === true),
    searchable: named((field) => field.searchable === true),
    populate: Object.keys(def.populate ?? {}),
    limit: { default: DEFAULT_LIMIT, maximum: MAX_LIMIT },
    defaultSort: def.defaultSort,
  };
}

/** Writes one caller's document; `sources` are the registered services (`app.services`). */
export function openApiDocument(
  sources: readonly ServiceSource[],
  caller: Caller,
  options: { version?: string; serverUrl?: string } = {},
): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: JsonSchema[] = [];
  const events: Record<string, JsonSchema> = {};

  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

  /** An entity's record as reads answer it, filed once. */
  const recordRef = (service: string): JsonSchema => {
    const def = (entities as Record<string, EntityDef | undefined>)[service];
    if (!def) return { type: 'object' };
    const name = pascal(service);
    if (!schemas[name]) {
      schemas[name] = { type: 'object' };
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [field, fieldDef] of Object.entries(def.fields)) {
        if (fieldDef.hidden) continue;
        const value = valueJson(fieldDef, 'output');
        properties[field] = {
          ...(alwaysSet(field, fieldDef) ? value : nullable(value)),
          ...(fieldDef.readonly ? { readOnly: true } : {}),
        };
        if (alwaysSet(field, fieldDef)) required.push(field);
      }
      schemas[name] = {
        type: 'object',
        description: `A record of \`${service}\`, as reads answer it (fields a \`$select\` leaves out are absent).`,
        required,
        properties,
      };
    }
    return ref(name);
  };

  const schemaOf = (source: SchemaSource | undefined, io: 'input' | 'output'): JsonSchema => {
    if (source === undefined) return { type: 'object' };
    if (isZod(source)) return fromZod(source, io);
    if (Array.isArray(source)) return { anyOf: source.map((one: z.ZodType) => fromZod(one, io)) };
    return resolveEntities(source as JsonSchema);
  };

  /** `{ entity: 'users' }` anywhere in a JSON Schema becomes that record's `$ref`. */
  const resolveEntities = (schema: JsonSchema): JsonSchema => {
    const entity = schema.entity;
    if (typeof entity === 'string' && Object.keys(schema).length === 1) return recordRef(entity);
    const walk = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(walk);
      if (typeof value === 'object' && value !== null) return resolveEntities(value as JsonSchema);
      return value;
    };
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, walk(value)]));
  };

  const errorResponses = (statuses: readonly number[]) =>
    Object.fromEntries(
      [...new Set(statuses)]
        .sort((a, b) => a - b)
        .map((status) => [String(status), { $ref: `#/components/responses/${status}` }]),
    );

  const security = (access: Access): JsonSchema[] => {
    if (access === 'public') return [{}, { memberToken: [] }, { appUserToken: [] }];
    const members = access === 'authenticated' || (access !== 'none' && access.some((role) => role !== 'appUser'));
    const appUsers = access !== 'authenticated' && access !== 'none' && access.includes('appUser');
    return [...(members ? [{ memberToken: [] }] : []), ...(appUsers ? [{ appUserToken: [] }] : [])];
  };

  const operation = (
    service: string,
    method: string,
    access: Access,
    details: {
      summary: string;
      description?: string;
      success: number;
      answer: JsonSchema;
      request?: JsonSchema;
      statuses: readonly number[];
      parameters?: JsonSchema[];
      /** A valid request body (decision 058): what a client may send as it is, and what the conformance test sends. */
      example?: unknown;
    },
  ) => {
    // Every `POST` takes an idempotency key (decision 041): its replays and conflicts are answers too.
    const post = method === 'create';
    const parameters = [
      ...(details.parameters ?? []),
      ...(post ? [{ $ref: '#/components/parameters/idempotencyKey' }] : []),
    ];
    return {
      operationId: `${service}${pascal(method)}`,
      tags: [service],
      summary: details.summary,
      ...(details.description ? { description: details.description } : {}),
      security: security(access),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(details.request
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: details.request,
                  ...(details.example === undefined ? {} : { example: details.example }),
                },
              },
            },
          }
        : {}),
      responses: {
        [String(details.success)]: {
          description: details.success === 201 ? 'Created.' : 'Done.',
          content: { 'application/json': { schema: details.answer } },
        },
        ...errorResponses([...EVERY_CALL, ...details.statuses, ...(post ? [409, 422] : [])]),
      },
      'x-feathers': { service, method },
    };
  };

  const idParameter = { $ref: '#/components/parameters/id' };
  const resolve: Resolve = (schema) =>
    typeof schema.$ref === 'string' && schema.$ref.startsWith('#/components/schemas/')
      ? (schemas[schema.$ref.slice('#/components/schemas/'.length)] ?? {})
      : schema;
  /** A request's example: a create's from its schema; a patch's from the create's where there is one. */
  const requestExample = (request: JsonSchema, method: string, createExample?: unknown): unknown => {
    if (method === 'create') return exampleOf(request, resolve);
    const own = resolve(request);
    if (Array.isArray(own.required) && own.required.length > 0) return exampleOf(own, resolve);
    return patchExampleOf(own, createExample, resolve);
  };

  const addEntity = (def: EntityDef) => {
    const service = def.service;
    const may = (method: StandardMethod) => allows(def.access[method], caller);
    if (!STANDARD.some(may)) return;
    const record = recordRef(service);
    const facts = queryFacts(def);
    const shaping: JsonSchema[] = [
      {
        name: '$select',
        in: 'query',
        description: 'The fields to answer (comma-separated); the id always comes.',
        style: 'form',
        explode: false,
        schema: {
          type: 'array',
          items: {
            enum: Object.entries(def.fields)
              .filter(([, f]) => !f.hidden)
              .map(([n]) => n),
          },
        },
      },
      ...(facts.populate.length > 0
        ? [
            {
              name: '$populate',
              in: 'query',
              description: 'Paths whose ids are replaced by the records they name (where the caller may read them).',
              style: 'form',
              explode: false,
              schema: { type: 'array', items: { enum: facts.populate } },
            },
          ]
        : []),
    ];
    const filters: JsonSchema[] = facts.filterable.map((name) => {
      const field = def.fields[name] as FieldDef;
      return {
        name,
        in: 'query',
        description:
          field.kind === 'list'
            ? `Records whose \`${name}\` holds the value; \`${name}[$in][]\` any of several, \`${name}[$nin][]\` none.`
            : `Equal to the value (\`null\` for empty); also \`${name}[$ne]\`, \`[$gt]\`, \`[$gte]\`, \`[$lt]\`, \`[$lte]\`, \`[$in][]\`, \`[$nin][]\`.`,
        schema: field.kind === 'list' ? {} : valueJson(field, 'output'),
      };
    });
    const findParameters: JsonSchema[] = [
      { $ref: '#/components/parameters/limit' },
      { $ref: '#/components/parameters/skip' },
      {
        name: '$sort',
        in: 'query',
        style: 'deepObject',
        explode: true,
        description: `Order by sortable fields: \`$sort[field]=1\` (ascending) or \`-1\`. Default: ${JSON.stringify(def.defaultSort)}.`,
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: Object.fromEntries(facts.sortable.map((name) => [name, { enum: [1, -1] }])),
        },
      },
      { $ref: '#/components/parameters/cursor' },
      { $ref: '#/components/parameters/countUpTo' },
      ...shaping,
      ...filters,
      ...(facts.searchable.length > 0
        ? [
            {
              name: '$or',
              in: 'query',
              style: 'deepObject',
              explode: true,
              description: `Any of several conditions; a search is \`$or[0][field][$regex]=text&$or[0][field][$options]=i\` on the searchable fields: ${facts.searchable.map((n) => `\`${n}\``).join(', ')}.`,
              schema: { type: 'object' },
            },
          ]
        : []),
    ];
    const pageName = `${pascal(service)}Page`;
    if (may('find'))
      schemas[pageName] = {
        allOf: [ref('Page'), { type: 'object', properties: { data: { type: 'array', items: record } } }],
      };
    const createName = `${pascal(service)}Create`;
    const patchName = `${pascal(service)}Patch`;
    const writable = (patch: boolean) =>
      Object.entries(def.fields).filter(([, field]) => !field.readonly && writes(field, caller, patch));
    // A service whose own rules check its create or patch with a schema of its own is described by it.
    const own = entityRequestsOf(service);
    const ownRequest = (source: SchemaSource): JsonSchema => ({
      description: `What the \`${service}\` service checks the request with.`,
      ...schemaOf(source, 'input'),
    });
    if (may('create') && own?.create) schemas[createName] = ownRequest(own.create);
    else if (may('create')) {
      const fields = writable(false);
      schemas[createName] = {
        type: 'object',
        required: fields.filter(([, field]) => field.required).map(([name]) => name),
        properties: Object.fromEntries(fields.map(([name, field]) => [name, valueJson(field, 'input')])),
      };
    }
    if (may('patch') && own?.patch) schemas[patchName] = ownRequest(own.patch);
    else if (may('patch')) {
      const fields = writable(true);
      schemas[patchName] = {
        type: 'object',
        description: 'Any writable fields; lists also take `$push`, `$pull` and positional `$set` (`modules.$.count`).',
        properties: {
          ...Object.fromEntries(
            fields.map(([name, field]) => [
              name,
              alwaysSet(name, field) ? valueJson(field, 'input') : nullable(valueJson(field, 'input')),
            ]),
          ),
          $push: { type: 'object' },
          $pull: { type: 'object' },
          $set: { type: 'object' },
        },
      };
    }
    const restricted = def.publicWhere
      ? ` Callers other than staff read only records with ${JSON.stringify(def.publicWhere)}.`
      : '';
    const owned = def.owner
      ? ' Some callers reach only their own records (the permission matrix in the README says who).'
      : '';
    const collection: Record<string, unknown> = {};
    const item: Record<string, unknown> = {};
    if (may('find'))
      collection.get = operation(service, 'find', def.access.find, {
        summary: `List ${service}`,
        description: `A page of records. Without \`$cursor\` the page counts its \`total\` (to \`$countUpTo\` at most, then \`totalCapped\`); with \`$cursor\` it is a keyset page: \`total\` is -1 and \`cursors.next\`/\`previous\` fetch the neighbours.${restricted}${owned}`,
        success: 200,
        answer: ref(pageName),
        statuses: [],
        parameters: findParameters,
      });
    const createExample = may('create') ? requestExample(ref(createName), 'create') : undefined;
    if (may('create'))
      collection.post = operation(service, 'create', def.access.create, {
        summary: `Create a record of ${service}`,
        success: 201,
        answer: record,
        request: ref(createName),
        example: createExample,
        statuses: [409],
      });
    if (may('get'))
      item.get = operation(service, 'get', def.access.get, {
        summary: `Read a record of ${service}`,
        description: `${restricted}${owned}`.trim() || undefined,
        success: 200,
        answer: record,
        statuses: [404],
        parameters: [idParameter, ...shaping],
      });
    if (may('patch'))
      item.patch = operation(service, 'patch', def.access.patch, {
        summary: `Change a record of ${service}`,
        success: 200,
        answer: record,
        request: ref(patchName),
        example: requestExample(ref(patchName), 'patch', createExample),
        statuses: [404, 409],
        parameters: [idParameter],
      });
    if (may('remove'))
      item.delete = operation(service, 'remove', def.access.remove, {
        summary: `Delete a record of ${service}`,
        success: 200,
        answer: record,
        statuses: [404, 409],
        parameters: [idParameter],
      });
    if (Object.keys(collection).length > 0) paths[`${API}/${service}`] = collection;
    if (Object.keys(item).length > 0) paths[`${API}/${service}/{id}`] = item;
    const hears = may('get') || may('find');
    tags.push({
      name: service,
      description: `Records of \`${service}\`.${restricted}${owned}`,
      'x-query': facts,
      ...(hears ? { 'x-events': ['created', 'patched', 'removed'] } : {}),
    });
    if (hears) events[service] = { created: record, patched: record, removed: record };
  };

  const addDescribed = (source: ServiceSource) => {
    const description = descriptionOf(source.path);
    if (!description) return;
    const service = source.path;
    const collection: Record<string, unknown> = {};
    const item: Record<string, unknown> = {};
    const custom: string[] = [];
    for (const method of source.methods) {
      const access = description.access[method] ?? 'none';
      const details = description.methods[method];
      if (!details || !allows(access, caller)) continue;
      if (!(STANDARD as readonly string[]).includes(method)) {
        custom.push(method);
        continue;
      }
      const withId =
        (method === 'get' || method === 'patch' || method === 'remove') &&
        !description.withoutId?.includes(method as StandardMethod);
      const request = method === 'create' || method === 'patch' ? schemaOf(details.request, 'input') : undefined;
      const createRequest = description.methods.create?.request;
      const op = operation(service, method, access, {
        summary: details.summary,
        description: details.description,
        success: method === 'create' ? 201 : 200,
        answer: schemaOf(details.answer, 'output'),
        request,
        example:
          request &&
          requestExample(
            request,
            method,
            method === 'patch' && createRequest ? exampleOf(schemaOf(createRequest, 'input'), resolve) : undefined,
          ),
        statuses: [...(withId ? [404] : []), ...(details.statuses ?? [])],
        parameters: withId ? [idParameter] : [],
      });
      const verb = { find: 'get', get: 'get', create: 'post', patch: 'patch', remove: 'delete' }[
        method as StandardMethod
      ];
      (withId ? item : collection)[verb] = op;
    }
    // Custom methods: `POST /api/{service}` with the method's name in `X-Service-Method`.
    if (custom.length > 0) {
      const variants = custom.map((method) => schemaOf(description.methods[method]?.request, 'input'));
      const answers = custom.map((method) => schemaOf(description.methods[method]?.answer, 'output'));
      const create = collection.post as JsonSchema | undefined;
      collection.post = {
        ...(create ??
          operation(service, custom[0] as string, description.access[custom[0] as string] ?? 'none', {
            summary: custom.map((m) => description.methods[m]?.summary).join('; '),
            success: 200,
            answer: { anyOf: answers },
            request: { anyOf: variants },
            statuses: [],
          })),
        parameters: [
          {
            name: METHOD_HEADER,
            in: 'header',
            required: !create,
            description: `A custom method of the service: ${custom.map((m) => `\`${m}\``).join(', ')}${create ? '; without the header, `create`' : ''}.`,
            schema: { enum: custom },
          },
        ],
      };
    }
    if (Object.keys(collection).length === 0 && Object.keys(item).length === 0) return;
    if (Object.keys(collection).length > 0) paths[`${API}/${service}`] = collection;
    if (Object.keys(item).length > 0) paths[`${API}/${service}/{id}`] = item;
    tags.push({
      name: service,
      description: `${description.summary}.${description.description ? ` ${description.description}` : ''}`,
      ...(description.events ? { 'x-events': description.events } : {}),
    });
  };

  for (const source of sources) {
    const def = (entities as Record<string, EntityDef | undefined>)[source.path];
    if (def) addEntity(def);
    else addDescribed(source);
  }

  /** A multipart upload (field `file`) by a signed-in caller, answered 201 with `created`. */
  const multipartUpload = (operation: {
    operationId: string;
    tag: string;
    summary: string;
    description: string;
    parameters: JsonSchema[];
    created: JsonSchema;
  }) => ({
    post: {
      operationId: operation.operationId,
      tags: [operation.tag],
      summary: operation.summary,
      description: operation.description,
      security: [{ memberToken: [] }],
      parameters: operation.parameters,
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
            },
          },
        },
      },
      responses: {
        '201': operation.created,
        ...errorResponses([...EVERY_CALL, 413, 415]),
      },
    },
  });

  // Uploads: multipart, to a folder; staff to every folder, a member to `profile`.
  if (caller !== 'anonymous' && caller !== 'appUser') {
    const folders = caller === 'member' ? ['profile'] : [...ATTACHMENT_FOLDERS];
    paths[`${API}/attachments/upload/{folder}`] = multipartUpload({
      operationId: 'attachmentsUpload',
      tag: 'uploads',
      summary: 'Upload files',
      description:
        'Multipart (`multipart/form-data`), field `file`, within the size and count limits; the answer holds each stored ' +
        'file’s `attachments` record. A member uploads one picture to `profile`; staff to every folder.',
      parameters: [{ name: 'folder', in: 'path', required: true, schema: { enum: folders } }],
      created: {
        description: 'Stored.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['data'],
              properties: {
                data: {
                  type: 'object',
                  required: ['info', 'files'],
                  properties: { info: ref('UploadedFile'), files: { type: 'array', items: ref('UploadedFile') } },
                },
              },
            },
          },
        },
      },
    });
    tags.push({ name: 'uploads', description: 'Files and pictures, sent as multipart forms (decision 022).' });
    schemas.UploadedFile = {
      type: 'object',
      description: 'A stored file: its `attachments` id, and where to read it and its thumbnail.',
      required: ['_id', 'name', 'size', 'mime', 'src'],
      properties: {
        id: { type: 'string' },
        _id: { type: 'string' },
        name: { type: 'string' },
        size: { type: 'integer' },
        mime: { type: 'string' },
        width: { type: ['integer', 'null'] },
        height: { type: ['integer', 'null'] },
        src: { type: 'string' },
        thumb: { type: ['string', 'null'] },
      },
    };
  }

  // A Facebook page's export, uploaded by staff to import its posts as draft news (decision 060).
  if (caller === 'editor' || caller === 'admin') {
    paths[`${API}/facebook/upload`] = multipartUpload({
      operationId: 'facebookUpload',
      tag: 'facebook',
      summary: 'Import a Facebook page’s export as draft news',
      description:
        'Multipart (`multipart/form-data`), field `file`: the page’s “Download your information” export, as its ZIP ' +
        'archive (posts and pictures) or `your_posts_1.json` alone. A file that is not a page’s posts is refused ' +
        'before anything is written. The answer is the `facebook` import, whose job adds each post not imported ' +
        'before as a draft news item; its progress comes as `patched` events. The Graph API is asked for by ' +
        '`POST /api/facebook` with `{ "source": "graph" }` when the page is configured.',
      parameters: [{ name: 'region', in: 'query', required: false, schema: { enum: ['hk', 'sg', 'canada'] } }],
      created: { description: 'The import, queued.', content: { 'application/json': { schema: ref('Facebook') } } },
    });
  }
  // The routes that are not services (decision 058): downloads, the pages' socket tickets, health.
  const signedIn = caller === 'member' || caller === 'editor' || caller === 'admin';
  const staffCaller = caller === 'editor' || caller === 'admin';
  const file = (description: string, types: readonly string[]) => ({
    description,
    headers: {
      'Content-Disposition': { description: 'The file’s name (RFC 6266).', schema: { type: 'string' } },
      'Cache-Control': {
        description: 'Never kept by a browser or a proxy: `private, no-store`.',
        schema: { type: 'string' },
      },
    },
    content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
  });
  const pathId = (description: string) => ({
    name: 'id',
    in: 'path',
    required: true,
    description,
    schema: { type: 'string' },
  });
  const downloads = [{ memberToken: [] }, { siteSession: [] }];
  if (signedIn) {
    if (paths[`${API}/attachments/upload/{folder}`]) {
      const withFolder = paths[`${API}/attachments/upload/{folder}`]?.post as JsonSchema;
      paths[`${API}/attachments/upload`] = {
        post: {
          ...withFolder,
          operationId: 'attachmentsUploadDefault',
          summary: 'Upload files to the default folder',
          description: `${String(withFolder.description)} Without a folder: staff upload to \`general\`, a member to \`profile\`.`,
          parameters: [],
        },
      };
    }
    paths[`${API}/invoices/{id}/pdf`] = {
      get: {
        operationId: 'invoicesPdf',
        tags: ['invoices'],
        summary: 'An invoice as a PDF file',
        description:
          'The invoice, read as the caller reads `GET /api/invoices/{id}`: a member gets their own, staff any; another ' +
          'member’s is a 404. `lang` picks the language of the file (the account’s otherwise). Opened by the site’s pages ' +
          'with their session cookie, or by a client with its token (decision 029).',
        security: downloads,
        parameters: [
          pathId('The invoice’s id.'),
          { name: 'lang', in: 'query', schema: { enum: ['en', 'zh-hk', 'zh-cn'] } },
        ],
        responses: {
          '200': file('The PDF file.', ['application/pdf']),
          ...errorResponses([...EVERY_CALL, 404]),
        },
      },
    };
    paths[`${API}/socketTickets`] = {
      post: {
        operationId: 'socketTicketsCreate',
        tags: ['realtime'],
        summary: 'A one-time ticket for a page’s socket',
        description:
          'For the site’s own pages only: with the session cookie, from the site itself (`Origin`, else ' +
          '`Sec-Fetch-Site`), a ticket the page’s socket signs in with (`{ strategy: "ticket", ticket }`). Any other ' +
          'site is a 403; a client of the API signs its socket in with its token instead.',
        security: [{ siteSession: [] }],
        responses: {
          '201': {
            description: 'A ticket, good once and for `expiresIn` seconds.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['ticket', 'expiresIn'],
                  properties: { ticket: { type: 'string' }, expiresIn: { type: 'integer', minimum: 1 } },
                },
              },
            },
          },
          ...errorResponses([...EVERY_CALL, 405]),
        },
      },
    };
  }
  if (staffCaller) {
    paths[`${API}/exports/{id}/download`] = {
      get: {
        operationId: 'exportsDownload',
        tags: ['exports'],
        summary: 'A finished export’s file',
        description:
          'The file of an export whose `state` is `done`, to the staff member who asked for it or an admin; any other ' +
          'export (someone else’s, not done, gone) is the same 404 (decision 036).',
        security: downloads,
        parameters: [pathId('The export’s id.')],
        responses: {
          '200': file('The file, CSV or Excel as the export asked.', [EXPORT_TYPES.csv, EXPORT_TYPES.xlsx]),
          ...errorResponses([...EVERY_CALL, 404]),
        },
      },
    };
  }
  const picture = (operationId: string, summary: string, description: string, path: string, query = false) => {
    paths[`${API}${path}`] = {
      get: {
        operationId,
        tags: ['uploads'],
        summary,
        description: `${description} A member’s profile picture only to those who may see it; anything else is a 404.`,
        parameters: [
          pathId(path.startsWith('/users') ? 'The user’s id.' : 'The `attachments` id.'),
          ...(query
            ? [
                { name: 'width', in: 'query', description: 'A stored width of a picture.', schema: { type: 'string' } },
                { name: 'format', in: 'query', schema: { enum: ['webp', 'avif', 'jpeg', 'png'] } },
              ]
            : []),
        ],
        responses: {
          '200': file('The file.', ['image/*', 'application/octet-stream']),
          '304': { description: 'The copy the client holds (`If-None-Match`) is current.' },
          ...errorResponses([...EVERY_CALL, 404]),
        },
      },
    };
  };
  // `GET /api/attachments/{id}` is the record to a client that asks for JSON (as the Feathers client
  // does), and the stored file itself to anyone else (an <img>, a browser), as the route serves it.
  const attachment = paths[`${API}/attachments/{id}`]?.get as
    | { description?: string; responses: Record<string, { description?: string; content?: Record<string, unknown> }> }
    | undefined;
  const record200 = attachment?.responses['200'];
  if (attachment && record200) {
    const files = file('The file.', ['image/*', 'application/octet-stream']);
    attachment.description = [
      attachment.description,
      'With `Accept: application/json` the record; otherwise the stored file itself (a picture at `width` and ' +
        '`format` where asked), as `/api/attachments/{id}/download` sends it but shown rather than saved.',
    ]
      .filter(Boolean)
      .join(' ');
    record200.content = { ...record200.content, ...files.content };
    attachment.responses['304'] = { description: 'The copy the client holds (`If-None-Match`) is current.' };
  }
  picture(
    'attachmentsDownload',
    'A stored file, as a download',
    'The file as it was uploaded, with its name.',
    '/attachments/{id}/download',
  );
  picture('thumbsGet', 'A stored picture’s thumbnail', 'The small picture the back office lists.', '/thumbs/{id}');
  picture(
    'usersPicture',
    'A user’s picture',
    'The profile picture of a user, or the default one, at a stored width.',
    '/users/pic/{id}',
    true,
  );
  const eventLines = Object.keys(events)
    .sort()
    .map(
      (service) => `- \`${service}\`: \`created\`, \`patched\`, \`removed\`, each with a \`${pascal(service)}\` record`,
    )
    .join('\n');
  tags.push({
    name: 'realtime',
    description: [
      `Every service is also reached over socket.io at \`${SOCKET_PATH_FOR_REFERENCE}\`, websocket transport only ` +
        '(`io(origin, { path: "/api/socket.io", transports: ["websocket"] })`). A call is an event named after the method: ' +
        '`socket.emit("find", "industries", query, callback)`, as the official Feathers client sends it.',
      '',
      'To sign a socket in, call `create` on `authentication` (members and staff) or `appAuthentication` (app users) ' +
        'with `{ strategy: "jwt", accessToken }`; the site’s own pages use a one-time ticket instead ' +
        '(`POST /api/socketTickets`, then `{ strategy: "ticket", ticket }`).',
      '',
      'A signed-in socket hears the events of the records it may read:',
      eventLines || '- none',
    ].join('\n'),
  });

  schemas.Error = {
    type: 'object',
    description: 'A Feathers error, its messages in the caller’s language (`Accept-Language`).',
    required: ['name', 'message', 'code', 'className'],
    properties: {
      name: { type: 'string', examples: ['BadRequest'] },
      message: { type: 'string' },
      code: { type: 'integer' },
      className: { type: 'string', examples: ['bad-request'] },
      data: {},
      errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'A message per field refused.' },
    },
  };
  schemas.Page = {
    type: 'object',
    description:
      'A find’s answer: a page of `data`. `total` counts every match, or is -1 on keyset pages (`$cursor`); with ' +
      '`$countUpTo`, `totalCapped` says whether the count stopped there.',
    required: ['total', 'limit', 'skip', 'data', 'sortBy', 'sortDesc', 'cursors'],
    properties: {
      total: { type: 'integer', minimum: -1 },
      totalCapped: { type: 'boolean' },
      limit: { type: 'integer', minimum: 0, maximum: MAX_LIMIT },
      skip: { type: 'integer', minimum: 0 },
      data: { type: 'array' },
      sortBy: { type: 'array', items: { type: 'string' } },
      sortDesc: { type: 'array', items: { type: 'boolean' } },
      cursors: {
        type: 'object',
        required: ['previous', 'next'],
        properties: { previous: { type: ['string', 'null'] }, next: { type: ['string', 'null'] } },
      },
    },
  };

  const retryAfter = {
    'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
  };
  const statuses = new Set<number>();
  const collect = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null)
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/responses/'))
          statuses.add(Number(inner.slice('#/components/responses/'.length)));
        else collect(inner);
      }
  };
  collect(paths);
  const responses = Object.fromEntries(
    [...statuses]
      .sort((a, b) => a - b)
      .map((status) => [
        String(status),
        {
          description: ERROR_WORDS[status] ?? 'An error.',
          ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
          content: {
            'application/json': {
              schema: {
                allOf: [
                  ref('Error'),
                  { properties: { code: { const: status }, name: { const: ERROR_NAMES[status] ?? 'GeneralError' } } },
                ],
              },
            },
          },
        },
      ]),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Tillpoint API',
      version: options.version ?? '0.0.0',
      summary: 'The services behind the site, its back office and the company’s apps.',
      description:
        'Generated from the entity definitions and the services’ own descriptions, for ' +
        (caller === 'anonymous'
          ? 'a visitor'
          : caller === 'appUser'
            ? 'a user of the apps'
            : `a caller of role ${caller}`) +
        ': every path here is one this caller may call. Send a token (`Authorization: Bearer …`) to read the document for your role. ' +
        'A guide with examples: docs/api-guide.md. Outside the API, for load balancers and monitoring: `GET /health` ' +
        '(the instance and each part, 200 or 503 while a part is down) and `GET /health/live` (the process serves).',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: options.serverUrl ?? '/', description: 'This site.' }],
    security: [{}],
    tags: tags.sort((a, b) => String(a.name).localeCompare(String(b.name))),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: {
        memberToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A member’s or staff member’s token, from `POST /api/authentication` with `{strategy: "local", email, password}`.',
        },
        ...(signedIn
          ? {
              siteSession: {
                type: 'apiKey',
                in: 'cookie',
                name: 'tp_session',
                description:
                  'The site’s own session cookie (`__Host-tp_session` on HTTPS), set when a person signs in on the site: the ' +
                  'downloads and the pages’ socket tickets take it, for links a browser opens.',
              },
            }
          : {}),
        appUserToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: `A token of a user of the apps, from \`POST /api/${APP_AUTHENTICATION_PATH}\` with \`{strategy: "local", email, password}\`.`,
        },
      },
      parameters: {
        id: { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        limit: {
          name: '$limit',
          in: 'query',
          description: `Records per page (${DEFAULT_LIMIT} unless asked).`,
          schema: { type: 'integer', minimum: 0, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
        },
        skip: {
          name: '$skip',
          in: 'query',
          description: 'Records to pass over (page mode).',
          schema: { type: 'integer', minimum: 0 },
        },
        cursor: {
          name: '$cursor',
          in: 'query',
          description: 'Keyset paging: `true` for the first page, then a page’s `cursors.next` or `cursors.previous`.',
          schema: { type: 'string' },
        },
        countUpTo: {
          name: '$countUpTo',
          in: 'query',
          description: 'Count the total to this many matches at most (decision 045).',
          schema: { type: 'integer', minimum: 1 },
        },
        idempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          description:
            'A retried `POST` with the same key gets its first answer (`Idempotent-Replayed: true`); the same key for ' +
            'another request is a 422, one still being answered a 409 (decision 041).',
          schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,128}$' },
        },
      },
      responses,
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
    'x-socketio': {
      path: SOCKET_PATH_FOR_REFERENCE,
      transports: ['websocket'],
      authentication: [
        { service: 'authentication', data: { strategy: 'jwt', accessToken: '<token>' } },
        { service: APP_AUTHENTICATION_PATH, data: { strategy: 'jwt', accessToken: '<token>' } },
        { service: 'authentication', data: { strategy: 'ticket', ticket: '<ticket from POST /api/socketTickets>' } },
      ],
      events: Object.fromEntries(
        Object.keys(events)
          .sort()
          .map((service) => [
            service,
            { created: recordRef(service), patched: recordRef(service), removed: recordRef(service) },
          ]),
      ),
    },
  };
}

/** Which services a document is written from: every registered one, with its methods. */
export function serviceSources(services: object, methodsOf: (service: unknown) => readonly string[]): ServiceSource[] {
  return Object.entries(services).map(([path, service]) => ({ path, methods: methodsOf(service) }));
}

/**
 * The services as the definitions and the filed descriptions say, without the application: what the
 * pages, which reach the services through the typed map only, write their reference from. The
 * conformance test holds the registered services to these (tests/integration/openapi.test.ts).
 */
export function describedSources(): ServiceSource[] {
  return [
    ...Object.values(entities).map((def) => ({ path: def.service, methods: STANDARD })),
    ...describedServices().map(([path, description]) => ({ path, methods: Object.keys(description.methods) })),
  ];
}
