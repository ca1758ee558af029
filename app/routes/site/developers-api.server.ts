import type { Caller } from '../../../domain/admin/access';
import { API_VERSION, describedSources, openApiDocument, type OpenApiDocument } from '../../../server/openapi/document';

/*
 * The API reference page (decision 058) reads the same document `/api/openapi.json` serves, for the
 * reader's role, and keeps what a reader needs: each service's operations, who may call them, the
 * query a find takes and the fields of what it answers. A search narrows the services shown.
 */

type Json = Record<string, unknown>;

export interface ReferenceField {
  name: string;
  type: string;
  required: boolean;
  readOnly: boolean;
}

export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  /** The security schemes that open it; empty for anyone. */
  tokens: string[];
  anyone: boolean;
  parameters: { name: string; where: string; description: string }[];
  request: ReferenceField[];
  answer: ReferenceField[];
  statuses: string[];
}

export interface ReferenceService {
  name: string;
  description: string;
  events: string[];
  operations: ReferenceOperation[];
}

export interface ReferenceView {
  version: string;
  schemes: { name: string; description: string }[];
  realtime: string;
  services: ReferenceService[];
  /** Services in the document, before the search. */
  total: number;
}

const written = new Map<Caller, OpenApiDocument>();

/** The document for a reader, written once per role (the services do not change while running). */
export function documentFor(caller: Caller): OpenApiDocument {
  const known = written.get(caller);
  if (known) return known;
  const document = openApiDocument(describedSources(), caller, { version: API_VERSION });
  written.set(caller, document);
  return document;
}

const asObject = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});

/** A schema, its `$ref`s followed into the document's components. */
function resolve(document: OpenApiDocument, schema: unknown, depth = 0): Json {
  const object = asObject(schema);
  const ref = object.$ref;
  if (typeof ref === 'string' && depth < 5) {
    const name = ref.split('/').pop() ?? '';
    return resolve(document, document.components.schemas[name], depth + 1);
  }
  const allOf = object.allOf;
  if (Array.isArray(allOf) && depth < 5) {
    const parts = allOf.map((part) => resolve(document, part, depth + 1));
    return {
      type: 'object',
      required: parts.flatMap((part) => (Array.isArray(part.required) ? part.required : [])),
      properties: Object.assign({}, ...parts.map((part) => asObject(part.properties))),
    };
  }
  return object;
}

function typeOf(document: OpenApiDocument, schema: unknown, depth = 0): string {
  const object = asObject(schema);
  if (typeof object.$ref === 'string') return object.$ref.split('/').pop() ?? 'object';
  if (Array.isArray(object.anyOf) || Array.isArray(object.oneOf)) {
    const options = (Array.isArray(object.anyOf) ? object.anyOf : (object.oneOf as unknown[])).map((one) =>
      depth < 3 ? typeOf(document, one, depth + 1) : 'object',
    );
    return [...new Set(options)].join(' | ');
  }
  if (Array.isArray(object.enum)) return object.enum.map((value) => JSON.stringify(value)).join(' | ');
  if ('const' in object) return JSON.stringify(object.const);
  const type = Array.isArray(object.type)
    ? object.type.join(' | ')
    : typeof object.type === 'string'
      ? object.type
      : 'any';
  if (type === 'array') return `${depth < 3 ? typeOf(document, object.items, depth + 1) : 'any'}[]`;
  const format = typeof object.format === 'string' ? ` (${object.format})` : '';
  return `${type}${format}`;
}

function fieldsOf(document: OpenApiDocument, schema: unknown): ReferenceField[] {
  let resolved = resolve(document, schema);
  // A page of records: the fields of its records.
  const data = asObject(asObject(resolved.properties).data);
  if (data.type === 'array' && data.items) resolved = resolve(document, data.items);
  const required = new Set(Array.isArray(resolved.required) ? resolved.required.map(String) : []);
  return Object.entries(asObject(resolved.properties)).map(([name, property]) => ({
    name,
    type: typeOf(document, property),
    required: required.has(name),
    readOnly: asObject(property).readOnly === true,
  }));
}

/** The reference for a reader, narrowed to the services that match `search` (name, text, paths, fields). */
export function referenceView(caller: Caller, search: string): ReferenceView {
  const document = documentFor(caller);
  const tags = Array.isArray(document.tags) ? (document.tags as Json[]) : [];
  const operations = new Map<string, ReferenceOperation[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, value] of Object.entries(item)) {
      const op = asObject(value);
      const tag = Array.isArray(op.tags) ? String(op.tags[0]) : '';
      const security = Array.isArray(op.security) ? op.security.map(asObject) : [];
      const responses = asObject(op.responses);
      const success = Object.keys(responses).find((status) => status.startsWith('2')) ?? '';
      const answer = asObject(asObject(asObject(responses[success]).content)['application/json']).schema;
      const content = asObject(asObject(op.requestBody).content);
      const request = asObject(content['application/json'] ?? content['multipart/form-data']).schema;
      const parameters = (Array.isArray(op.parameters) ? op.parameters : []).map((parameter) => {
        const own = asObject(parameter);
        const ref = typeof own.$ref === 'string' ? own.$ref.split('/').pop() : undefined;
        const resolved = ref ? asObject(asObject(document.components.parameters)[ref]) : own;
        return {
          name: String(resolved.name ?? ''),
          where: String(resolved.in ?? ''),
          description: String(resolved.description ?? typeOf(document, resolved.schema)),
        };
      });
      operations.set(tag, [
        ...(operations.get(tag) ?? []),
        {
          id: String(op.operationId ?? `${method}${path}`),
          method: method.toUpperCase(),
          path,
          summary: String(op.summary ?? ''),
          description: String(op.description ?? ''),
          tokens: security.flatMap((scheme) => Object.keys(scheme)),
          anyone: security.some((scheme) => Object.keys(scheme).length === 0),
          parameters,
          request: request ? fieldsOf(document, request) : [],
          answer: answer ? fieldsOf(document, answer) : [],
          statuses: Object.keys(responses),
        },
      ]);
    }
  }
  const services = tags
    .filter((tag) => operations.has(String(tag.name)))
    .map((tag) => ({
      name: String(tag.name),
      description: String(tag.description ?? ''),
      events: Array.isArray(tag['x-events']) ? tag['x-events'].map(String) : [],
      operations: operations.get(String(tag.name)) ?? [],
    }));
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (service: ReferenceService) => {
    const text = [
      service.name,
      service.description,
      ...service.operations.flatMap((op) => [op.path, op.summary, ...op.answer.map((field) => field.name)]),
    ]
      .join(' ')
      .toLowerCase();
    return words.every((word) => text.includes(word));
  };
  const schemes = Object.entries(asObject(document.components.securitySchemes)).map(([name, scheme]) => ({
    name,
    description: String(asObject(scheme).description ?? ''),
  }));
  const realtime = String(tags.find((tag) => tag.name === 'realtime')?.description ?? '');
  return {
    version: String(document.info.version ?? ''),
    schemes,
    realtime,
    services: services.filter(matches),
    total: services.length,
  };
}
