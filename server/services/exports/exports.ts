import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { BadRequest, Conflict, Forbidden, NotFound } from '@feathersjs/errors';
import type { HookContext, NextFunction, Params } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { z } from '../../../domain/zod.ts';
import { exportCell, exportLabel, type ExportCell } from '../../../domain/admin/export-cells.ts';
import { referenceNames } from '../../../domain/admin/references.ts';
import { actionsFor, exportedFieldsOf, isAdminSource, type AdminSource } from '../../../domain/admin/screens.ts';
import { definitions, entities } from '../../../domain/entities/index.ts';
import type { Role } from '../../../domain/entities/types.ts';
import { formatIsoDate } from '../../../domain/format.ts';
import { isLocale, type Locale } from '../../../domain/locales.ts';
import { clockOf } from '../../clock.ts';
import type { ExportSettings } from '../../config.ts';
import { newId, RECORD_ID } from '../../db/ids.ts';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import { isStaffRole } from '../../hooks/row-rules.ts';
import { translate } from '../../i18n.ts';
import { askPeriodically } from '../../jobs/jobs.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { FolderStorage } from '../../storage/folder-storage.ts';
import { S3Storage } from '../../storage/s3-storage.ts';
import type { Storage } from '../../storage/storage.ts';
import { entityServiceAt } from '../entity/service-at.ts';
import type { EntityParams, Page } from '../entity/entity-service.ts';
import type { ServerApp } from '../types.ts';
import { CONTENT_TYPES, tableWriter, type ExportFormat } from './writers.ts';

/** The rules of an export (decision 036). */
export const EXPORT_RULES = {
  /** Ids in a selection. */
  maxIds: 1000,
  /** Records read per page: the entity service's largest page. */
  pageSize: 100,
  /** Progress is announced at most this often (and once at the end). */
  progressMs: 500,
  /** A finished export's file is kept this long. */
  keepMs: 24 * 60 * 60 * 1000,
  /** How often each instance asks for the clean-up. */
  cleanupSeconds: 60 * 60,
  /** A job running this long is taken for lost (its process died) and tried again. */
  expireSeconds: 60 * 60,
} as const;

export const EXPORT_JOB = 'exports.write';
export const EXPORT_CLEANUP_JOB = 'exports.cleanup';

export const EXPORT_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

/** An export as its service answers it. */
export interface ExportRecord {
  _id: string;
  source: string;
  format: ExportFormat;
  columns: string[];
  locale: Locale;
  state: ExportState;
  /** Rows written so far. */
  rows: number;
  /** Rows to write, counted at the start; null until then. */
  total: number | null;
  /** Where the finished file is stored; null until it is done, and again once it is cleaned up. */
  fileKey: string | null;
  /** The message key of a failure. */
  error: string | null;
  /** Who asked. */
  user: string;
  createdAt: Date;
  finishedAt: Date | null;
}

interface ExportRow {
  id: string;
  source: string;
  format: ExportFormat;
  columns: string[];
  query: Record<string, unknown> | null;
  ids: string[] | null;
  locale: Locale;
  state: ExportState;
  rows: number;
  total: number | null;
  file_key: string | null;
  error: string | null;
  user_id: string;
  created_at: Date;
  finished_at: Date | null;
}

const toRecord = (row: ExportRow): ExportRecord => ({
  _id: row.id,
  source: row.source,
  format: row.format,
  columns: row.columns,
  locale: row.locale,
  state: row.state,
  rows: row.rows,
  total: row.total,
  fileKey: row.file_key,
  error: row.error,
  user: row.user_id,
  createdAt: new Date(row.created_at),
  finishedAt: row.finished_at ? new Date(row.finished_at) : null,
});

/** What a table's query may hold: its filters and sort, never its page (the job pages itself). */
const PAGING = ['$limit', '$skip', '$cursor', '$countUpTo', '$select', '$populate'];

const createSchema = z
  .object({
    source: z.string().max(64),
    format: z.enum(['csv', 'xlsx']),
    columns: z.array(z.string().max(64)).min(1).max(200),
    query: z.record(z.string(), z.unknown()).optional(),
    ids: z.array(z.string().regex(RECORD_ID)).min(1).max(EXPORT_RULES.maxIds).optional(),
    locale: z.string().optional(),
  })
  .strict();

export type ExportRequest = z.input<typeof createSchema>;

/** An export as the reference shows it (`ExportRecord` over JSON). */
const exportAnswer = {
  type: 'object',
  required: ['_id', 'source', 'format', 'columns', 'locale', 'state', 'rows', 'total', 'fileKey', 'error', 'user'],
  properties: {
    _id: { type: 'string' },
    source: { type: 'string' },
    format: { enum: ['csv', 'xlsx'] },
    columns: { type: 'array', items: { type: 'string' } },
    locale: { type: 'string' },
    state: { enum: EXPORT_STATES },
    rows: { type: 'integer' },
    total: { type: ['integer', 'null'] },
    fileKey: { type: ['string', 'null'] },
    error: { type: ['string', 'null'] },
    user: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    finishedAt: { type: ['string', 'null'], format: 'date-time' },
  },
};

/** The reference's word on `exports` (decision 058). */
export const exportsDescription = describeService('exports', {
  summary: 'Exports of the back office’s tables',
  description:
    'Staff export a table they may list, as CSV or Excel; a job writes the file, the one who asked (or an admin) ' +
    'follows it (`get`, and `patched` events on their connections) and may cancel it. The file is at ' +
    '`GET /api/exports/{id}/file` once done.',
  access: {
    find: 'none',
    get: ['editor', 'admin'],
    create: ['editor', 'admin'],
    patch: ['editor', 'admin'],
    remove: 'none',
  },
  events: ['created', 'patched'],
  methods: {
    create: { summary: 'Start an export', request: createSchema, answer: exportAnswer },
    get: { summary: 'An export’s progress', answer: exportAnswer, statuses: [404] },
    patch: {
      summary: 'Cancel an export',
      request: { type: 'object', required: ['state'], properties: { state: { const: 'cancelled' } } },
      answer: exportAnswer,
      statuses: [404, 409],
    },
  },
});

type Caller = { _id: string; role: Role; email?: unknown; locale?: unknown };

function callerOf(params: Params): Caller {
  const user = (params as { user?: Partial<Caller> }).user;
  if (typeof user?._id !== 'string' || !isStaffRole(user.role)) throw new Forbidden('auth.forbidden');
  return user as Caller;
}

/** The entity's exported fields the request names, in its order; anything else is a 400. */
function checkedColumns(source: AdminSource, columns: string[]): string[] {
  const allowed = new Set(exportedFieldsOf(entities[source]).map((field) => field.name));
  const unique = [...new Set(columns)];
  const unknown = unique.filter((name) => !allowed.has(name));
  if (unknown.length > 0) throw new BadRequest('validation.invalid', { errors: { columns: 'validation.invalid' } });
  return unique;
}

/** A worksheet's name: the entity's, without the characters a sheet name may not hold (31 at most). */
function sheetName(label: string, source: string): string {
  const name = (label.startsWith('resources.') ? source : label).replace(/[\\/?*[\]:]/g, ' ').trim();
  return (name || source).slice(0, 31);
}

/** Params of a read as the staff member who asked: the service's access, row and field rules apply. */
const asCaller = (caller: Caller, query: Record<string, unknown>): EntityParams => ({
  provider: 'rest',
  user: { _id: caller._id, role: caller.role },
  query,
});

/**
 * `exports` (decision 036): staff export a back-office table they may list. `create` records the
 * export and sends its job; `get` answers how far it has gone (to the one who asked, or an admin);
 * `patch` with `{ state: 'cancelled' }` stops it. Progress is announced as `patched` events to the
 * one who asked. The file is read at `GET /api/exports/{id}/download` (route.ts).
 */
export class ExportsService {
  private readonly app: ServerApp;
  private readonly knex: Knex;
  private readonly jobs: JobQueue;

  constructor(app: ServerApp, deps: { knex: Knex; jobs: JobQueue }) {
    this.app = app;
    this.knex = deps.knex;
    this.jobs = deps.jobs;
  }

  async create(data: unknown, params: Params = {}): Promise<ExportRecord> {
    const caller = callerOf(params);
    const parsed = createSchema.safeParse(data);
    if (!parsed.success) throw new BadRequest('validation.invalid');
    const request = parsed.data;
    const source = request.source;
    if (!isAdminSource(source) || !actionsFor(source, caller.role).has('export')) throw new Forbidden('auth.forbidden');
    const columns = checkedColumns(source, request.columns);
    const query = request.query ?? {};
    if (PAGING.some((key) => key in query))
      throw new BadRequest('validation.invalid', { errors: { query: 'validation.invalid' } });
    // The query is tried once now, as the staff member: a bad one is this call's 400, not a failed job.
    await this.reader(source).find(asCaller(caller, { ...(request.ids ? {} : query), $limit: 1, $cursor: '' }));
    const locale: Locale = isLocale(request.locale) ? request.locale : isLocale(caller.locale) ? caller.locale : 'en';
    const now = clockOf(this.app)();
    const row: ExportRow = {
      id: newId(),
      source,
      format: request.format,
      columns,
      query: request.ids ? null : query,
      ids: request.ids ? [...new Set(request.ids)] : null,
      locale,
      state: 'queued',
      rows: 0,
      total: request.ids ? new Set(request.ids).size : null,
      file_key: null,
      error: null,
      user_id: caller._id,
      created_at: now,
      finished_at: null,
    };
    await this.knex.transaction(async (trx) => {
      await trx('exports').insert({
        ...row,
        columns: JSON.stringify(row.columns),
        query: row.query && JSON.stringify(row.query),
        ids: row.ids && JSON.stringify(row.ids),
      });
      // Staff exports are in the audit log beside their writes (decision 033): what was exported, by whom.
      await trx(definitions.auditLogs.table).insert({
        id: newId(),
        created_at: now,
        user_id: caller._id,
        user_email: typeof caller.email === 'string' ? caller.email : '',
        service: source,
        method: 'export',
        record_id: row.id,
        changes: JSON.stringify({
          format: { after: row.format },
          columns: { after: columns },
          ...(row.ids ? { ids: { after: row.ids } } : { query: { after: query } }),
        }),
        request_id: null,
      });
      await this.jobs.send(EXPORT_JOB, { id: row.id }, trx);
    });
    this.jobs.wake(EXPORT_JOB);
    return toRecord(row);
  }

  async get(id: string, params: Params = {}): Promise<ExportRecord> {
    const record = await this.read(String(id));
    if (params.provider) {
      const caller = callerOf(params);
      if (record.user !== caller._id && caller.role !== 'admin') throw new NotFound('admin.notFound');
    }
    return record;
  }

  async patch(id: string, data: unknown, params: Params = {}): Promise<ExportRecord> {
    const record = await this.get(id, params);
    const asked = data as { state?: unknown } | null;
    if (
      typeof asked !== 'object' ||
      asked === null ||
      Object.keys(asked).join() !== 'state' ||
      asked.state !== 'cancelled'
    ) {
      throw new BadRequest('validation.invalid');
    }
    const [row] = (await this.knex('exports')
      .where({ id: record._id })
      .whereIn('state', ['queued', 'running'])
      .update({ state: 'cancelled', finished_at: clockOf(this.app)() })
      .returning('*')) as ExportRow[];
    if (!row) throw new Conflict('admin.export.finished');
    return toRecord(row);
  }

  /** The export as stored (a 404 when there is none). */
  async read(id: string): Promise<ExportRecord> {
    if (!RECORD_ID.test(id)) throw new NotFound('admin.notFound');
    const row = (await this.knex('exports').where({ id }).first()) as ExportRow | undefined;
    if (!row) throw new NotFound('admin.notFound');
    return toRecord(row);
  }

  private reader(source: AdminSource) {
    const service = entityServiceAt(this.app, source);
    if (!service) throw new Error(`No entity service at '${source}'`);
    return service;
  }

  /**
   * Works one export: reads the entity page by page as the staff member who asked, writes each page
   * to a local file, and stores the file when the last page is written. Between pages, a
   * cancelled export stops and its file is removed; progress is written and announced as it goes.
   */
  async work(id: string, deps: { storage: Storage; settings: ExportSettings; logger: Logger }): Promise<void> {
    const now = () => clockOf(this.app)();
    const [started] = (await this.knex('exports')
      .where({ id })
      .whereIn('state', ['queued', 'running'])
      .update({ state: 'running', rows: 0 })
      .returning('*')) as ExportRow[];
    if (!started) return;
    const announce = (row: ExportRow) => this.app.service('exports').emit('patched', toRecord(row));
    announce(started);
    const file = path.join(deps.settings.tempDir, `${id}.${started.format}`);
    const fail = async (error: unknown) => {
      const known = error as { code?: unknown; message?: unknown };
      const message =
        typeof known.code === 'number' && known.code < 500 && typeof known.message === 'string'
          ? known.message
          : 'errors.generic';
      deps.logger.warn({ err: error, export: id }, 'export failed');
      const [row] = (await this.knex('exports')
        .where({ id, state: 'running' })
        .update({ state: 'failed', error: message.slice(0, 500), finished_at: now() })
        .returning('*')) as ExportRow[];
      if (row) announce(row);
    };
    let writer: ReturnType<typeof tableWriter> | undefined;
    try {
      const user = (await this.app
        .service('users')
        .get(started.user_id)
        .catch(() => null)) as Caller | null;
      if (
        !user ||
        !isStaffRole(user.role) ||
        !isAdminSource(started.source) ||
        !actionsFor(started.source, user.role).has('export')
      )
        throw new Forbidden('auth.forbidden');
      const source = started.source;
      const caller: Caller = { _id: user._id, role: user.role };
      const definition = entities[source];
      const service = this.reader(source);
      const locale = started.locale;
      const t = (key: string) => translate(locale, key);
      let total = started.total;
      if (!started.ids) {
        const counted = await service.find(asCaller(caller, { ...started.query, $limit: 0 }));
        total = counted.total;
        const [row] = (await this.knex('exports')
          .where({ id, state: 'running' })
          .update({ total })
          .returning('*')) as ExportRow[];
        if (row) announce(row);
      }
      await mkdir(deps.settings.tempDir, { recursive: true });
      const header = started.columns.map((field) => exportLabel(t, source, field));
      writer = tableWriter(started.format, file, header, sheetName(t(`resources.${source}.name`), source));
      let written = 0;
      let announced = Date.now();
      /** Writes a page; false when the export was cancelled meanwhile. */
      const page = async (records: Record<string, unknown>[]): Promise<boolean> => {
        // References by name, as the table shows them, read as the staff member who asked.
        const references = await referenceNames(definition, started.columns, records, locale, (target, query) =>
          isAdminSource(target)
            ? this.reader(target)
                .find(asCaller(caller, query))
                .then(
                  (found) => found.data as Record<string, unknown>[],
                  () => null,
                )
            : Promise.resolve(null),
        );
        const rows: ExportCell[][] = records.map((record) =>
          started.columns.map((field) => exportCell(definition, field, record, t, locale, references)),
        );
        await writer?.rows(rows);
        written += rows.length;
        // The progress is also the check: a cancelled export is no longer `running`.
        const [row] = (await this.knex('exports')
          .where({ id, state: 'running' })
          .update({ rows: written })
          .returning('*')) as ExportRow[];
        if (!row) return false;
        if (Date.now() - announced >= EXPORT_RULES.progressMs) {
          announced = Date.now();
          announce(row);
        }
        return true;
      };
      let going = true;
      if (started.ids) {
        const sort = { ...definition.defaultSort, _id: 1 };
        for (let start = 0; going && start < started.ids.length; start += EXPORT_RULES.pageSize) {
          const chunk = started.ids.slice(start, start + EXPORT_RULES.pageSize);
          const found = await service.find(
            asCaller(caller, { _id: { $in: chunk }, $sort: sort, $limit: EXPORT_RULES.pageSize }),
          );
          going = await page(found.data);
        }
      } else {
        let cursor: string | null = '';
        while (going && cursor !== null) {
          const found: Page = await service.find(
            asCaller(caller, { ...started.query, $limit: EXPORT_RULES.pageSize, $cursor: cursor }),
          );
          going = await page(found.data);
          cursor = found.cursors.next;
        }
      }
      if (!going) {
        await writer.abort();
        deps.logger.info({ export: id, rows: written }, 'export cancelled');
        return;
      }
      await writer.finish();
      const key = `${id}/${source}-${formatIsoDate(now())}.${started.format}`;
      await deps.storage.putFile(key, file, CONTENT_TYPES[started.format]);
      const [row] = (await this.knex('exports')
        .where({ id, state: 'running' })
        .update({ state: 'done', file_key: key, rows: written, total: written, finished_at: now() })
        .returning('*')) as ExportRow[];
      if (!row) {
        // Cancelled while the file was being stored.
        await deps.storage.removeAll(id);
        return;
      }
      announce(row);
      deps.logger.info({ export: id, rows: written }, 'export written');
    } catch (error) {
      await writer?.abort().catch(() => undefined);
      await fail(error);
    } finally {
      await rm(file, { force: true });
    }
  }

  /** Removes the files of exports finished more than a day ago (their records stay, without a file). */
  async cleanUp(storage: Storage): Promise<number> {
    const cutoff = new Date(clockOf(this.app)().getTime() - EXPORT_RULES.keepMs);
    const old = (await this.knex('exports')
      .whereNotNull('file_key')
      .where('finished_at', '<', cutoff)
      .select('id')) as { id: string }[];
    for (const { id } of old) {
      await storage.removeAll(id);
      await this.knex('exports').where({ id }).update({ file_key: null });
    }
    return old.length;
  }
}

export function createExportStorage(settings: ExportSettings): Storage {
  return settings.storage.kind === 's3' ? new S3Storage(settings.storage) : new FolderStorage(settings.storage.root);
}

/** The export service, its job, its clean-up; the download route is the app's (route.ts). */
export function configureExports(
  app: ServerApp,
  deps: { settings: ExportSettings; knex: Knex; logger: Logger; jobs: JobQueue },
): void {
  const { settings, knex, logger, jobs } = deps;
  const storage = createExportStorage(settings);
  app.set('exportStorage', storage);
  const service = new ExportsService(app, { knex, jobs });
  useCustomService(app, 'exports', service, exportsDescription, { methods: ['create', 'get', 'patch'] });
  // Progress is news for the one who asked, on every connection of theirs.
  app.service('exports').publish((data: unknown) => {
    const user = (data as { user?: unknown } | null)?.user;
    return typeof user === 'string' ? app.channel(`users/${user}`) : [];
  });
  // A failure is recorded on the export itself: trying again would only repeat it. A job whose
  // process died is tried again as soon as it is found lost (its heartbeat stopped; server/jobs).
  jobs.define<{ id: string }>(
    EXPORT_JOB,
    { retryLimit: 1, retryDelay: 1, retryDelayMax: 60, expireInSeconds: EXPORT_RULES.expireSeconds },
    async ({ id }) => service.work(id, { storage, settings, logger }),
  );
  jobs.define(EXPORT_CLEANUP_JOB, { retryLimit: 3, retryDelay: 60, retryDelayMax: 600 }, async () => {
    const removed = await service.cleanUp(storage);
    logger.info({ removed }, 'old exports cleaned up');
  });
  askPeriodically(app, jobs, EXPORT_CLEANUP_JOB, EXPORT_RULES.cleanupSeconds, logger);
  app.hooks({
    teardown: [
      async (_context: HookContext, next: NextFunction) => {
        if (storage instanceof S3Storage) storage.close();
        await next();
      },
    ],
  });
}

/** The app's export storage (set by configureExports). */
export function exportStorageOf(app: { get(name: string): unknown }): Storage {
  const storage = app.get('exportStorage') as Storage | undefined;
  if (!storage) throw new Error('exports are not configured');
  return storage;
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    exports: ExportsService;
  }
}
