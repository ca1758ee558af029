import { Forbidden, MethodNotAllowed, NotFound, TooManyRequests } from '@feathersjs/errors';
import type { HookContext, NextFunction, Params } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { z } from '../../../domain/zod.ts';
import type { MissingTranslation } from '../../../domain/entities/services.ts';
import { LOCALES, type Locale } from '../../../domain/locales.ts';
import { STAFF_ROLES } from '../../../domain/entities/types.ts';
import { callerAddressKey } from '../../auth/address.ts';
import { consume } from '../../auth/limits.ts';
import { newId } from '../../db/ids.ts';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import { fieldErrors, invalid } from '../entity/validate.ts';
import type { ServerApp } from '../types.ts';

export const reportSchema = z
  .object({
    key: z.string().regex(/^[A-Za-z0-9_.-]{1,200}$/),
    url: z.string().max(500).default(''),
    locale: z.enum(LOCALES),
  })
  .strict();

/** One batch from a page: up to 100 reports. */
const batchSchema = z.union([reportSchema, z.array(reportSchema).min(1).max(100)]);

/** A bound on distinct keys kept, so reports cannot fill the database. */
export const MAX_MISSING_KEYS = 5000;

interface Row {
  id: string;
  /** Written only through `reportSchema`, which takes the site's locales alone. */
  locale: Locale;
  key: string;
  url: string;
  count: number;
  created_at: Date;
  updated_at: Date;
}

const toRecord = (row: Row): MissingTranslation => ({
  _id: row.id,
  locale: row.locale,
  key: row.key,
  url: row.url,
  count: row.count,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * `missingTranslate`: pages report message keys a language lacks (batched every 3 s, in
 * development). Each (locale, key) is kept once with a count and the last page it was seen on;
 * staff read the list and remove what they have translated.
 */
export class MissingTranslationsService {
  private readonly knex: Knex;

  constructor(knex: Knex) {
    this.knex = knex;
  }

  async find(params?: Params) {
    const query = (params?.query ?? {}) as { locale?: unknown; $limit?: unknown; $skip?: unknown };
    const limit = Math.min(Math.max(Number(query.$limit) || 50, 1), 500);
    const skip = Math.max(Number(query.$skip) || 0, 0);
    const base = this.knex<Row>('missing_translations');
    if (typeof query.locale === 'string') base.where('locale', query.locale);
    const [{ count }] = (await base.clone().count({ count: '*' })) as [{ count: string | number }];
    const rows = (await base
      .clone()
      .orderBy([{ column: 'count', order: 'desc' }, { column: 'key' }])
      .limit(limit)
      .offset(skip)) as Row[];
    return { total: Number(count), limit, skip, data: rows.map(toRecord) };
  }

  async create(data: unknown, _params?: Params) {
    const parsed = batchSchema.safeParse(data);
    if (!parsed.success) throw invalid(fieldErrors(parsed.error, '', data));
    const reports = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
    // One row per (locale, key) within the batch too, so one statement never touches a row twice.
    const unique = [...new Map(reports.map((report) => [`${report.locale}:${report.key}`, report])).values()];
    const [{ count }] = (await this.knex('missing_translations').count({ count: '*' })) as [{ count: string | number }];
    const rows = unique.map((report) => ({ id: newId(), locale: report.locale, key: report.key, url: report.url }));
    if (Number(count) >= MAX_MISSING_KEYS) {
      // Full: known keys still count, new ones are dropped.
      await Promise.all(
        rows.map((row) =>
          this.knex('missing_translations')
            .where({ locale: row.locale, key: row.key })
            .update({ count: this.knex.raw('count + 1'), url: row.url, updated_at: this.knex.fn.now() }),
        ),
      );
    } else {
      await this.knex('missing_translations')
        .insert(rows)
        .onConflict(['locale', 'key'])
        .merge({
          count: this.knex.raw('missing_translations.count + 1'),
          url: this.knex.raw('excluded.url'),
          updated_at: this.knex.fn.now(),
        });
    }
    return { received: reports.length };
  }

  remove(id: string, params?: Params): Promise<MissingTranslation>;
  /** Empties the list (admins only: `reportRules`). */
  remove(id: null, params?: Params): Promise<MissingTranslation[]>;
  async remove(id: string | null, _params?: Params): Promise<MissingTranslation | MissingTranslation[]> {
    const query = this.knex<Row>('missing_translations');
    const rows = (await (id === null
      ? query.delete().returning('*')
      : query
          .where({ id: String(id) })
          .delete()
          .returning('*'))) as Row[];
    if (id === null) return rows.map(toRecord);
    if (!rows[0]) throw new NotFound(`No record found for id '${id}'`);
    return toRecord(rows[0]);
  }
}

export interface ReportOptions {
  /** Batches of reports per address. */
  limiter: RateLimiterAbstract;
  /** Only development pages report (a production build drops the code): production takes none from outside. */
  acceptReports: boolean;
}

/**
 * Reports from outside: refused in production, limited per address elsewhere. Emptying the whole
 * list (`remove(null)`) is an admin's; an editor removes one key at a time.
 */
function reportRules({ limiter, acceptReports }: ReportOptions) {
  return async (context: HookContext, next: NextFunction): Promise<void> => {
    if (!context.params.provider) return next();
    if (context.method === 'create') {
      if (!acceptReports) throw new MethodNotAllowed('errors.translationReportsOff');
      const wait = await consume(limiter, callerAddressKey(context.params));
      if (wait !== null) throw new TooManyRequests('errors.tooManyTranslationReports', { retryAfter: wait });
    }
    const role = (context.params.user as { role?: string } | undefined)?.role;
    if (context.method === 'remove' && context.id === null && role !== 'admin') throw new Forbidden('auth.forbidden');
    await next();
  };
}

const missingTranslation = {
  type: 'object',
  required: ['_id', 'locale', 'key', 'url', 'count'],
  properties: {
    _id: { type: 'string' },
    locale: { type: 'string' },
    key: { type: 'string' },
    url: { type: 'string' },
    count: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

/** The reference's word on `missingTranslate` (decision 058). */
export const missingTranslateDescription = describeService('missingTranslate', {
  summary: 'Message keys a page lacked in a language',
  description:
    'Pages report the keys they could not translate (outside production, limited per address); staff list and clear them.',
  access: { find: STAFF_ROLES, get: STAFF_ROLES, create: 'public', patch: 'none', remove: STAFF_ROLES },
  methods: {
    find: {
      summary: 'List the reports',
      answer: {
        type: 'object',
        required: ['total', 'limit', 'skip', 'data'],
        properties: {
          total: { type: 'integer' },
          limit: { type: 'integer' },
          skip: { type: 'integer' },
          data: { type: 'array', items: missingTranslation },
        },
      },
    },
    create: {
      summary: 'Report missing keys',
      request: batchSchema,
      answer: { type: 'object', required: ['received'], properties: { received: { type: 'integer' } } },
      statuses: [405],
    },
    remove: { summary: 'Remove a report', answer: missingTranslation, statuses: [404] },
  },
});

export function configureMissingTranslations(app: ServerApp, knex: Knex, options: ReportOptions): void {
  useCustomService(app, 'missingTranslate', new MissingTranslationsService(knex), missingTranslateDescription, {
    methods: ['find', 'create', 'remove'],
    around: [reportRules(options)],
  });
  // Reports are noise for everyone but staff looking at the list.
  app.service('missingTranslate').publish(() => []);
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    missingTranslate: MissingTranslationsService;
  }
}
