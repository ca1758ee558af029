import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { PushEvent } from '../../domain/entities/push-messages.ts';
import { localized, isLocale, type I18nText } from '../../domain/locales.ts';
import { deliveryTime } from '../../domain/push/quiet-hours.ts';
import type { Clock } from '../clock.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { PushDelivery, PushOutcome, PushProvider } from './provider.ts';

/*
 * Sending push messages (issue 33, decision 055). A message's send is a durable job that first
 * writes one delivery row per device of its audience (unique per message and device), then works
 * through the rows that are due in batches: it claims a batch (`sending`, with this run's mark),
 * sends it through the provider and marks each row `sent` or `failed` in one transaction that also
 * adds to the message's counters. A restarted job carries on with the rows still `pending`; rows a
 * dead run had claimed are marked failed (`interrupted`) rather than sent again, since the provider
 * may already have delivered them: a device never gets a message twice.
 */

export const PUSH_SEND_JOB = 'push-messages.send';
export const PUSH_DUE_JOB = 'push-messages.due';

export const PUSH_RULES = {
  /** A claimed batch not marked within this long belongs to a run that died. */
  claimTimeoutMs: 10 * 60 * 1000,
  /** A message's statistics are announced at most this often. */
  announceMs: 500,
  /** A send job running longer than this is taken for lost (its process died) and tried again. */
  expireSeconds: 60 * 60,
} as const;

/*
 * The counters are statistics, not edits: they change without `updated_at`, which the back
 * office's editor compares to tell that someone else changed the message.
 */

/** A message as the send job reads it. */
export interface PushMessageRow {
  id: string;
  title: I18nText;
  body: I18nText;
  audience: string;
  audience_locale: string | null;
  audience_region: string | null;
  device_id: string | null;
  send_at: Date | null;
  urgent: boolean;
  status: string;
  targets_at: Date | null;
  /** The news item it is about: the apps open it when the message is tapped. */
  news_id: string | null;
}

/** How far one run of the send job went. */
export type WorkResult =
  /** Every delivery is done: the message is sent. */
  | 'sent'
  /** What was due is done; some deliveries wait for the end of their quiet hours. */
  | 'waiting'
  /** Stopped between two batches (the instance is stopping). */
  | 'stopped'
  /** Nothing to do: the message is not being sent. */
  | 'skipped';

export interface SenderOptions {
  knex: Knex;
  provider: PushProvider;
  jobs: JobQueue;
  logger: Logger;
  clock: Clock;
  batchSize: number;
  /** Told that a message's record changed (its statistics or state), to announce it. */
  changed: (messageId: string) => void;
}

/** The devices of a message's audience that take pushes. */
export function audienceOf(db: Knex | Knex.Transaction, message: PushMessageRow): Knex.QueryBuilder {
  const devices = db('app_devices as d').where('d.push_enabled', true).whereNotNull('d.push_token');
  switch (message.audience) {
    case 'users':
      return devices.whereNotNull('d.app_user_id');
    case 'locale':
      return devices.where('d.locale', message.audience_locale ?? '');
    case 'region':
      return devices.where('d.region', message.audience_region ?? '');
    case 'device':
      return devices.where('d.id', message.device_id ?? '');
    case 'registrants':
      return devices.whereIn(
        'd.app_user_id',
        db('event_registrations')
          .where('news_id', message.news_id ?? '')
          .select('app_user_id'),
      );
    default:
      return devices;
  }
}

/**
 * The notification a device gets, in its own language, else English. Its data name the message
 * (for the device's reports) and the news item it is about, which the apps open when it is tapped.
 */
export function notificationFor(
  message: Pick<PushMessageRow, 'id' | 'title' | 'body'> & { news_id?: string | null },
  locale: string,
  extra: Record<string, string> = {},
): PushDelivery['notification'] {
  const language = isLocale(locale) ? locale : 'en';
  return {
    title: localized(message.title, language),
    body: localized(message.body, language),
    data: { message: message.id, ...(message.news_id ? { news: message.news_id } : {}), ...extra },
  };
}

export class PushSender {
  private readonly knex: Knex;
  readonly provider: PushProvider;
  private readonly jobs: JobQueue;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly changed: (messageId: string) => void;
  batchSize: number;

  constructor(options: SenderOptions) {
    this.knex = options.knex;
    this.provider = options.provider;
    this.jobs = options.jobs;
    this.logger = options.logger;
    this.clock = options.clock;
    this.batchSize = options.batchSize;
    this.changed = options.changed;
  }

  /**
   * Staff's "send now": a draft or scheduled message becomes `sending`, dated now, and its job is
   * sent in the same transaction. False when the message is in no state to be sent.
   */
  async sendNow(id: string): Promise<boolean> {
    const now = this.clock();
    const started = await this.knex.transaction(async (trx) => {
      const [row] = (await trx('push_messages')
        .where({ id })
        .whereIn('status', ['draft', 'scheduled'])
        .update({ status: 'sending', send_at: now, updated_at: now })
        .returning('id')) as { id: string }[];
      if (!row) return false;
      await this.jobs.send(PUSH_SEND_JOB, { message: id }, trx);
      return true;
    });
    if (started) {
      this.jobs.wake(PUSH_SEND_JOB);
      this.changed(id);
    }
    return started;
  }

  /**
   * The periodic look at what is due (one instance per period): scheduled messages whose date has
   * come start sending; a message with deliveries due again (after quiet hours) or claimed by a run
   * that died gets a job; a message with nothing left to do is marked sent.
   */
  async due(): Promise<void> {
    const now = this.clock();
    const started = await this.knex.transaction(async (trx) => {
      const rows = (await trx('push_messages')
        .where('status', 'scheduled')
        .where('send_at', '<=', now)
        .update({ status: 'sending', updated_at: now })
        .returning('id')) as { id: string }[];
      for (const row of rows) await this.jobs.send(PUSH_SEND_JOB, { message: row.id }, trx);
      return rows.map((row) => row.id);
    });
    const stale = new Date(now.getTime() - PUSH_RULES.claimTimeoutMs);
    const waiting = (await this.knex('push_messages as m')
      .where('m.status', 'sending')
      .whereNotIn('m.id', started)
      .where((where) =>
        where.whereNull('m.targets_at').orWhereExists((rows) =>
          rows
            .select(this.knex.raw('1'))
            .from('push_deliveries as p')
            .whereRaw('p.message_id = m.id')
            .where((state) =>
              state
                .where((pending) => pending.where('p.state', 'pending').where('p.due_at', '<=', now))
                .orWhere((claimed) => claimed.where('p.state', 'sending').where('p.claimed_at', '<', stale)),
            ),
        ),
      )
      .pluck('m.id')) as string[];
    for (const id of waiting) await this.jobs.send(PUSH_SEND_JOB, { message: id });
    if (started.length + waiting.length > 0) this.jobs.wake(PUSH_SEND_JOB);
    for (const id of started) this.changed(id);
    const finished = await this.finish();
    for (const id of finished) this.changed(id);
  }

  /**
   * Marks sent every sending message whose deliveries are all done (one: `only`); answers their ids.
   * The messages' rows are locked first and their deliveries read by the next statement, so
   * deliveries added meanwhile under that lock (`addTargets`) are seen: a message is never marked
   * sent with deliveries still to go. (The locks are short: a step's marks, a report, an addition.)
   */
  private async finish(only?: string): Promise<string[]> {
    const now = this.clock();
    return this.knex.transaction(async (trx) => {
      const candidates = trx('push_messages').where('status', 'sending').whereNotNull('targets_at');
      if (only) candidates.where('id', only);
      const locked = (await candidates.orderBy('id').forUpdate().pluck('id')) as string[];
      if (locked.length === 0) return [];
      const rows = (await trx('push_messages as m')
        .whereIn('m.id', locked)
        .whereNotExists((rows) =>
          rows
            .select(trx.raw('1'))
            .from('push_deliveries as p')
            .whereRaw('p.message_id = m.id')
            .whereIn('p.state', ['pending', 'sending']),
        )
        .update({ status: 'sent', sent_at: now, updated_at: now })
        .returning('m.id')) as { id: string }[];
      return rows.map((row) => row.id);
    });
  }

  /**
   * Writes a message's deliveries, once: one row per device of its audience, due at the message's
   * date or, in the device's quiet hours (unless urgent), at the next 08:00 on its clock. The
   * devices' time zones are few: each one's time is worked out once (domain/push/quiet-hours.ts)
   * and the rows are written by one INSERT … SELECT, whatever the number of devices.
   */
  private async writeTargets(message: PushMessageRow): Promise<void> {
    const now = this.clock();
    await this.knex.transaction(async (trx) => {
      const locked = await trx('push_messages')
        .where({ id: message.id, status: 'sending' })
        .whereNull('targets_at')
        .forUpdate()
        .first('id');
      if (!locked) return;
      await this.insertTargets(trx, message, message.send_at ?? now);
      await trx('push_messages')
        .where({ id: message.id })
        .update({
          targeted: trx('push_deliveries').where('message_id', message.id).count('*'),
          targets_at: now,
          updated_at: now,
        });
    });
    this.changed(message.id);
  }

  /**
   * Writes a delivery for each device of the message's audience that has none yet, due at `due`
   * or after the device's quiet hours; answers how many were written.
   */
  private async insertTargets(trx: Knex.Transaction, message: PushMessageRow, due: Date): Promise<number> {
    const zones = (await audienceOf(trx, message).distinct('d.time_zone').pluck('d.time_zone')) as string[];
    if (zones.length === 0) return 0;
    const times = zones.flatMap((zone) => [zone, deliveryTime(due, zone, message.urgent)]);
    const select = audienceOf(trx, message)
      .join(
        trx.raw(`(values ${zones.map(() => '(?::text, ?::timestamptz)').join(', ')}) as z (zone, due)`, times),
        'z.zone',
        'd.time_zone',
      )
      .select(trx.raw('?::text', [message.id]), 'd.id', 'z.due');
    const inserted = (await trx.raw(
      'insert into push_deliveries (message_id, device_id, due_at) ? on conflict (message_id, device_id) do nothing',
      [select],
    )) as { rowCount: number | null };
    return inserted.rowCount ?? 0;
  }

  /**
   * Adds to a message whose deliveries were written the devices that have joined its audience
   * since (an event's late registrants, for its reminder): each gets one delivery, due now (after
   * its quiet hours), and the message goes on sending, with a job, in the same transaction. The
   * message's row is locked first, so `finish` cannot mark it sent past the deliveries added.
   * Answers how many were added.
   */
  async addTargets(id: string): Promise<number> {
    const now = this.clock();
    const added = await this.knex.transaction(async (trx) => {
      const message = (await trx('push_messages')
        .where({ id })
        .whereIn('status', ['sending', 'sent'])
        .whereNotNull('targets_at')
        .forUpdate()
        .first()) as PushMessageRow | undefined;
      if (!message) return 0;
      const count = await this.insertTargets(trx, message, now);
      if (count === 0) return 0;
      await trx('push_messages')
        .where({ id })
        .update({
          targeted: trx('push_deliveries').where('message_id', id).count('*'),
          status: 'sending',
          sent_at: null,
          updated_at: now,
        });
      await this.jobs.send(PUSH_SEND_JOB, { message: id }, trx);
      return count;
    });
    if (added > 0) {
      this.jobs.wake(PUSH_SEND_JOB);
      this.changed(id);
    }
    return added;
  }

  /**
   * One run of a message's send job: writes its deliveries if they are not yet written, then sends
   * what is due batch by batch until nothing due is left (or `shouldStop` says so between two
   * batches), and marks the message sent when every delivery is done.
   */
  async work(id: string, options: { shouldStop?: () => boolean } = {}): Promise<WorkResult> {
    const message = (await this.knex('push_messages').where({ id }).first()) as PushMessageRow | undefined;
    if (!message || message.status !== 'sending') return 'skipped';
    if (!message.targets_at) await this.writeTargets(message);
    await this.expireClaims(id);
    const run = randomUUID();
    for (;;) {
      if (options.shouldStop?.()) return 'stopped';
      const sent = await this.sendBatch(message, run);
      if (sent === 0) break;
    }
    const [finished] = await this.finish(id);
    if (finished) {
      this.changed(id);
      return 'sent';
    }
    return 'waiting';
  }

  /** Rows a run that died had claimed: failed, never sent again (the provider may have delivered them). */
  private async expireClaims(id: string): Promise<void> {
    const now = this.clock();
    const stale = new Date(now.getTime() - PUSH_RULES.claimTimeoutMs);
    const expired = await this.knex.transaction(async (trx) => {
      const rows = await trx('push_deliveries')
        .where({ message_id: id, state: 'sending' })
        .where('claimed_at', '<', stale)
        .update({ state: 'failed', error: 'interrupted: the send stopped before this delivery was confirmed' })
        .returning('id');
      if (rows.length > 0)
        await trx('push_messages')
          .where({ id })
          .update({ failed: trx.raw('failed + ?', [rows.length]) });
      return rows.length;
    });
    if (expired > 0) {
      this.logger.warn({ message: id, deliveries: expired }, 'push deliveries of an interrupted send marked failed');
      this.changed(id);
    }
  }

  /** Claims, sends and marks one batch of due deliveries; answers how many were claimed. */
  private async sendBatch(message: PushMessageRow, run: string): Promise<number> {
    const now = this.clock();
    const claimed = (
      await this.knex.raw(
        `update push_deliveries set state = 'sending', claim = ?, claimed_at = ?
         where id in (
           select id from push_deliveries
           where message_id = ? and state = 'pending' and due_at <= ?
           order by due_at, id limit ? for update skip locked
         )
         returning id, device_id`,
        [run, now, message.id, now, this.batchSize],
      )
    ).rows as { id: string; device_id: string }[];
    if (claimed.length === 0) return 0;
    const devices = (await this.knex('app_devices')
      .whereIn(
        'id',
        claimed.map((row) => row.device_id),
      )
      .select('id', 'push_token', 'locale', 'push_enabled')) as {
      id: string;
      push_token: string | null;
      locale: string;
      push_enabled: boolean;
    }[];
    const byId = new Map(devices.map((device) => [device.id, device]));
    // An event's registrant who cancelled since the audience was chosen is no longer reminded of it.
    const registered =
      message.audience === 'registrants'
        ? new Set(
            (await audienceOf(this.knex, message)
              .whereIn(
                'd.id',
                claimed.map((row) => row.device_id),
              )
              .pluck('d.id')) as string[],
          )
        : null;
    // A device that turned its push off (or lost its token) since the audience was chosen gets nothing.
    const outcomes = new Map<string, PushOutcome>();
    const sendable: { row: { id: string; device_id: string }; delivery: PushDelivery }[] = [];
    for (const row of claimed) {
      const device = byId.get(row.device_id);
      if (!device?.push_enabled || !device.push_token)
        outcomes.set(row.id, { ok: false, reason: 'failed', detail: 'push turned off on the device meanwhile' });
      else if (registered && !registered.has(row.device_id))
        outcomes.set(row.id, { ok: false, reason: 'failed', detail: 'no longer registered for the event' });
      else
        sendable.push({
          row,
          delivery: { token: device.push_token, notification: notificationFor(message, device.locale) },
        });
    }
    if (sendable.length > 0) {
      let answers: PushOutcome[];
      try {
        answers = await this.provider.send(sendable.map((item) => item.delivery));
      } catch (error) {
        // A provider that throws (a refused service account) fails the whole batch with its reason.
        const detail = error instanceof Error ? error.message : String(error);
        answers = sendable.map(() => ({ ok: false, reason: 'failed', detail }));
      }
      sendable.forEach((item, index) =>
        outcomes.set(
          item.row.id,
          answers[index] ?? { ok: false, reason: 'failed', detail: 'the provider gave no answer for it' },
        ),
      );
    }
    await this.mark(message.id, run, claimed, outcomes);
    return claimed.length;
  }

  /** Marks a batch's rows and adds to the message's counters, in one transaction. */
  private async mark(
    messageId: string,
    run: string,
    claimed: readonly { id: string; device_id: string }[],
    outcomes: ReadonlyMap<string, PushOutcome>,
  ): Promise<void> {
    const now = this.clock();
    const ids: string[] = [];
    const states: string[] = [];
    // Empty for none: a text array of the driver's holds no nulls here (nullif in the statement).
    const providerIds: string[] = [];
    const errors: string[] = [];
    const gone: string[] = [];
    // A token the provider refuses as invalid is the device's, not the message's, when the same
    // message went to another device in the same step: then its push is turned off too.
    const messageAccepted = [...outcomes.values()].some((outcome) => outcome.ok);
    for (const row of claimed) {
      const outcome = outcomes.get(row.id) ?? { ok: false, reason: 'failed', detail: 'no outcome' };
      ids.push(row.id);
      states.push(outcome.ok ? 'sent' : 'failed');
      providerIds.push(outcome.ok ? outcome.providerId.slice(0, 255) : '');
      errors.push(outcome.ok ? '' : `${outcome.reason}: ${outcome.detail}`.slice(0, 300));
      if (!outcome.ok && (outcome.reason === 'unregistered' || (outcome.reason === 'invalid' && messageAccepted)))
        gone.push(row.device_id);
    }
    await this.knex.transaction(async (trx) => {
      const marked = (
        await trx.raw(
          `update push_deliveries as p
           set state = v.state, provider_id = nullif(v.provider_id, ''), error = nullif(v.error, ''),
               sent_at = case when v.state = 'sent' then ?::timestamptz end
           from unnest(?::bigint[], ?::text[], ?::text[], ?::text[]) as v (id, state, provider_id, error)
           where p.id = v.id and p.claim = ? and p.state = 'sending'
           returning p.state`,
          [now, ids, states, providerIds, errors, run] satisfies Knex.Value[],
        )
      ).rows as { state: string }[];
      const sent = marked.filter((row) => row.state === 'sent').length;
      const failed = marked.length - sent;
      if (marked.length > 0)
        await trx('push_messages')
          .where({ id: messageId })
          .update({ sent: trx.raw('sent + ?', [sent]), failed: trx.raw('failed + ?', [failed]) });
      // The app is gone from these devices (or their token is refused): no more pushes to them until
      // they register a token again.
      if (gone.length > 0)
        await trx('app_devices').whereIn('id', gone).update({ push_enabled: false, updated_at: now });
    });
    this.changed(messageId);
  }

  /**
   * A test send: the message, in the device's language, to its test device alone, now. Nothing is
   * recorded and the message's state and statistics stay as they are.
   */
  async sendTest(message: PushMessageRow): Promise<PushOutcome | 'noDevice' | 'pushOff'> {
    if (!message.device_id) return 'noDevice';
    const device = (await this.knex('app_devices')
      .where({ id: message.device_id })
      .first('id', 'push_token', 'locale', 'push_enabled')) as
      { id: string; push_token: string | null; locale: string; push_enabled: boolean } | undefined;
    if (!device) return 'noDevice';
    if (!device.push_enabled || !device.push_token) return 'pushOff';
    const [outcome] = await this.provider.send([
      { token: device.push_token, notification: notificationFor(message, device.locale, { test: '1' }) },
    ]);
    if (outcome && !outcome.ok && outcome.reason === 'unregistered')
      await this.knex('app_devices').where({ id: device.id }).update({ push_enabled: false, updated_at: this.clock() });
    return outcome ?? { ok: false, reason: 'failed', detail: 'no answer' };
  }

  /**
   * A device's report that a message reached it or was opened (an opening is a receipt too). Each
   * time is set once, by an UPDATE that only finds the row while the time is empty, and the
   * counters grow by what was set, in the same transaction: however often and however concurrently
   * a device reports, it counts once. Answers whether the device was among the message's deliveries.
   */
  async report(messageId: string, deviceRowId: string, event: PushEvent): Promise<boolean> {
    const now = this.clock();
    const result = await this.knex.transaction(async (trx) => {
      const row = { message_id: messageId, device_id: deviceRowId };
      const received = await trx('push_deliveries').where(row).whereNull('received_at').update({ received_at: now });
      const opened =
        event === 'opened'
          ? await trx('push_deliveries').where(row).whereNull('opened_at').update({ opened_at: now })
          : 0;
      if (received + opened > 0) {
        await trx('push_messages')
          .where({ id: messageId })
          .update({ received: trx.raw('received + ?', [received]), opened: trx.raw('opened + ?', [opened]) });
        return { known: true, counted: true };
      }
      return { known: Boolean(await trx('push_deliveries').where(row).first('id')), counted: false };
    });
    if (result.counted) this.changed(messageId);
    return result.known;
  }
}
