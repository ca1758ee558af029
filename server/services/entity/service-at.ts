import { isEntityName } from '../../../domain/entities/index.ts';
import type { ServerApp } from '../types.ts';
import type { UntypedEntityService } from './entity-service.ts';

/**
 * The entity service at a path known only as text (a `$populate` target, a job's service, an
 * export's source), typed as `UntypedEntityService`: records as plain objects. Undefined for a
 * path that is no entity's.
 */
export function entityServiceAt(app: ServerApp, path: string): UntypedEntityService | undefined {
  if (!isEntityName(path)) return undefined;
  return app.service(path);
}
