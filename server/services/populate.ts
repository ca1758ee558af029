import { Forbidden } from '@feathersjs/errors';
import { entities } from '../../domain/entities/index.ts';
import type { EntityDef } from '../../domain/entities/types.ts';
import { clockOf } from '../clock.ts';
import { allowed } from '../hooks/authorize.ts';
import { hiddenFields, stripResult } from '../hooks/clean-output.ts';
import { narrowQuery } from '../hooks/narrow-query.ts';
import { rowCondition } from '../hooks/row-rules.ts';
import { callerRoleOf, ownerCallerOf } from '../hooks/caller.ts';
import type { EntityParams, EntityRecord, Populator } from './entity/entity-service.ts';
import { entityServiceAt } from './entity/service-at.ts';
import type { ServerApp } from './types.ts';

/**
 * Replaces referenced ids with the records they name, in one query per path, under the caller's
 * access and row rules: an id the caller may not read stays an id.
 */
export function createPopulator(app: ServerApp): Populator {
  return async (def: EntityDef, records: EntityRecord[], paths: string[], params: EntityParams) => {
    for (const path of paths) {
      const spec = def.populate?.[path];
      if (!spec) continue;
      const target = Object.values(entities).find((entity) => entity.service === spec.service);
      if (!target) continue;
      if (params.provider && !allowed(target.access.find, callerRoleOf(params))) throw new Forbidden('auth.forbidden');
      const [head, tail] = spec.path.split('.') as [string, string | undefined];
      const ids = new Set<string>();
      for (const record of records) {
        const value = record[head];
        if (tail === undefined && typeof value === 'string') ids.add(value);
        if (tail !== undefined && Array.isArray(value)) {
          for (const item of value) if (typeof item?.[tail] === 'string') ids.add(item[tail]);
        }
      }
      if (ids.size === 0) continue;
      // The rows an outside caller could read directly, and no others (drafts, other members' rows).
      const condition = params.provider
        ? rowCondition(target, ownerCallerOf(params, target.owner?.of), 'read', clockOf(app)())
        : null;
      const byIds = { _id: { $in: [...ids] } };
      const service = entityServiceAt(app, spec.service);
      if (!service) continue;
      const found = await service.find({ query: condition ? narrowQuery(byIds, condition) : byIds, paginate: false });
      const clean = stripResult(found, hiddenFields(target)) as EntityRecord[];
      const byId = new Map(clean.map((doc) => [doc._id, doc]));
      for (const record of records) {
        const value = record[head];
        if (tail === undefined && typeof value === 'string') record[head] = byId.get(value) ?? value;
        if (tail !== undefined && Array.isArray(value)) {
          record[head] = value.map((item) =>
            typeof item?.[tail] === 'string' ? { ...item, [tail]: byId.get(item[tail]) ?? item[tail] } : item,
          );
        }
      }
    }
  };
}
