import { BadRequest, Conflict, NotFound } from '@feathersjs/errors';
import type { HookContext, NextFunction, Params } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { z } from '../../../domain/zod.ts';
import { definitions } from '../../../domain/entities/index.ts';
import {
  PUSH_EDITABLE,
  PUSH_EVENTS,
  PUSH_REMOVABLE,
  PUSH_TRANSITIONS,
  pushSendSchema,
  type PushEvent,
  type PushSendAction,
  type PushStatus,
} from '../../../domain/entities/push-messages.ts';
import { STAFF_ROLES } from '../../../domain/entities/types.ts';
import { clockOf } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import { askPeriodically } from '../../jobs/jobs.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { FcmPushProvider } from '../../push/fcm.ts';
import { LocalPushProvider } from '../../push/local.ts';
import type { PushProvider } from '../../push/provider.ts';
import { PUSH_DUE_JOB, PUSH_RULES, PUSH_SEND_JOB, PushSender, type PushMessageRow } from '../../push/sender.ts';
import { verifyInstallation } from '../app-devices/installations.ts';
import type { EntityParams, ServerCallParams } from '../entity/entity-service.ts';
import { registerEntityService } from '../entity/register.ts';
import type { ServerApp } from '../types.ts';

/*
 * Push messages (issue 33, decision 055): the generic entity service over `push_messages` with the
 * message's states enforced on every outside path, `pushSends` by which staff send a test, send
 * now, schedule and cancel, and `pushReceipts` by which a device reports that a message reached it
 * or was opened.
 */

/** The status a create or patch writes, in plain data or a `$set`; undefined when it writes none. */
function statusWritten(data: unknown): unknown {
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as Record<string, unknown>;
  const set = record.$set as Record<string, unknown> | undefined;
  if (typeof set === 'object' && set !== null && 'status' in set) return set.status;
  return record.status;
}

const refused = (key: string, field = 'status') => new Conflict(key, { errors: { [field]: key } });

/**
 * The message's states on every outside path (REST, socket.io, the pages' calls): a create is a
 * draft or a scheduled message; a patch changes a message only while it is a draft or scheduled,
 * and its status only as PUSH_TRANSITIONS allows; a removal takes drafts and cancelled messages.
 * The state checked is also a condition of the write, so a message that started sending meanwhile
 * is not changed (a 409 either way). The statistics are read-only fields: no syntax writes them.
 */
async function messageRules(context: HookContext, next: NextFunction): Promise<void> {
  if (!context.params.provider || !['create', 'patch', 'remove'].includes(context.method)) return next();
  if (context.method === 'create') {
    const status = statusWritten(context.data);
    if (status !== undefined && status !== 'draft' && status !== 'scheduled') throw refused('push.transition');
    return next();
  }
  const knex = context.app.get('knex') as Knex;
  const id = String(context.id);
  const current = (await knex('push_messages').where({ id }).first('status')) as { status: PushStatus } | undefined;
  if (!current) return next();
  if (context.method === 'patch') {
    if (!PUSH_EDITABLE.includes(current.status)) throw refused('push.locked');
    const status = statusWritten(context.data);
    if (status !== undefined && !(PUSH_TRANSITIONS[current.status] as readonly unknown[]).includes(status))
      throw refused('push.transition');
  } else if (!PUSH_REMOVABLE.includes(current.status)) throw refused('push.notRemovable');
  const params = context.params as EntityParams;
  context.params = { ...params, query: { ...params.query, status: current.status } };
  try {
    await next();
  } catch (error) {
    // Found no longer in the state checked: it changed in between (a send started).
    if (error instanceof NotFound && (await knex('push_messages').where({ id }).first('id')))
      throw refused('push.changed');
    throw error;
  }
}

/** Announces a message's record (`patched`) at most once per `every` ms, whatever how often it changes. */
export class Announcer {
  private readonly last = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;
  private readonly every: number;
  private readonly announce: (id: string) => Promise<void>;
  private readonly logger: Logger;

  constructor(every: number, announce: (id: string) => Promise<void>, logger: Logger) {
    this.every = every;
    this.announce = announce;
    this.logger = logger;
  }

  touch(id: string): void {
    if (this.stopped || this.timers.has(id)) return;
    const wait = Math.max(0, (this.last.get(id) ?? 0) + this.every - Date.now());
    const timer = setTimeout(() => {
      this.timers.delete(id);
      this.last.set(id, Date.now());
      if (this.last.size > 10_000) this.last.clear();
      this.announce(id).catch((error: unknown) =>
        this.logger.warn({ err: error, message: id }, 'push message statistics not announced'),
      );
    }, wait);
    timer.unref();
    this.timers.set(id, timer);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

export interface PushSendAnswer {
  message: string;
  action: PushSendAction;
  status: PushStatus;
  /** A test send: whether the provider took it. */
  sent?: boolean;
  /** A test send that did not go: why (`unregistered`, `invalid`, `failed`). */
  reason?: string;
}

/**
 * Staff's actions on a message (`POST /api/pushSends { message, action }`): `test` sends it to its
 * test device now, changing nothing; `now` starts sending a draft or scheduled message at once;
 * `schedule` and `cancel` are the patches of its status, made as the caller (same rules, same
 * audit). A message in no state for the action is a 409.
 */
export class PushSendsService {
  private readonly app: ServerApp;
  private readonly sender: PushSender;

  constructor(app: ServerApp, sender: PushSender) {
    this.app = app;
    this.sender = sender;
  }

  async create(data: unknown, params: Params = {}): Promise<PushSendAnswer> {
    const parsed = pushSendSchema.safeParse(data);
    if (!parsed.success) throw new BadRequest('validation.invalid');
    const { message: id, action } = parsed.data;
    const knex = this.app.get('knex') as Knex;
    const message = (await knex('push_messages').where({ id }).first()) as PushMessageRow | undefined;
    if (!message) throw new NotFound('push.notFound');
    const answer = (status: string, extra: Partial<PushSendAnswer> = {}): PushSendAnswer => ({
      message: id,
      action,
      status: status as PushStatus,
      ...extra,
    });
    if (action === 'test') {
      const outcome = await this.sender.sendTest(message);
      if (outcome === 'noDevice') throw refused('push.noTestDevice', 'device');
      if (outcome === 'pushOff') throw refused('push.testDeviceOff', 'device');
      return answer(message.status, outcome.ok ? { sent: true } : { sent: false, reason: outcome.reason });
    }
    if (action === 'now') {
      if (!(await this.sender.sendNow(id))) throw refused('push.transition');
      return answer('sending');
    }
    const status = action === 'schedule' ? 'scheduled' : 'cancelled';
    // As the caller, through every rule an outside patch meets (the states, the audit log).
    const asCaller: ServerCallParams = { ...(params as ServerCallParams), provider: params.provider ?? 'rest' };
    const patched = await this.app.service('pushMessages').patch(id, { status }, asCaller);
    return answer(patched.status);
  }
}

const receiptSchema = z
  .object({
    message: z.string().min(1).max(64),
    deviceId: z.string().min(1).max(128),
    secret: z.string().min(1).max(200),
    event: z.enum(PUSH_EVENTS),
  })
  .strict();

export interface PushReceiptAnswer {
  message: string;
  event: PushEvent;
  /** Whether the message was sent to this device (a test send's report is answered, not counted). */
  recorded: boolean;
}

/**
 * A device's report (`POST /api/pushReceipts { message, deviceId, secret, event }`), public: the
 * installation proves itself with its secret (a 403 otherwise). `received` and `opened` count once
 * per device and message however often they come; an opening counts as a receipt too.
 */
export class PushReceiptsService {
  private readonly app: ServerApp;
  private readonly sender: PushSender;

  constructor(app: ServerApp, sender: PushSender) {
    this.app = app;
    this.sender = sender;
  }

  async create(data: unknown): Promise<PushReceiptAnswer> {
    const parsed = receiptSchema.safeParse(data);
    if (!parsed.success) throw new BadRequest('validation.invalid');
    const { message, deviceId, secret, event } = parsed.data;
    const device = await verifyInstallation(this.app.get('knex') as Knex, deviceId, secret);
    const recorded = await this.sender.report(message, device.id, event);
    return { message, event, recorded };
  }
}

/** The provider the settings name: FCM when its service account is configured, else the local one. */
export function pushProviderOf(settings: Config['push']): PushProvider {
  return settings.provider === 'fcm' && settings.fcm ? new FcmPushProvider(settings.fcm) : new LocalPushProvider();
}

/** The app's push sender (for the jobs, the services and tests). */
export function pushSenderOf(app: ServerApp): PushSender {
  const sender = app.get('pushSender') as PushSender | undefined;
  if (!sender) throw new Error('push messages are not configured');
  return sender;
}

/**
 * Push messages: the entity service, its send job and the periodic look at what is due, staff's
 * `pushSends` and the devices' `pushReceipts`. Statistics are announced as the message's `patched`
 * event, at most every half second per message; feathers-sync carries them to other instances.
 */
export function configurePushMessages(
  app: ServerApp,
  deps: { config: Config; knex: Knex; logger: Logger; jobs: JobQueue },
): PushSender {
  const { config, knex, logger, jobs } = deps;
  registerEntityService(app, definitions.pushMessages, { hooks: [messageRules] });
  const announcer = new Announcer(
    PUSH_RULES.announceMs,
    async (id) => {
      const record = await app.service('pushMessages').get(id);
      app.service('pushMessages').emit('patched', record);
    },
    logger,
  );
  const sender = new PushSender({
    knex,
    provider: pushProviderOf(config.push),
    jobs,
    logger,
    clock: () => clockOf(app)(),
    batchSize: config.push.batchSize,
    changed: (id) => announcer.touch(id),
  });
  app.set('pushSender', sender);
  jobs.define<{ message: string }>(
    PUSH_SEND_JOB,
    { retryLimit: 5, retryDelay: 5, retryDelayMax: 300, expireInSeconds: PUSH_RULES.expireSeconds },
    async ({ message }) => {
      const result = await sender.work(message, { shouldStop: () => jobs.stopping });
      logger.info({ message, result }, 'push message send');
    },
  );
  jobs.define(PUSH_DUE_JOB, { retryLimit: 0, retryDelay: 0, retryDelayMax: 0 }, () => sender.due());
  askPeriodically(app, jobs, PUSH_DUE_JOB, config.push.dueSeconds, logger);
  app.hooks({
    teardown: [
      async (_context: HookContext, next: NextFunction) => {
        announcer.stop();
        await next();
      },
    ],
  });

  const sends = describeService('pushSends', {
    summary: 'Staff’s actions on a push message',
    description:
      '`{message, action}`: `test` sends it to its test device (the message is left as it is), `now` starts ' +
      'sending it, `schedule` sends it on its date, `cancel` stops a scheduled one (decision 055). A move ' +
      'the message’s state does not allow is a 409.',
    access: { find: 'none', get: 'none', create: STAFF_ROLES, patch: 'none', remove: 'none' },
    methods: {
      create: {
        summary: 'Send a test, send now, schedule or cancel',
        request: pushSendSchema,
        answer: {
          type: 'object',
          required: ['message', 'action', 'status'],
          properties: {
            message: { type: 'string' },
            action: { type: 'string' },
            status: { type: 'string' },
            sent: { type: 'boolean' },
            reason: { type: 'string' },
          },
        },
        statuses: [404, 409],
      },
    },
  });
  useCustomService(app, 'pushSends', new PushSendsService(app, sender), sends, { methods: ['create'] });
  const receipts = describeService('pushReceipts', {
    summary: 'A device’s receipt or opening of a push message',
    description:
      'Public; the installation proves itself with its `deviceId` and `secret` (a 403 otherwise). Counted once ' +
      'per device and message however often it is sent; an opening counts as a receipt too.',
    access: { find: 'none', get: 'none', create: 'public', patch: 'none', remove: 'none' },
    methods: {
      create: {
        summary: 'Report a receipt or an opening',
        request: receiptSchema,
        answer: {
          type: 'object',
          required: ['message', 'event', 'recorded'],
          properties: { message: { type: 'string' }, event: { type: 'string' }, recorded: { type: 'boolean' } },
        },
        statuses: [404],
      },
    },
  });
  useCustomService(app, 'pushReceipts', new PushReceiptsService(app, sender), receipts, { methods: ['create'] });
  return sender;
}

declare module '../types.ts' {
  interface ServerServices {
    pushSends: PushSendsService;
    pushReceipts: PushReceiptsService;
  }
}
