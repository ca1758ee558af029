import type { Application, HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { EntityDef } from '../../../domain/entities/types.ts';
import { authorize } from '../../hooks/authorize.ts';
import { cleanOutput } from '../../hooks/clean-output.ts';
import { rowRules } from '../../hooks/row-rules.ts';
import { createPopulator } from '../populate.ts';
import { type BeforeWrite, EntityService } from './entity-service.ts';

export type AroundHook = (context: HookContext, next: NextFunction) => Promise<void>;

/** What a service adds to the generic entity service, from its own folder. */
export interface OwnRules {
  /** Transforms validated data right before it is written (hashing, sanitising). */
  beforeWrite?: BeforeWrite;
  /** The service's own hooks; they run inside the definition's access, output and row rules. */
  hooks?: AroundHook[];
}

/**
 * Registers the generic entity service of a definition: its access, output cleaning and row rules
 * come from the definition; a service folder adds only what is its own.
 */
export function registerEntityService(app: Application, def: EntityDef, own: OwnRules = {}): EntityService {
  const service = new EntityService(app.get('knex') as Knex, def);
  service.populator = createPopulator(app);
  service.beforeWrite = own.beforeWrite;
  app.use(def.service, service, { methods: ['find', 'get', 'create', 'patch', 'remove'], events: [] });
  app.service(def.service).hooks({ around: { all: [authorize(def), cleanOutput(def), rowRules(def), ...(own.hooks ?? [])] } });
  return service;
}
