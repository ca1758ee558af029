import type { HookContext, NextFunction, RealTimeConnection } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { entities, type EntityName, isEntityName } from '../domain/entities/index.ts';
import { type Access, type CallerRole, type EntityDef, ROLES } from '../domain/entities/types.ts';
import { hiddenFields, stripResult } from './hooks/clean-output.ts';
import { isCurrentSession } from './auth/strategies.ts';
import { clockOf } from './clock.ts';
import { isPublicRecord, reachesAllRows } from './hooks/row-rules.ts';
import type { ServerApp } from './services/types.ts';
import type { EventSync } from './sync.ts';

type Connection = RealTimeConnection & {
  user?: { _id: string; role: string };
  /** A user of the company's apps, signed in through `appAuthentication` (decision 053). */
  appUser?: { _id: string };
  authentication?: { strategy?: string; accessToken?: string };
  /** The id of the token this connection signed in with, to find it when that token is revoked. */
  jti?: string;
  /** The session version the token was signed for, to find it when the account's sessions end. */
  sv?: string;
};

type PatchedUser = { _id?: string; role?: string; sessionVersion?: unknown; sessionKept?: unknown };

/** The channels an entity's event goes to, by the record it carries. */
type EntityPublisher = (data: unknown) => ReturnType<ServerApp['channel']>[];

/** Sends an entity service's events to the channels its publisher names. */
function publishEntity<K extends EntityName>(app: ServerApp, path: K, publisher: EntityPublisher): void {
  app.service(path).publish(publisher);
}

/** The JWT id in an authentication result, or in the `{ jti }` that another instance sent for one. */
function jtiOf(result: unknown): string | undefined {
  const r = result as { jti?: unknown; authentication?: { payload?: { jti?: unknown } } } | null;
  const jti = r?.jti ?? r?.authentication?.payload?.jti;
  return typeof jti === 'string' ? jti : undefined;
}

/** How often signed-in sockets are checked against the database while other instances' events may be missed. */
export const SESSION_CHECK_MS = 500;
/**
 * How long those checks go on once events flow again: an instance that was away from Redis may
 * still be reconnecting (a few seconds at most), and what it emits meanwhile reaches no other.
 */
export const SESSION_CHECK_AFTER_MS = 10_000;
/** Connections checked per query. */
const SESSION_CHECK_BATCH = 500;

/**
 * Realtime events reach only connections allowed to read the record: public entities go to
 * everyone; others to the roles that may read them and to the record's own user. A connection's
 * channels follow its user: a new sign-in, a sign-out on that connection, or a role change take
 * effect at once.
 *
 * A session ended from elsewhere (its token signed out here, on another connection or on another
 * instance; the account's sessions ended; the account removed) closes the socket that signed in
 * with it, on every instance: the client sees `io server disconnect` and must sign in again
 * (app/api/live.ts does, with a new ticket, or treats the session as ended). The news comes by
 * the service events (feathers-sync); while this instance may miss other instances' events (Redis
 * away, and `SESSION_CHECK_AFTER_MS` after its return) its signed-in sockets are checked against
 * the database every `SESSION_CHECK_MS` instead (decision 032).
 */
export function configureChannels(app: ServerApp): void {
  const leaveAll = (connection: Connection) => {
    for (const name of app.channels) app.channel(name).leave(connection);
  };
  const signOut = (connection: Connection) => {
    leaveAll(connection);
    delete connection.user;
    delete connection.appUser;
    delete connection.authentication;
    delete connection.jti;
    delete connection.sv;
    app.channel('anonymous').join(connection);
  };
  const connectionsOf = (channel: string) => [...app.channel(channel).connections] as Connection[];
  /** Signs the connection out and closes its socket (Feathers' transport disconnects it on this event). */
  const endSession = (connection: Connection) => {
    signOut(connection);
    app.emit('disconnect', connection);
  };
  /** The account's role changed: the connection hears what the new role may read, from now on. */
  const changeRole = (connection: Connection, role: string) => {
    if (!connection.user || connection.user.role === role) return;
    app.channel(`roles/${connection.user.role}`).leave(connection);
    connection.user = { ...connection.user, role };
    app.channel(`roles/${role}`).join(connection);
  };

  app.on('connection', (connection: Connection) => {
    app.channel('anonymous').join(connection);
  });

  app.on('login', (result: unknown, { connection }: { connection?: Connection }) => {
    if (!connection?.user && !connection?.appUser) return;
    // Signing in again as someone else must not keep the first user's channels.
    leaveAll(connection);
    connection.jti = jtiOf(result);
    const sv = (result as { authentication?: { payload?: { sv?: unknown } } } | null)?.authentication?.payload?.sv;
    connection.sv = typeof sv === 'string' ? sv : undefined;
    const appUserOnly = (result as { appUser?: unknown } | null)?.appUser !== undefined;
    if (appUserOnly || !connection.user) {
      // An app user hears what anyone hears, and what is their own (decision 053).
      delete connection.user;
      if (!connection.appUser) return;
      app.channel('anonymous').join(connection);
      app.channel('appUsers').join(connection);
      app.channel(`roles/appUser`).join(connection);
      app.channel(`app-users/${connection.appUser._id}`).join(connection);
      return;
    }
    delete connection.appUser;
    app.channel('authenticated').join(connection);
    app.channel(`roles/${connection.user.role}`).join(connection);
    app.channel(`users/${connection.user._id}`).join(connection);
  });

  app.on('logout', (_result: unknown, { connection }: { connection?: Connection }) => {
    if (connection) signOut(connection);
  });

  // A token revoked anywhere (REST, another socket, another instance through feathers-sync).
  app.service('authentication').on('removed', (result: unknown) => {
    const jti = jtiOf(result);
    if (!jti) return;
    for (const connection of connectionsOf('authenticated')) if (connection.jti === jti) endSession(connection);
  });

  // An app user's token signed out anywhere.
  app.service('appAuthentication').on('removed', (result: unknown) => {
    const jti = jtiOf(result);
    if (!jti) return;
    for (const connection of connectionsOf('appUsers')) if (connection.jti === jti) endSession(connection);
  });
  // An app user disabled, or their sessions ended (a new password), or the account removed.
  app.service('appUsers').on('patched', (appUser: PatchedUser & { disabledAt?: unknown }) => {
    for (const connection of connectionsOf(`app-users/${appUser._id}`)) {
      const ended =
        'sessionVersion' in appUser && !isCurrentSession({ jti: connection.jti, sv: connection.sv }, appUser);
      if (ended || (appUser.disabledAt !== undefined && appUser.disabledAt !== null)) endSession(connection);
    }
  });
  app.service('appUsers').on('removed', (appUser: { _id?: string }) => {
    for (const connection of connectionsOf(`app-users/${appUser._id}`)) endSession(connection);
  });

  app.service('users').on('patched', (user: PatchedUser) => {
    for (const connection of connectionsOf(`users/${user._id}`)) {
      // The account's sessions were ended (a password change here or on another instance).
      if ('sessionVersion' in user && !isCurrentSession({ jti: connection.jti, sv: connection.sv }, user)) {
        endSession(connection);
        continue;
      }
      if (user.role) changeRole(connection, user.role);
    }
  });
  app.service('users').on('removed', (user: { _id?: string }) => {
    for (const connection of connectionsOf(`users/${user._id}`)) endSession(connection);
  });

  const sync = (app as unknown as { sync?: EventSync }).sync;
  const knex = app.get('knex') as Knex | undefined;
  if (sync && knex)
    checkSessionsWithoutEvents(app, {
      sync,
      knex,
      connections: () => connectionsOf('authenticated'),
      endSession,
      changeRole,
    });

  for (const def of Object.values(entities)) {
    const access: Access = def.access.get;
    if (!isEntityName(def.service)) continue;
    publishEntity(app, def.service, (data: unknown) => {
      // A record that is not public (a draft article) is news for staff alone.
      if (access === 'public' && !isPublicRecord(def, data, clockOf(app)()))
        return [app.channel('roles/editor'), app.channel('roles/admin')];
      if (access === 'public' && !def.owner) return [app.channel('anonymous'), app.channel('authenticated')];
      const roles: readonly CallerRole[] =
        access === 'public' || access === 'authenticated' ? ROLES : access === 'none' ? [] : access;
      // Roles that read every row hear of every change; the owner hears of their own row.
      const channels = roles
        .filter((role) => reachesAllRows(def, role, 'read'))
        .map((role) => app.channel(`roles/${role}`));
      const owner = def.owner ? (data as Record<string, unknown> | null)?.[def.owner.field] : undefined;
      if (
        def.owner &&
        (typeof owner === 'string' || typeof owner === 'number') &&
        roles.some((role) => !reachesAllRows(def, role, 'read'))
      ) {
        channels.push(app.channel(`${def.owner.of === 'appUsers' ? 'app-users' : 'users'}/${String(owner)}`));
      }
      return channels;
    });
  }
}

/**
 * While other instances' events may be missed (see `configureChannels`), ends the sessions of
 * signed-in sockets whose token was signed out, whose account's sessions were ended, or whose
 * account is gone, and moves those whose account's role changed to the new role's channel, as the
 * database records them: one query per table per round, whatever the number of sockets. A round
 * that fails (the database away too) is tried again at the next.
 */
function checkSessionsWithoutEvents(
  app: ServerApp,
  {
    sync,
    knex,
    connections,
    endSession,
    changeRole,
  }: {
    sync: EventSync;
    knex: Knex;
    connections: () => Connection[];
    endSession: (connection: Connection) => void;
    changeRole: (connection: Connection, role: string) => void;
  },
): void {
  let missedUntil = 0;
  let checking = false;
  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    const now = Date.now();
    if (!sync.hears()) missedUntil = now + SESSION_CHECK_AFTER_MS;
    if (checking || now > missedUntil) return;
    checking = true;
    try {
      // What each socket held when asked: one that signs out or in again meanwhile is left alone.
      const signedIn = connections().flatMap((connection) =>
        connection.jti && connection.user
          ? [{ connection, jti: connection.jti, user: String(connection.user._id) }]
          : [],
      );
      for (let start = 0; start < signedIn.length; start += SESSION_CHECK_BATCH) {
        const batch = signedIn.slice(start, start + SESSION_CHECK_BATCH);
        const revoked = new Set(
          (await knex('revoked_tokens')
            .whereIn(
              'jti',
              batch.map(({ jti }) => jti),
            )
            .pluck('jti')) as string[],
        );
        const rows = (await knex('users')
          .whereIn('id', [...new Set(batch.map(({ user }) => user))])
          .select('id', 'role', 'session_version', 'session_kept')) as {
          id: string;
          role: string;
          session_version: string | null;
          session_kept: string | null;
        }[];
        const accounts = new Map(
          rows.map((row) => [
            String(row.id),
            { role: row.role, sessionVersion: row.session_version, sessionKept: row.session_kept },
          ]),
        );
        for (const { connection, jti, user } of batch) {
          if (connection.jti !== jti) continue;
          const account = accounts.get(user);
          if (revoked.has(jti) || !account || !isCurrentSession({ jti, sv: connection.sv }, account))
            endSession(connection);
          else changeRole(connection, account.role);
        }
      }
    } catch {
      // The database is away too: its own 503s say so; the next round tries again.
    } finally {
      checking = false;
    }
  };
  app.hooks({
    setup: [
      async (_context: HookContext, next: NextFunction) => {
        await next();
        timer = setInterval(() => void check(), SESSION_CHECK_MS);
        timer.unref();
      },
    ],
    teardown: [
      async (_context: HookContext, next: NextFunction) => {
        clearInterval(timer);
        await next();
      },
    ],
  });
}

const entityByService = new Map<string, EntityDef>(Object.values(entities).map((def) => [def.service, def]));

interface SyncMessage {
  event: string;
  path: string;
  data: unknown;
  context?: { method?: string; dispatch?: unknown };
}

/**
 * What feathers-sync publishes to Redis for one service event. Its default sends the whole hook
 * context (params with headers and tokens, written data with a plain password, the result with
 * the hash); only what the channels and dispatch need goes: path, event and the record as
 * clients may see it; for a sign-out, the token's id alone.
 */
export function serializeEvent({ event, path, data, context }: SyncMessage): string {
  if (path === 'authentication' || path === 'appAuthentication') {
    // Other instances only need to know which token was signed out.
    const jti = event === 'removed' ? jtiOf(data) : undefined;
    return JSON.stringify({ event, path, data: jti ? { jti } : null, context: { path, event, params: {} } });
  }
  // An export's progress holds nothing secret: it goes as it is, to reach the one who asked on any instance.
  if (path === 'exports')
    return JSON.stringify({
      event,
      path,
      data,
      context: { path, event, method: context?.method, type: 'after', params: {}, dispatch: data, result: data },
    });
  const def = entityByService.get(path);
  const hidden = def ? hiddenFields(def) : [];
  const record = def ? stripResult(data, hidden) : null;
  const dispatch = def ? stripResult(context?.dispatch ?? data, hidden) : null;
  return JSON.stringify({
    event,
    path,
    data: record,
    context: { path, event, method: context?.method, type: 'after', params: {}, dispatch, result: dispatch },
  });
}
