import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { Forbidden } from '@feathersjs/errors';
import { definitions } from '../../../domain/entities/index.ts';
import type { EntityDef, PatchOf } from '../../../domain/entities/types.ts';
import type { BeforeWrite, EntityService, ServerCallParams } from '../entity/entity-service.ts';
import { registerEntityService } from '../entity/register.ts';
import { hiddenFields, stripResult } from '../../hooks/clean-output.ts';
import type { ServerApp } from '../types.ts';
import { hashInstallationSecret, INSTALLATION_REFUSED, newInstallationSecret, secretMatches } from './installations.ts';

/*
 * The installations of the company's apps (decision 054): the generic entity service over
 * `app_devices`, with registration as `create`. An installation calls it when it first starts and
 * at each session start, signed in or not:
 *
 * - a new `deviceId` makes its row and answers, once, the installation's `secret`;
 * - a known one, with that secret, updates the row instead (platform, version, language, region,
 *   time zone, push token and push state as sent): one row per installation, however often it
 *   registers;
 * - either way the server sets who is signed in on it (the app user of the call's token, none
 *   without one), its address and the session's start.
 */

/** What the server sets on a registration, beside what the device sent. */
interface SessionStart {
  user: string | null;
  lastIP: string | null;
  secretHash?: string;
}

type RegistrationParams = { sessionStart?: SessionStart };

/** Writes what the server knows of the session, on the internal writes the registration makes. */
const sessionWrite: BeforeWrite = async (data, { id, params }) => {
  const start = (params as RegistrationParams).sessionStart;
  if (!start) return data;
  const now = new Date();
  return {
    ...data,
    user: start.user,
    lastIP: start.lastIP,
    lastSessionAt: now,
    ...(id === undefined ? { firstSessionAt: now, secretHash: start.secretHash } : {}),
  };
};

/** The registration itself, in place of an outside `create`. */
async function registration(context: HookContext, next: NextFunction): Promise<void> {
  const data = context.data as unknown;
  if (context.method !== 'create' || !context.params.provider || typeof data !== 'object' || data === null)
    return next();
  if (Array.isArray(data)) return next();
  // Whose it is comes from the call's token (the owner rule has written it in): set below, as the session's.
  const { secret, user: _owner, ...fields } = data as Record<string, unknown>;
  const appUser = context.params.appUser as { _id?: unknown } | null | undefined;
  const ip = context.params.ip as unknown;
  const start: SessionStart = {
    user: typeof appUser?._id === 'string' ? appUser._id : null,
    lastIP: typeof ip === 'string' ? ip.slice(0, 64) : null,
  };
  const knex = context.app.get('knex') as Knex;
  const deviceId = typeof fields.deviceId === 'string' ? fields.deviceId.trim() : undefined;
  const known = deviceId
    ? ((await knex('app_devices').where('device_id', deviceId).first('id', 'secret_hash')) as
        { id: string; secret_hash: string } | undefined)
    : undefined;
  if (known) {
    if (!secretMatches(secret, known.secret_hash)) throw new Forbidden(INSTALLATION_REFUSED);
    const { deviceId: _same, ...changes } = fields;
    const internal: RegistrationParams & ServerCallParams = { sessionStart: start, provider: undefined };
    // Validated as any patch; its own event tells staff and the owner. The create says nothing more.
    context.result = await (context.self as EntityService).patch(known.id, changes as PatchOf<EntityDef>, internal);
    context.event = null;
    return;
  }
  const issued = newInstallationSecret();
  context.data = fields;
  context.params = { ...context.params, sessionStart: { ...start, secretHash: hashInstallationSecret(issued) } };
  await next();
  // The secret is the installation's alone: in its answer, never in the event others hear. What
  // Feathers sends a client is `dispatch` when set, so the event is sent here, without it.
  const record = stripResult(context.result, hiddenFields(definitions.appDevices));
  context.event = null;
  context.result = { ...(record as Record<string, unknown>), secret: issued };
  const { app, service, path, method, params, type } = context;
  (context.self as { emit(event: string, data: unknown, context: unknown): void }).emit('created', record, {
    app,
    service,
    path,
    method,
    params,
    type,
    result: record,
    dispatch: record,
    event: 'created',
  });
}

/** The apps' installations: the generic entity service, registering as described above. */
export function configureAppDevices(app: ServerApp): void {
  registerEntityService(app, definitions.appDevices, { beforeWrite: sessionWrite, hooks: [registration] });
}
