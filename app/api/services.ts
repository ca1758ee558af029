import type { AdminRecord, FoundPage } from '../../domain/admin/table';
import type { EntityName } from '../../domain/entities/index';
import type { CallParams, ServiceMap, Services } from '../../domain/entities/services';

/*
 * The pages' one way into the services (decision 048). Loaders and actions call `ctx.api`, the
 * in-process application typed by the service map (`ServiceMap`, domain/entities/services.ts); live
 * components call `live.call(path, (service) => …)`, the same map over socket.io (`Services<'json'>`:
 * dates as ISO strings). Both answer what the definitions say: a wrong field, method or answer type
 * is a compile error, and nothing here is asserted.
 */

export type {
  CallParams,
  ClientServiceMap,
  Page,
  ServiceMap,
  ServiceName,
  Services,
} from '../../domain/entities/services';

/** A query as the generic back office builds it from the address, for whichever entity it shows. */
type AnyQuery = Record<string, unknown>;

/**
 * An entity's service seen without its definition: what the generic back office calls for the
 * entity its address names (`source`), records as plain objects. Every entity service of the map
 * is one (`recordsOf` checks it, service by service), so no answer is asserted on the way.
 */
export interface RecordApi {
  find(params: CallParams & { query?: AnyQuery }): Promise<FoundPage>;
  get(id: string, params?: CallParams & { query?: AnyQuery }): Promise<AdminRecord>;
  create(data: Record<string, unknown>, params?: CallParams): Promise<AdminRecord>;
  patch(id: string, data: Record<string, unknown>, params?: CallParams & { query?: AnyQuery }): Promise<AdminRecord>;
  remove(id: string, params?: CallParams): Promise<AdminRecord>;
}

/** An entity's service by its name, as the generic back office calls it on the server. */
export function recordsOf(api: ServiceMap, name: EntityName): RecordApi {
  return api.service(name);
}

/** The same for a service reached over the live connection (`live.call(source, (service) => records(service)…)`). */
export function records(service: Services<'json'>[EntityName]): RecordApi {
  return service;
}
