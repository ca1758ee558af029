import type { Application } from '@feathersjs/feathers';
import type { Definitions, EntityName } from '../../domain/entities/index.ts';
import type { EntityService } from './entity/entity-service.ts';

/** Each entity's generic service, typed by its definition. */
export type EntityServices = { [K in EntityName]: EntityService<Definitions[K]> };

/**
 * The services the server registers, by path, as their own classes type them. The Feathers
 * application is typed by this map, so `app.service(path)` answers the class registered there,
 * and the application checks against the callers' map (`ServiceMap`, domain/entities/services.ts)
 * wherever it is handed to them (server/pages.ts, the tests' harness).
 *
 * The entity services come from the definitions, which do not import the application. Every other
 * service adds its own entry beside its class, as the Feathers generator's services do (decision
 * 047), so this module imports none of them and none of them is in a loop through it:
 *
 *     declare module '../types.ts' {
 *       interface ServerServices {
 *         quotes: QuotesService;
 *       }
 *     }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- each service adds its own entry
export interface ServerServices extends EntityServices {}

/** The Feathers application as the services' own configuration sees it. */
export type ServerApp = Application<ServerServices>;
