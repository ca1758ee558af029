import { isDeepStrictEqual } from 'node:util';
import type { Application } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { definitions } from '../../../domain/entities/index.ts';
import { columnOf, type EntityDef } from '../../../domain/entities/types.ts';
import { clockOf } from '../../clock.ts';
import { newId } from '../../db/ids.ts';
import { isStaffRole } from '../../hooks/row-rules.ts';
import type { EntityParams, WriteObserver, WrittenRecord } from '../entity/entity-service.ts';

/** Field names whose values are never recorded, hidden or not (a token, a secret, a password). */
const SECRET_LIKE = /password|token|secret/i;
/** A request id as the server gives one (server/server.ts) or takes it from a proxy. */
const REQUEST_ID = /^[\w-]{1,64}$/;

export type Changes = Record<string, { before?: unknown; after?: unknown }>;

/** The fields of a definition whose values the log may hold: not hidden, not secret-like, not the id. */
function recordedFields(def: EntityDef): string[] {
  return Object.entries(def.fields)
    .filter(([name, field]) => !field.hidden && !SECRET_LIKE.test(name) && name !== '_id')
    .map(([name]) => name);
}

/** Values as JSON keeps them: a date as its ISO text, so `before` and `after` read the same anywhere. */
const asJson = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

/**
 * What a write changed: every recorded field of a new record (after), of a removed one (before),
 * and of a patched one those whose value differs. The time of the write itself (`updated_at`,
 * which the entity service sets on every patch) is no change of the record's content.
 */
export function changesOf(def: EntityDef, record: WrittenRecord): Changes {
  const changes: Changes = {};
  for (const name of recordedFields(def)) {
    const field = def.fields[name];
    if (!field) continue;
    const before = record.before?.[name];
    const after = record.after?.[name];
    if (record.method === 'create') changes[name] = { after: asJson(after) };
    else if (record.method === 'remove') changes[name] = { before: asJson(before) };
    else if (columnOf(name, field) !== 'updated_at' && !isDeepStrictEqual(asJson(before), asJson(after))) {
      changes[name] = { before: asJson(before), after: asJson(after) };
    }
  }
  return changes;
}

/** The request id of a REST call or a page's call, which carry the request's headers; a socket's calls have none of their own. */
function requestIdOf(params: EntityParams): string | null {
  if (params.provider !== 'rest' && params.provider !== 'ssr') return null;
  const id = (params.headers as Record<string, unknown> | undefined)?.['x-request-id'];
  return typeof id === 'string' && REQUEST_ID.test(id) ? id : null;
}

/** The audit row of one change by a staff member: who, when, the request, and what changed. */
function auditRow(
  app: Application,
  user: NonNullable<EntityParams['user']>,
  params: EntityParams,
  change: { service: string; method: WrittenRecord['method']; recordId: string; changes: Changes },
) {
  return {
    id: newId(),
    created_at: clockOf(app)(),
    user_id: String(user._id),
    user_email: typeof user.email === 'string' ? user.email : '',
    service: change.service,
    method: change.method,
    record_id: change.recordId,
    changes: JSON.stringify(change.changes),
    request_id: requestIdOf(params),
  };
}

/** Whether a call is one the audit trail records: staff, through an outside path. */
const isStaffCall = (params: EntityParams) => Boolean(params.provider) && isStaffRole(params.user?.role);

/**
 * The audit trail (decision 033): every create, patch and remove by staff (an admin or an editor)
 * through an outside path (REST, socket.io, pages' calls), one row per record, in the write's
 * own transaction, so a failed write leaves no row and a row never names a write that did not
 * happen. The server's own writes, and members', are not recorded.
 */
export function auditTrail(app: Application): WriteObserver {
  return {
    observes: isStaffCall,
    async written(def, records, trx, params) {
      const user = params.user;
      if (!user) return;
      const rows = records.map((record) =>
        auditRow(app, user, params, {
          service: def.service,
          method: record.method,
          recordId: record.id,
          changes: changesOf(def, record),
        }),
      );
      await trx(definitions.auditLogs.table).insert(rows);
    },
  };
}

/**
 * Records a staff change that a service of its own makes without the entity service (an admin
 * sending a failed mail again), in the change's transaction, as the trail records the others.
 */
export async function auditChange(
  app: Application,
  trx: Knex.Transaction,
  params: EntityParams,
  change: { service: string; method: WrittenRecord['method']; recordId: string; changes: Changes },
): Promise<void> {
  const user = params.user;
  if (!user || !isStaffCall(params)) return;
  await trx(definitions.auditLogs.table).insert(auditRow(app, user, params, change));
}
