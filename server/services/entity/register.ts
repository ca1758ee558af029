import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Definitions, EntityName } from '../../../domain/entities/index.ts';
import { authorize } from '../../hooks/authorize.ts';
import { describeEntityRequests, type EntityRequests } from '../../openapi/registry.ts';
import { cleanOutput } from '../../hooks/clean-output.ts';
import { rowRules } from '../../hooks/row-rules.ts';
import { selectOnWrites } from '../../hooks/select-on-writes.ts';
import { auditTrail } from '../audit-logs/audit-trail.ts';
import { createPopulator } from '../populate.ts';
import type { ServerApp, ServerServices } from '../types.ts';
import { type BeforeWrite, EntityService } from './entity-service.ts';

export type AroundHook = (context: HookContext, next: NextFunction) => Promise<void>;

/** What a service adds to the generic entity service, from its own folder. */
export interface OwnRules {
  /** Transforms validated data right before it is written (hashing, sanitising). */
  beforeWrite?: BeforeWrite;
  /** The service's own hooks; they run inside the definition's access, output and row rules. */
  hooks?: AroundHook[];
  /**
   * The schemas the service's own hooks check a create or patch with, where they replace the
   * definition's generic body: the API's reference describes the request by them (decision 058).
   */
  requests?: EntityRequests;
}

/**
 * Registers the generic entity service of a definition, typed by it: its access, output cleaning
 * and row rules come from the definition; a service folder adds only what is its own.
 */
export function registerEntityService<K extends EntityName>(
  app: ServerApp,
  def: Definitions[K] & { service: K },
  own: OwnRules = {},
): EntityService<Definitions[K]> {
  const service = new EntityService<Definitions[K]>(app.get('knex') as Knex, def);
  service.populator = createPopulator(app);
  service.beforeWrite = own.beforeWrite;
  // Staff's writes through any outside path are recorded (decision 033).
  service.observer = auditTrail(app);
  const path: K = def.service;
  if (own.requests) describeEntityRequests(path, own.requests);
  // The one cast of the wiring: `ServerServices[K]` is `EntityService<Definitions[K]>` for every
  // entity path K (server/services/types.ts), which the compiler cannot follow for a K not yet
  // known. Through the untyped entity service, so nothing but an entity service passes.
  const typed: ServerServices[K] = service as EntityService as ServerServices[K];
  app.use(path, typed, { methods: ['find', 'get', 'create', 'patch', 'remove'], events: [] });
  app.service(path).hooks({
    around: { all: [selectOnWrites(), authorize(def), cleanOutput(def), rowRules(def), ...(own.hooks ?? [])] },
  });
  return service;
}
