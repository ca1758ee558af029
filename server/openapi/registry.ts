import type { z } from '../../domain/zod.ts';
import type { Access, EntityDef } from '../../domain/entities/types.ts';

/*
 * What the API reference (decision 058) says of a service that has no entity definition: each such
 * service declares it beside its class, as it registers itself, and the document reads it from
 * here. An entity service needs none: its definition says it all, but for a create or patch its
 * own rules check with a schema of their own (`describeEntityRequests`).
 */

/** A JSON Schema (2020-12), for an answer or a request that has no zod schema of its own. */
export type JsonSchema = { [key: string]: unknown };

/**
 * A request's or an answer's schema: a zod schema (turned into JSON Schema by `z.toJSONSchema`),
 * several (any one of them), a JSON Schema where the service has no zod one, or an entity's record.
 */
export type SchemaSource = z.ZodType | readonly z.ZodType[] | JsonSchema | { entity: string };

/** What one method takes and answers. */
export interface MethodDescription {
  summary: string;
  description?: string;
  /** The request body (create, patch, custom methods): the zod schema the service checks, where it has one. */
  request?: SchemaSource;
  /** The answer of a success; minimal where the service has no schema of it. */
  answer?: SchemaSource;
  /** Statuses besides the ones every call may give (400, 401, 403, 429, 500, 503): 402, 404, 409, 413, 415. */
  statuses?: readonly number[];
}

export type StandardMethod = 'find' | 'get' | 'create' | 'patch' | 'remove';

/** A service without a definition, as the reference shows it. */
export interface ServiceDescription {
  summary: string;
  description?: string;
  /**
   * Who may call each method: the rule the service's `authorize` hook applies, so the reference and
   * the service read one value. Methods outside the five are custom ones (`X-Service-Method`).
   */
  access: EntityDef['access'] & { [method: string]: Access };
  /** The methods offered, each with what it takes and answers. */
  methods: Partial<Record<StandardMethod, MethodDescription>> & { [method: string]: MethodDescription | undefined };
  /** `patch` and `remove` without an id (`PATCH /api/features`): the id is left out of their paths. */
  withoutId?: readonly StandardMethod[];
  /** The events its clients hear (none unless said). */
  events?: readonly string[];
}

/**
 * The descriptions, kept on the process under a registered symbol: the pages' server bundle holds
 * its own copy of this module, and its reference page must read what the services filed here.
 */
function processMap<T>(name: string): Map<string, T> {
  const holder = globalThis as Record<symbol, Map<string, T> | undefined>;
  return (holder[Symbol.for(name)] ??= new Map());
}
const descriptions = processMap<ServiceDescription>('tillpoint.serviceDescriptions');

/**
 * Files a service's description under its path and hands it back, so the service's own hooks take
 * their access rule from it: `useCustomService(app, path, service, description, …)` puts
 * `authorize(description)` around its methods (server/services/custom-service.ts).
 */
export function describeService<const D extends ServiceDescription>(path: string, description: D): D {
  descriptions.set(path, description);
  return description;
}

/**
 * What an entity service's own rules check on `create` or `patch` where that is not the generic
 * body its definition writes (an order is placed with the purchase flow's request, not with the
 * fields of an order): the zod schema(s) the service parses, filed as the service registers
 * (`registerEntityService(app, def, { requests })`), and shown in the reference instead.
 */
export interface EntityRequests {
  create?: SchemaSource;
  patch?: SchemaSource;
}

const entityRequests = processMap<EntityRequests>('tillpoint.entityRequests');

/** Files the requests an entity service checks with schemas of its own, under its path. */
export function describeEntityRequests<const R extends EntityRequests>(path: string, requests: R): R {
  entityRequests.set(path, requests);
  return requests;
}

/** The requests an entity service filed, if it did. */
export function entityRequestsOf(path: string): EntityRequests | undefined {
  return entityRequests.get(path);
}

/** Every description filed, by service path. */
export function describedServices(): [string, ServiceDescription][] {
  return [...descriptions];
}

/** The description a service filed, if it did. */
export function descriptionOf(path: string): ServiceDescription | undefined {
  return descriptions.get(path);
}

/**
 * Services the reference leaves out on purpose, with the reason: the test that holds every
 * registered service to a description reads this list too.
 */
export const UNDESCRIBED_SERVICES: Readonly<Record<string, string>> = {};

/**
 * Express routes under `/api` that are neither services nor in the reference, with the reason: the
 * conformance test holds every other route to being described (decision 058).
 */
export const UNDESCRIBED_ROUTES: Readonly<Record<string, string>> = {
  'POST /api/paymentWebhooks/{gateway}':
    'Called by the payment provider alone, signed with its secret (decision 019): nothing a client of the API calls.',
};
