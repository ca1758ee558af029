import { BadRequest, Forbidden } from '@feathersjs/errors';
import type { Id } from '@feathersjs/feathers';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import { isStaffRole } from '../../hooks/row-rules.ts';
import { idSchema } from '../../../domain/entities/types.ts';
import type { EntityParams } from '../entity/entity-service.ts';
import type { EndSessionsParams } from '../users/users.ts';
import type { ServerApp } from '../types.ts';

type Caller = { _id: unknown; role?: string };

/** Whose sessions a caller may end: their own; an editor a member's too; an admin anyone's. */
function mayEnd(caller: Caller, target: { _id: unknown; role?: unknown }): boolean {
  if (String(caller._id) === String(target._id)) return true;
  if (caller.role === 'admin') return true;
  return caller.role === 'editor' && target.role === 'member';
}

/**
 * `userSessions`: `remove(userId)` ends every session of an account at once, on every instance and
 * socket: "sign out everywhere else" for oneself (the caller's own session stays), a compromised
 * account's sessions for staff (all of them). The account's session version changes (users.ts), so
 * every token signed for the old one stops working.
 */
export class UserSessionsService {
  private readonly app: ServerApp;

  constructor(app: ServerApp) {
    this.app = app;
  }

  async remove(id: Id | null, params: EntityParams = {}): Promise<{ _id: string; sessionsEnded: true }> {
    if (id === null || !idSchema.safeParse(String(id)).success) throw new BadRequest('validation.invalid');
    const userId = String(id);
    const caller: Caller | undefined = params.user ?? undefined;
    const users = this.app.service('users');
    if (caller && params.provider && !isStaffRole(caller.role) && String(caller._id) !== userId)
      throw new Forbidden('auth.forbidden');
    const target = await users.get(userId, { query: { $select: ['_id', 'role'] } });
    if (caller && params.provider && !mayEnd(caller, target)) throw new Forbidden('auth.forbidden');
    const own = caller !== undefined && String(caller._id) === userId;
    const ending: EndSessionsParams = {
      user: params.user,
      authentication: params.authentication,
      endSessions: { keepCurrent: own },
    };
    await users.patch(userId, {}, ending);
    return { _id: userId, sessionsEnded: true };
  }
}

/** The reference's word on `userSessions` (decision 058). */
export const userSessionsDescription = describeService('userSessions', {
  summary: 'Ending every session of an account',
  description:
    'A member ends their own other sessions (`DELETE /api/userSessions/{their id}`); an editor a member’s, an admin anyone’s.',
  access: { find: 'none', get: 'none', create: 'none', patch: 'none', remove: 'authenticated' },
  methods: {
    remove: {
      summary: 'End the sessions of an account',
      answer: {
        type: 'object',
        required: ['_id', 'sessionsEnded'],
        properties: { _id: { type: 'string' }, sessionsEnded: { const: true } },
      },
      statuses: [404],
    },
  },
});

export function configureUserSessions(app: ServerApp): void {
  useCustomService(app, 'userSessions', new UserSessionsService(app), userSessionsDescription, { methods: ['remove'] });
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    userSessions: UserSessionsService;
  }
}
