import type { HookContext, NextFunction } from '@feathersjs/feathers';
import { BadRequest } from '@feathersjs/errors';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { askPeriodically } from '../../jobs/jobs.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { z } from '../../../domain/zod.ts';
import { AD_TYPES, campaignKeySchema } from '../../../domain/entities/ads.ts';
import { definitions } from '../../../domain/entities/index.ts';
import type { AdPick } from '../../../domain/entities/services.ts';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import { clockOf } from '../../clock.ts';
import { RECORD_ID } from '../../db/ids.ts';
import { verifyInstallation } from '../app-devices/installations.ts';
import type { EntityService } from '../entity/entity-service.ts';
import { registerEntityService } from '../entity/register.ts';
import { invalid } from '../entity/validate.ts';
import type { ServerApp } from '../types.ts';
import { pickAd, type RandomSource } from './picking.ts';
import {
  eventMatters,
  type Eligible,
  MAX_AGE_MS,
  readEligible,
  servable,
  type ServedAd,
  STALE_LIMIT_MS,
} from './serving.ts';
import { readSignedAdId, signAdId } from './signed-ids.ts';
import { AD_PRUNE_JOB, AD_PRUNE_SECONDS, pruneAdRows, REPORTING_ZONE } from './pruning.ts';

/*
 * Ads, campaigns and products (decision 057). The three are generic entity services; this folder
 * adds what is their own: an ad's `meet` is the server's to set; the apps ask `adPicks` for an ad
 * and report views and clicks to `adReports`, each counted once per device, ad and hour; staff
 * see an ad's counts by day through `adDays`, and its counts move on their table through the ads'
 * own events, at most one a second for each ad.
 */

/** How often a device is shown the same ad in an hour, at most. */
export const FREQUENCY_CAP = 3;
/** How long after an ad's expiry a view or click made before it is still counted (the app may send it late). */
export const REPORT_GRACE_MS = 60 * 60 * 1000;
/** At most one event a second for each ad whose counts move; a change of status is told at once. */
export const COUNT_EVENT_INTERVAL_MS = 1_000;
/** How many days `adDays` answers, most recent first. */
export const AD_DAYS = 60;

export const REPORT_KINDS = ['view', 'click'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

const pickRequestSchema = z
  .object({
    adType: z.enum(AD_TYPES),
    deviceId: z.string().max(128).optional(),
    secret: z.string().max(200).optional(),
    campaign: campaignKeySchema.optional(),
  })
  .strict();

const showcaseQuerySchema = z.object({ campaign: campaignKeySchema, adType: z.enum(AD_TYPES).optional() }).strict();

const reportRequestSchema = z
  .object({
    ad: z.string().max(200),
    kind: z.enum(REPORT_KINDS),
    deviceId: z.string().max(128),
    secret: z.string().max(200),
  })
  .strict();

export type { AdPick };

export interface AdPickAnswer {
  ad: AdPick | null;
}

export interface AdReportAnswer {
  /** False when this device's view or click of the ad was already counted this hour. */
  counted: boolean;
}

export type AdDay = { day: string; views: number; clicks: number };

function parsed<T>(schema: z.ZodType<T>, data: unknown): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0] ?? '_')] ??= 'validation.invalid';
  throw invalid(errors);
}

const hourOf = (now: Date) => new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
const attachmentUrl = (id: string | null) => (id ? `/api/attachments/${id}` : null);

/** The published ads each instance serves from, read again when older than `MAX_AGE_MS` or when one changes. */
class EligibleAds {
  private current: Eligible | null = null;
  private loading: Promise<Eligible> | undefined;
  private generation = 0;

  private readonly knex: Knex;
  private readonly clock: () => Date;

  constructor(knex: Knex, clock: () => Date) {
    this.knex = knex;
    this.clock = clock;
  }

  async read(): Promise<Eligible> {
    const held = this.current;
    const age = held ? Date.now() - held.readAt : Number.POSITIVE_INFINITY;
    if (held && age < MAX_AGE_MS) return held;
    if (!this.loading) {
      const generation = this.generation;
      const startedAt = Date.now();
      const loading = readEligible(this.knex, this.clock()).then((eligible) => {
        const read = { ...eligible, readAt: startedAt };
        if (generation === this.generation) this.current = read;
        return read;
      });
      this.loading = loading;
      void loading.finally(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    // While a copy is read again, picks go on from the one held as long as it is younger than
    // `STALE_LIMIT_MS`; one dropped by an event (or older) waits for the new one.
    if (held && age < STALE_LIMIT_MS) return held;
    return this.loading;
  }

  /** An ad's or campaign's event: drops the copy when it changes what picks read. */
  changed(record: Record<string, unknown> | null): void {
    if (record && !eventMatters(this.current, record)) return;
    this.generation += 1;
    this.current = null;
    this.loading = undefined;
  }
}

/** `adPicks`: one ad of a type for a placement (decision 057). Anyone; a device that proves itself is capped. */
export class AdPicksService {
  private readonly app: ServerApp;
  private readonly knex: Knex;
  private readonly secret: string;
  readonly eligible: EligibleAds;

  constructor(app: ServerApp, knex: Knex, secret: string, eligible: EligibleAds) {
    this.app = app;
    this.knex = knex;
    this.secret = secret;
    this.eligible = eligible;
  }

  private random(): RandomSource {
    const random = this.app.get('adRandom' as never) as unknown;
    return typeof random === 'function' ? (random as RandomSource) : Math.random;
  }

  /**
   * Every ad a campaign shows now (of one type, or all), by weight, most first: what its microsite
   * lists. Nothing is picked or capped; an unknown or ended campaign has none.
   */
  async find(params: { query?: Record<string, unknown> } = {}): Promise<AdPick[]> {
    const query = parsed(showcaseQuerySchema, params.query ?? {});
    const now = clockOf(this.app)();
    const eligible = await this.eligible.read();
    const campaign = eligible.byKey.get(query.campaign);
    if (!campaign) return [];
    return [...eligible.byId.values()]
      .filter(
        (ad) => (query.adType === undefined || ad.adType === query.adType) && servable(ad, eligible, now, campaign),
      )
      .sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id))
      .map((ad) => this.shown(ad));
  }

  private shown(ad: ServedAd): AdPick {
    return {
      id: signAdId(this.secret, ad.id, ad.expiry),
      adType: ad.adType,
      name: ad.name,
      media: attachmentUrl(ad.media),
      smallImage: attachmentUrl(ad.smallImage),
      targetLink: ad.targetLink,
    };
  }

  async create(data: unknown): Promise<AdPickAnswer> {
    const request = parsed(pickRequestSchema, data);
    const device =
      request.deviceId === undefined ? null : await verifyInstallation(this.knex, request.deviceId, request.secret);
    const now = clockOf(this.app)();
    const eligible = await this.eligible.read();
    const campaign = request.campaign === undefined ? undefined : eligible.byKey.get(request.campaign);
    if (request.campaign !== undefined && !campaign) return { ad: null };
    const candidates = (eligible.byType.get(request.adType) ?? []).filter((ad) =>
      servable(ad, eligible, now, campaign),
    );
    if (candidates.length === 0) return { ad: null };
    const hour = hourOf(now);
    const excluded = new Set<string>();
    if (device) {
      const capped = (await this.knex('ad_picks')
        .where({ device_id: device.id, hour })
        .andWhere('picks', '>=', FREQUENCY_CAP)
        .pluck('ad_id')) as string[];
      for (const id of capped) excluded.add(id);
    }
    const random = this.random();
    for (let tries = 0; tries <= candidates.length; tries += 1) {
      const ad = pickAd(candidates, random, excluded);
      if (!ad) return { ad: null };
      if (device) {
        // Counted and capped in one statement: a pick past the cap changes nothing and picks again.
        const { rows } = await this.knex.raw<{ rows: unknown[] }>(
          `insert into ad_picks (device_id, hour, ad_id, picks) values (?, ?, ?, 1)
           on conflict (device_id, hour, ad_id) do update set picks = ad_picks.picks + 1
           where ad_picks.picks < ? returning picks`,
          [device.id, hour, ad.id, FREQUENCY_CAP],
        );
        if (rows.length === 0) {
          excluded.add(ad.id);
          continue;
        }
      }
      return { ad: this.shown(ad) };
    }
    return { ad: null };
  }
}

/**
 * An ad's counts told to staff's tables: at once when its status changes, otherwise at most once
 * each `COUNT_EVENT_INTERVAL_MS` (the last state within it), as the ads service's own `patched`
 * event, which feathers-sync carries to every instance.
 */
class CountEvents {
  private readonly told = new Map<string, { at: number; status: unknown; timer?: NodeJS.Timeout; latest?: object }>();

  private readonly app: ServerApp;

  constructor(app: ServerApp) {
    this.app = app;
  }

  private emit(record: Record<string, unknown>): void {
    const service = this.app.service('ads');
    const context = { app: this.app, service, path: 'ads', method: 'patch', params: {}, type: 'around' };
    (service as unknown as { emit(event: string, data: unknown, context: unknown): void }).emit('patched', record, {
      ...context,
      result: record,
      dispatch: record,
      event: 'patched',
    });
  }

  tell(record: Record<string, unknown>): void {
    const id = String(record._id);
    const now = Date.now();
    const last = this.told.get(id);
    if (!last || last.status !== record.status || now - last.at >= COUNT_EVENT_INTERVAL_MS) {
      if (last?.timer) clearTimeout(last.timer);
      this.told.set(id, { at: now, status: record.status });
      this.emit(record);
      return;
    }
    last.latest = record;
    last.timer ??= setTimeout(
      () => {
        const entry = this.told.get(id);
        if (!entry?.latest) return;
        const latest = entry.latest as Record<string, unknown>;
        this.told.set(id, { at: Date.now(), status: latest.status });
        this.emit(latest);
      },
      COUNT_EVENT_INTERVAL_MS - (now - last.at),
    );
    last.timer.unref();
  }
}

/** `adReports`: a device's view or click of an ad it was served, counted once per device, ad and hour. */
export class AdReportsService {
  private readonly app: ServerApp;
  private readonly knex: Knex;
  private readonly secret: string;
  private readonly events: CountEvents;

  constructor(app: ServerApp, knex: Knex, secret: string, events: CountEvents) {
    this.app = app;
    this.knex = knex;
    this.secret = secret;
    this.events = events;
  }

  async create(data: unknown): Promise<AdReportAnswer> {
    const request = parsed(reportRequestSchema, data);
    const signed = readSignedAdId(this.secret, request.ad);
    if (!signed) throw invalid({ ad: 'ads.unknownAd' });
    const device = await verifyInstallation(this.knex, request.deviceId, request.secret);
    const now = clockOf(this.app)();
    if (signed.expiry && now.getTime() >= signed.expiry.getTime() + REPORT_GRACE_MS)
      throw new BadRequest('ads.expired', { errors: { ad: 'ads.expired' } });
    const column = request.kind === 'view' ? 'view_count' : 'click_count';
    const service = this.app.service('ads') as unknown as EntityService;
    // The report's row and the count go up in one statement: a report already made this hour
    // inserts nothing and so counts nothing, however many arrive at once.
    const { rows } = await this.knex.raw<{ rows: Record<string, unknown>[] }>(
      `with counted as (
         insert into ad_reports (ad_id, device_id, hour, kind)
         select id, ?, ?, ? from ads where id = ?
         on conflict do nothing
         returning ad_id
       )
       update ads set ?? = ?? + 1, updated_at = now()
       where id in (select ad_id from counted)
       returning ${service.fields.publicColumns.map(() => '??').join(', ')}`,
      [device.id, hourOf(now), request.kind, signed.adId, column, column, ...service.fields.publicColumns],
    );
    const row = rows[0];
    if (!row) return { counted: false };
    this.events.tell(service.fields.toRecord(row));
    return { counted: true };
  }
}

/**
 * `adDays`: an ad's views and clicks by day (Hong Kong's), for its page in the back office. Staff.
 * The days of pruned hours come from `ad_days`, the rest from the reports still held: a day the
 * pruning has reached in part is the sum of both.
 */
export class AdDaysService {
  private readonly knex: Knex;

  constructor(knex: Knex) {
    this.knex = knex;
  }

  async find(params: { query?: Record<string, unknown> } = {}): Promise<AdDay[]> {
    const ad = params.query?.ad;
    if (typeof ad !== 'string' || !RECORD_ID.test(ad)) throw invalid({ ad: 'validation.required' });
    const { rows } = await this.knex.raw<{ rows: { day: string; views: string; clicks: string }[] }>(
      `select day, sum(views) as views, sum(clicks) as clicks from (
         select to_char(day, 'YYYY-MM-DD') as day, views, clicks from ad_days where ad_id = ?
         union all
         select to_char(hour at time zone ?, 'YYYY-MM-DD'),
                count(*) filter (where kind = 'view'), count(*) filter (where kind = 'click')
         from ad_reports where ad_id = ? group by 1
       ) as counted
       group by day order by day desc limit ?`,
      [ad, REPORTING_ZONE, ad, AD_DAYS],
    );
    return rows.map((row) => ({ day: row.day, views: Number(row.views), clicks: Number(row.clicks) }));
  }
}

/** Whether data written to an ad, in any syntax, sets its status to `meet`. */
function setsMeet(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const record = data as Record<string, unknown>;
  const set = record.$set as Record<string, unknown> | undefined;
  return record.status === 'meet' || (typeof set === 'object' && set !== null && set.status === 'meet');
}

/** `meet` is the server's: an outside create or patch that sets it is refused, on every transport. */
async function meetIsTheServers(context: HookContext, next: NextFunction): Promise<void> {
  if (context.params.provider && (context.method === 'create' || context.method === 'patch') && setsMeet(context.data))
    throw invalid({ status: 'validation.meetByServer' });
  await next();
}

export function configureAds(
  app: ServerApp,
  options: { knex: Knex; secret: string; jobs: JobQueue; logger: Logger },
): void {
  const { knex, secret, jobs, logger } = options;
  registerEntityService(app, definitions.ads, { hooks: [meetIsTheServers] });
  registerEntityService(app, definitions.campaigns);
  registerEntityService(app, definitions.products);

  const eligible = new EligibleAds(knex, () => clockOf(app)());
  for (const event of ['created', 'patched', 'removed'] as const) {
    app
      .service('ads')
      .on(event, (record: unknown) =>
        eligible.changed(event === 'removed' ? null : (record as Record<string, unknown>)),
      );
    app.service('campaigns').on(event, () => eligible.changed(null));
  }
  const events = new CountEvents(app);
  // The hourly rows past their hour go, their counts by day kept (pruning.ts).
  jobs.define(AD_PRUNE_JOB, { retryLimit: 3, retryDelay: 60, retryDelayMax: 600 }, async () => {
    const removed = await pruneAdRows(knex, clockOf(app)());
    logger.info(removed, 'ad reports and picks pruned');
  });
  askPeriodically(app, jobs, AD_PRUNE_JOB, AD_PRUNE_SECONDS, logger);

  const pick = {
    type: ['object', 'null'],
    required: ['id', 'adType', 'name', 'media', 'smallImage', 'targetLink'],
    properties: {
      id: { type: 'string', description: 'The signed id a view or click is reported with.' },
      adType: { type: 'string', enum: [...AD_TYPES] },
      name: { type: 'object', additionalProperties: { type: 'string' } },
      media: { type: ['string', 'null'] },
      smallImage: { type: ['string', 'null'] },
      targetLink: { type: ['string', 'null'] },
    },
  };
  const picks = describeService('adPicks', {
    summary: 'An ad for a placement',
    description:
      'Among the published ads of the type inside their window (and of a live campaign), each takes part with ' +
      'its probability, then one is chosen by weight; a device that proves itself sees an ad at most 3 times an ' +
      'hour (decision 057). `find` lists a campaign’s live ads for its microsite.',
    access: { find: 'public', get: 'none', create: 'public', patch: 'none', remove: 'none' },
    methods: {
      find: { summary: 'A campaign’s live ads (`?campaign=key`)', answer: { type: 'array', items: pick } },
      create: {
        summary: 'Pick an ad of a type',
        request: pickRequestSchema,
        answer: { type: 'object', required: ['ad'], properties: { ad: pick } },
      },
    },
  });
  const reports = describeService('adReports', {
    summary: 'A device’s view or click of an ad',
    description:
      'The signed id of the pick, and the installation’s `deviceId` and `secret` (a 403 otherwise); counted once ' +
      'per device, ad, kind and hour.',
    access: { find: 'none', get: 'none', create: 'public', patch: 'none', remove: 'none' },
    methods: {
      create: {
        summary: 'Report a view or a click',
        request: reportRequestSchema,
        answer: { type: 'object', required: ['counted'], properties: { counted: { type: 'boolean' } } },
      },
    },
  });
  const days = describeService('adDays', {
    summary: 'An ad’s views and clicks by day',
    description: 'Staff: `?ad={id}`, the most recent day first, days in Hong Kong time.',
    access: { find: ['editor', 'admin'], get: 'none', create: 'none', patch: 'none', remove: 'none' },
    methods: {
      find: {
        summary: 'Views and clicks by day',
        answer: {
          type: 'array',
          items: {
            type: 'object',
            required: ['day', 'views', 'clicks'],
            properties: { day: { type: 'string' }, views: { type: 'integer' }, clicks: { type: 'integer' } },
          },
        },
      },
    },
  });
  useCustomService(app, 'adPicks', new AdPicksService(app, knex, secret, eligible), picks, {
    methods: ['find', 'create'],
  });
  useCustomService(app, 'adReports', new AdReportsService(app, knex, secret, events), reports, { methods: ['create'] });
  useCustomService(app, 'adDays', new AdDaysService(knex), days, { methods: ['find'] });
}

// These services' entries in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    adPicks: AdPicksService;
    adReports: AdReportsService;
    adDays: AdDaysService;
  }
}
