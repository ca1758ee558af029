import { data } from 'react-router';
import { formChanges, listChange } from '../../../domain/admin/form';
import {
  actionsFor,
  ADMIN_SCREENS,
  type AdminScreen,
  defaultModeOf,
  editorFieldsOf,
  isAdminSource,
  relatedListsFor,
  rowActionsFor,
  screensFor,
  type AdminAction,
  type AdminSource,
} from '../../../domain/admin/screens';
import { readTable, type AdminRecord, type FindPage, type TableData } from '../../../domain/admin/table';
import { parseView } from '../../../domain/admin/view';
import { entities, type EntityName } from '../../../domain/entities/index';
import type { Role } from '../../../domain/entities/types';
import type { Locale } from '../../../domain/locales';
import type { HistoryEntry } from '../../components/admin/history';
import type { RelatedRows } from '../../components/admin/related-records';
import type { SeriesRows } from '../../components/admin/series-panel';
import type { ServerContext, SessionUser } from '../../context';
import { memberCallParams } from '../../api/call-params.server';
import { recordsOf } from '../../api/services';
import { refusalOf } from '../../components/forms/refusal';

/*
 * The back office's reads and writes (decision 034): every one through the entity's typed service
 * as the staff member (provider `ssr`), so the same access, owner and field rules hold as on REST
 * and the socket, and errors come back in the page's language.
 */

export type { AdminRecord, TableData };

/** An entity's service as the back office calls it: by its name, records as plain objects. */
const service = (ctx: ServerContext, source: EntityName) => recordsOf(ctx.api, source);

interface CallError {
  code?: number;
  message?: string;
  errors?: Record<string, string>;
}

const isClientError = (error: CallError) => typeof error.code === 'number' && error.code >= 400 && error.code < 500;

/** The entity a back-office URL names, if the staff member may list it; a 404 otherwise. */
export function adminSource(source: string | undefined, user: SessionUser): AdminSource {
  if (isAdminSource(source) && screensFor(user.role).includes(source)) return source;
  throw data(null, { status: 404 });
}

/** A 403 for an action the role may not take on this entity (the service would refuse it too). */
export function requireAction(source: AdminSource, role: Role, action: AdminAction): void {
  if (!actionsFor(source, role).has(action)) throw data(null, { status: 403 });
}

/** One page of the table, as the URL's view asks for it (`readTable`, through the services as the staff member). */
export async function loadTable(
  ctx: ServerContext,
  user: SessionUser,
  source: AdminSource,
  url: URL,
  lang: Locale,
): Promise<TableData> {
  const view = parseView(entities[source], url.searchParams, defaultModeOf(source));
  const find: FindPage = (path, query) => service(ctx, path).find({ ...memberCallParams(ctx, lang), query });
  try {
    return await readTable(find, source, view, lang, user.role);
  } catch (caught) {
    const error = caught as CallError;
    if (isClientError(error)) throw data(null, { status: error.code });
    throw caught;
  }
}

/** A record for the editor, or null when it is gone (or not the staff member's to read). */
export async function loadRecord(
  ctx: ServerContext,
  source: AdminSource,
  id: string,
  lang: Locale,
): Promise<AdminRecord | null> {
  try {
    return await service(ctx, source).get(id, memberCallParams(ctx, lang));
  } catch (caught) {
    if ((caught as CallError).code === 404) return null;
    throw caught;
  }
}

export type SaveResult =
  | { ok: true; id: string; created: boolean; changed: boolean }
  | { ok: false; conflict: boolean; message: string; errors: Record<string, string> };

/**
 * Saves the editor's form: an item with an id is patched with what changed since it was loaded,
 * only if nobody changed it since (its `updatedAt` must still be the one the editor loaded, asked
 * of the service in the same statement); otherwise created.
 */
export async function saveRecord(
  ctx: ServerContext,
  user: SessionUser,
  source: AdminSource,
  form: FormData,
  lang: Locale,
): Promise<SaveResult> {
  const definition = entities[source];
  const id = String(form.get('id') ?? '');
  const params = memberCallParams(ctx, lang);
  try {
    if (!id) {
      requireAction(source, user.role, 'add');
      const created = await service(ctx, source).create(
        formChanges(editorFieldsOf(definition, user.role, 'create'), form, null),
        params,
      );
      return { ok: true, id: created._id, created: true, changed: true };
    }
    requireAction(source, user.role, 'edit');
    const original = await service(ctx, source).get(id, params);
    const version = String(form.get('version') ?? '');
    const versioned = Boolean(definition.fields.updatedAt) && version !== '';
    const current = versioned && original.updatedAt ? new Date(original.updatedAt as string).toISOString() : '';
    if (versioned && current !== version) return { ok: false, conflict: true, message: '', errors: {} };
    const fields = editorFieldsOf(definition, user.role, 'patch');
    const changes = formChanges(fields, form, original);
    if (Object.keys(changes).length === 0) return { ok: true, id, created: false, changed: false };
    // A changed list of records goes as the one operator its change needs, or whole (listChange).
    for (const field of fields) {
      if (!field.items || !field.def.itemKey || !(field.name in changes)) continue;
      const before = Array.isArray(original[field.name]) ? (original[field.name] as Record<string, unknown>[]) : [];
      const operation = listChange(
        field.name,
        field.def.itemKey,
        before,
        changes[field.name] as Record<string, unknown>[],
      );
      delete changes[field.name];
      for (const [key, value] of Object.entries(operation)) {
        changes[key] = key.startsWith('$') ? { ...(changes[key] as object | undefined), ...(value as object) } : value;
      }
    }
    try {
      await service(ctx, source).patch(id, changes, versioned ? { ...params, query: { updatedAt: version } } : params);
    } catch (caught) {
      // Changed between the read and the write: the version no longer matches.
      if (versioned && (caught as CallError).code === 404)
        return { ok: false, conflict: true, message: '', errors: {} };
      throw caught;
    }
    return { ok: true, id, created: false, changed: true };
  } catch (caught) {
    const { refused, message, errors } = refusalOf(caught);
    if (!refused) throw caught;
    return { ok: false, conflict: false, message, errors };
  }
}

export interface RemoveResult {
  removed: number;
  failures: { id: string; message: string }[];
}

/** Removes records one by one, going on past a failure and reporting each. */
export async function removeRecords(
  ctx: ServerContext,
  user: SessionUser,
  source: AdminSource,
  ids: readonly string[],
  lang: Locale,
): Promise<RemoveResult> {
  requireAction(source, user.role, 'remove');
  const result: RemoveResult = { removed: 0, failures: [] };
  for (const id of ids) {
    try {
      await service(ctx, source).remove(id, memberCallParams(ctx, lang));
      result.removed += 1;
    } catch (caught) {
      const { refused, message } = refusalOf(caught);
      if (!refused) throw caught;
      result.failures.push({ id, message });
    }
  }
  return result;
}

export type { HistoryEntry, RelatedRows };

/**
 * The records of other entities that point at this one (the screen's `related` lists the role may
 * read): each the first page of its table filtered by the reference, read as the staff member.
 */
export async function loadRelated(
  ctx: ServerContext,
  user: SessionUser,
  source: AdminSource,
  id: string,
  lang: Locale,
): Promise<RelatedRows[]> {
  const find: FindPage = (path, query) => service(ctx, path).find({ ...memberCallParams(ctx, lang), query });
  const lists: RelatedRows[] = [];
  for (const related of relatedListsFor(source, user.role)) {
    const definition = entities[related.source];
    const view = parseView(definition, new URLSearchParams({ [`f.${related.field}`]: id }));
    const table = await readTable(find, related.source, view, lang, user.role);
    lists.push({
      source: related.source,
      field: related.field,
      rows: table.rows,
      total: table.total,
      totalCapped: table.totalCapped,
      references: table.references,
    });
  }
  return lists;
}

/** A record's figures by day, when its screen names a series (an ad's views and clicks); none otherwise. */
export async function loadSeries(
  ctx: ServerContext,
  source: AdminSource,
  id: string,
  lang: Locale,
): Promise<SeriesRows | null> {
  const screen: AdminScreen = ADMIN_SCREENS[source];
  if (!screen.series) return null;
  const { service: path, field, values } = screen.series;
  const rows = await ctx.api.service(path).find({ ...memberCallParams(ctx, lang), query: { [field]: id } });
  return { source, values, rows };
}

/** How many of a record's latest changes its editor shows. */
export const HISTORY_SHOWN = 20;

/**
 * A record's latest changes by staff, from the audit log (decision 033), for admins, who may read
 * it; nothing for the others.
 */
export async function loadHistory(
  ctx: ServerContext,
  user: SessionUser,
  source: AdminSource,
  id: string,
  lang: Locale,
): Promise<HistoryEntry[] | null> {
  if (!screensFor(user.role).includes('auditLogs')) return null;
  const query = { service: source, recordId: id, $sort: { createdAt: -1 as const }, $limit: HISTORY_SHOWN };
  const page = await ctx.api.service('auditLogs').find({ ...memberCallParams(ctx, lang), query });
  return page.data.map((entry) => ({
    _id: entry._id,
    createdAt: entry.createdAt.toISOString(),
    userEmail: entry.userEmail,
    method: entry.method,
    changes: entry.changes,
  }));
}

export type RowActionResult = { ok: true; key: string } | { ok: false; key: string; message: string };

/**
 * One of the entity's own row actions (a failed mail's Retry, a push message's Send now) on one
 * record, named by its key: its service asked as the staff member, which checks the role and the
 * record's state again.
 */
export async function runRowAction(
  ctx: ServerContext,
  user: SessionUser,
  source: AdminSource,
  key: string,
  id: string,
  lang: Locale,
): Promise<RowActionResult> {
  const rowAction = rowActionsFor(source, user.role).find((action) => action.key === key);
  if (!rowAction || !id || id.length > 64) throw data(null, { status: 403 });
  try {
    const params = memberCallParams(ctx, lang);
    if (rowAction.service === 'fulfilments') await ctx.api.service('fulfilments').create({ order: id }, params);
    else if (rowAction.service === 'pushSends')
      await ctx.api.service('pushSends').create({ message: id, action: rowAction.data.action }, params);
    else if (rowAction.service === 'facebookPosts') await ctx.api.service('facebookPosts').create({ news: id }, params);
    else await ctx.api.service('mailRetries').create({ delivery: id }, params);
    return { ok: true, key: rowAction.key };
  } catch (caught) {
    const { refused, message, errors } = refusalOf(caught);
    if (!refused) throw caught;
    return { ok: false, key: rowAction.key, message: Object.values(errors)[0] ?? message };
  }
}
