import type { RowSelectionState } from '@tanstack/react-table';
import { useActionAnswer } from '../../action-answer';
import { ReferencePicker } from '../../components/admin/reference-picker';
import { useEffect, useMemo, useRef, useState } from 'react';
import { data, Form, Link, redirect, useFetcher, useLocation, useNavigate, useRevalidator } from 'react-router';
import {
  ADMIN_SCREENS,
  columnsOf,
  detailFieldsOf,
  editorFieldsOf,
  exportedFieldsOf,
  filtersOf,
  recordName,
  rowActionsFor,
  rowActionFits,
  type RowAction,
  type AdminAction,
  type AdminScreen,
} from '../../../domain/admin/screens';
import { viewSearch } from '../../../domain/admin/table';
import { viewParams, viewQuery, type TableView } from '../../../domain/admin/view';
import { entities } from '../../../domain/entities/index';
import { formatNumber } from '../../../domain/format';
import { localeOf } from '../../../domain/locales';
import { requireStaff } from '../../auth.server';
import { enumLabel } from '../../components/admin/cells';
import { BatchRemoval } from '../../components/admin/batch-removal';
import { ConfirmDialog } from '../../components/admin/confirm-dialog';
import { ExportDialog } from '../../components/admin/export-dialog';
import { MediaUpload } from '../../components/admin/media-upload';
import { FacebookImport } from '../../components/admin/facebook-import';
import { RecordHistory } from '../../components/admin/history';
import { RelatedRecords } from '../../components/admin/related-records';
import { SeriesPanel } from '../../components/admin/series-panel';
import { DataTable, type Row } from '../../components/admin/data-table';
import { Pagination } from '../../components/admin/pagination';
import { RecordForm } from '../../components/admin/record-form';
import { useTableQuery } from '../../components/admin/use-table-query';
import { useSnackbar } from '../../components/feedback/snackbars';
import { inputClass } from '../../components/forms/fields';
import { primaryButton, secondaryButton, smallButton } from '../../components/ui/buttons';
import { PlusIcon, SearchIcon } from '../../components/ui/icons';
import { ModalDialog } from '../../components/ui/modal-dialog';
import { serverContext } from '../../context';
import { flashCookie } from '../../feedback.server';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { records } from '../../api/services';
import { useLive, useLiveRefresh } from '../../api/use-live';
import type { Route } from './+types/table';
import { editorOptions } from './editor.server';
import {
  adminSource,
  loadHistory,
  loadRecord,
  loadRelated,
  loadSeries,
  loadTable,
  removeRecords,
  runRowAction,
  saveRecord,
  type RemoveResult,
  type RowActionResult,
  type SaveResult,
} from './records.server';

/*
 * `/{locale}/admin/{source}`: an entity's table (issue 21, decision 034), generated from its
 * definition. The URL holds the whole view; `?editor={id}` opens the editor over the table. The
 * loader reads the view's page (the first rows come with the HTML); TanStack Query keeps it under
 * the view's address and reads it again through the live connection when records change.
 */

/** The most records one deletion of every match takes (the selection `all`), and the page it reads them by. */
const ALL_SELECTED_LIMIT = 10_000;
const MAX_PAGE = 100;

export const messageGroups = ['forms', 'uploader', 'facebook'] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireStaff(ctx, request, params.lang);
  const source = adminSource(params.source, user);
  const lang = localeOf(params.lang);
  const url = new URL(request.url);
  const table = await loadTable(ctx, user, source, url, lang);
  const editorId = url.searchParams.get('editor');
  let editing = null;
  if (editorId && table.actions.includes('edit')) {
    const record = await loadRecord(ctx, source, editorId, lang);
    editing = record
      ? {
          record,
          name: recordName(source, record, lang),
          options: await editorOptions(ctx, source, user.role, 'patch', lang, record),
          history: await loadHistory(ctx, user, source, editorId, lang),
          related: await loadRelated(ctx, user, source, editorId, lang),
          series: await loadSeries(ctx, source, editorId, lang),
        }
      : { record: null, name: '', options: {}, history: null, related: [], series: null };
  }
  return {
    ...table,
    search: viewSearch(source, url.searchParams),
    editing,
    role: user.role,
    // The Facebook import offers the Graph API when the page is configured (decision 060).
    facebookPage: source === 'facebook' && ctx.facebookPage,
    messages: pageMessages(params.lang, messageGroups),
  };
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta(matches, { title: `resources.${params.source}.name`, index: false });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const user = requireStaff(ctx, request, params.lang);
  const source = adminSource(params.source, user);
  const lang = localeOf(params.lang);
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === 'remove') {
    const ids = form
      .getAll('id')
      .map(String)
      .filter((id) => id.length > 0 && id.length <= 64)
      .slice(0, 100);
    return { intent: 'remove' as const, result: await removeRecords(ctx, user, source, ids, lang) };
  }
  if (intent === 'rowAction') {
    const id = String(form.get('id') ?? '');
    const key = String(form.get('key') ?? '');
    return { intent: 'rowAction' as const, result: await runRowAction(ctx, user, source, key, id, lang) };
  }
  if (intent === 'save') {
    const result = await saveRecord(ctx, user, source, form, lang);
    if (!result.ok) return data({ intent: 'save' as const, result }, { status: result.conflict ? 409 : 400 });
    // Saved: back to the table as it was, without the editor.
    // The request's own address may be the data request's (`….data?…&_routes=…`): the page's is rebuilt.
    const search = new URLSearchParams(new URL(request.url).search);
    search.delete('editor');
    search.delete('_routes');
    const query = search.toString();
    const key = result.created ? 'admin.created' : result.changed ? 'admin.saved' : 'admin.editor.noChanges';
    return redirect(`/${lang}/admin/${source}${query ? `?${query}` : ''}`, {
      headers: { 'set-cookie': flashCookie({ type: 'success', key }, ctx.secureCookies) },
    });
  }
  throw data(null, { status: 400 });
}

type ActionResult =
  | { intent: 'remove'; result: RemoveResult }
  | { intent: 'save'; result: SaveResult }
  | { intent: 'rowAction'; result: RowActionResult };

function SearchPanel({
  source,
  view,
  references,
}: {
  source: keyof typeof entities;
  view: TableView;
  references: Record<string, Record<string, string>>;
}) {
  const { t } = useLocale();
  const definition = entities[source];
  const filters = filtersOf(definition);
  const location = useLocation();
  const active = Object.keys(view.choices).length + Object.keys(view.ranges).length;
  const keep = new URLSearchParams(location.search);
  const sortValue = keep.get('sort');
  const sizeValue = keep.get('size');
  const modeValue = keep.get('mode');
  return (
    <Form
      method="get"
      role="search"
      className="rounded-2xl border border-line bg-raised p-3 sm:p-4"
      data-testid="search-panel"
      preventScrollReset
    >
      {sortValue ? <input type="hidden" name="sort" value={sortValue} /> : null}
      {sizeValue ? <input type="hidden" name="size" value={sizeValue} /> : null}
      {modeValue ? <input type="hidden" name="mode" value={modeValue} /> : null}
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-48 flex-1">
          <label htmlFor="admin-q" className="sr-only">
            {t('admin.searchLabel', { entity: t(`resources.${source}.name`) })}
          </label>
          <div className="relative">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-muted" />
            <input
              id="admin-q"
              type="search"
              name="q"
              defaultValue={view.q}
              placeholder={t('admin.searchPlaceholder')}
              className={`${inputClass} mt-0 pl-9`}
              data-testid="search-q"
            />
          </div>
        </div>
        <button type="submit" className={primaryButton} data-testid="search-apply">
          {t('admin.apply')}
        </button>
        <Link to={location.pathname} className={secondaryButton} data-testid="search-clear" preventScrollReset>
          {t('admin.clear')}
        </Link>
      </div>
      {filters.length > 0 ? (
        <details className="mt-3" open={active > 0}>
          <summary className="cursor-pointer text-sm font-semibold text-muted hover:text-ink">
            {t('admin.filters')}
            {active > 0 ? ` (${active})` : ''}
          </summary>
          <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {filters.map((filter) => {
              const label = t(`resources.${source}.fields.${filter.name}`);
              const id = `filter-${filter.name}`;
              if (filter.type === 'reference') {
                const value = view.choices[filter.name]?.[0];
                return (
                  <div key={filter.name}>
                    <label htmlFor={id} className="block text-sm font-medium">
                      {label}
                    </label>
                    <ReferencePicker
                      key={value ?? ''}
                      id={id}
                      name={`f.${filter.name}`}
                      target={filter.def.ref ?? ''}
                      initial={value ? { value, label: references[filter.name]?.[value] ?? value } : null}
                      testId={id}
                    />
                  </div>
                );
              }
              if (filter.type === 'text') {
                // A whole value typed (a region's code): matched as written.
                return (
                  <div key={filter.name}>
                    <label htmlFor={id} className="block text-sm font-medium">
                      {label}
                    </label>
                    <input
                      id={id}
                      type="text"
                      name={`f.${filter.name}`}
                      defaultValue={view.choices[filter.name]?.[0] ?? ''}
                      autoComplete="off"
                      spellCheck={false}
                      className={inputClass}
                      data-testid={id}
                    />
                  </div>
                );
              }
              if (filter.type === 'choice' || filter.type === 'boolean') {
                const choices = filter.type === 'boolean' ? ['true', 'false'] : [...(filter.def.enum ?? [])];
                return (
                  <div key={filter.name}>
                    <label htmlFor={id} className="block text-sm font-medium">
                      {label}
                    </label>
                    <select
                      id={id}
                      name={`f.${filter.name}`}
                      defaultValue={view.choices[filter.name]?.[0] ?? ''}
                      className={inputClass}
                      data-testid={id}
                    >
                      <option value="">{t('admin.any')}</option>
                      {choices.map((choice) => (
                        <option key={choice} value={choice}>
                          {filter.type === 'boolean'
                            ? t(choice === 'true' ? 'admin.yes' : 'admin.no')
                            : enumLabel(t, source, filter.name, choice)}
                        </option>
                      ))}
                    </select>
                  </div>
                );
              }
              const type = filter.type === 'dateRange' ? 'date' : 'text';
              const range = view.ranges[filter.name] ?? {};
              return (
                <fieldset key={filter.name} className="min-w-0">
                  <legend className="text-sm font-medium">{label}</legend>
                  <div className="flex gap-2 [&>input]:min-w-0">
                    <label className="sr-only" htmlFor={`${id}-min`}>{`${label} ${t('admin.from')}`}</label>
                    <input
                      id={`${id}-min`}
                      type={type}
                      inputMode={type === 'text' ? 'decimal' : undefined}
                      name={`f.${filter.name}.min`}
                      defaultValue={range.min ?? ''}
                      placeholder={t('admin.from')}
                      className={inputClass}
                      data-testid={`${id}-min`}
                    />
                    <label className="sr-only" htmlFor={`${id}-max`}>{`${label} ${t('admin.to')}`}</label>
                    <input
                      id={`${id}-max`}
                      type={type}
                      inputMode={type === 'text' ? 'decimal' : undefined}
                      name={`f.${filter.name}.max`}
                      defaultValue={range.max ?? ''}
                      placeholder={t('admin.to')}
                      className={inputClass}
                      data-testid={`${id}-max`}
                    />
                  </div>
                </fieldset>
              );
            })}
          </div>
        </details>
      ) : null}
    </Form>
  );
}

export default function AdminTable({ loaderData, actionData: answered }: Route.ComponentProps) {
  const actionData = useActionAnswer(answered);
  const { t, locale } = useLocale();
  const { source, editing } = loaderData;
  // With the editor open, the page's loader reads the table with the record (below): one read a change.
  const {
    table,
    refresh,
    live: reads,
  } = useTableQuery(loaderData, locale, loaderData.role, { followChanges: !editing });
  const { rows, total, view, references } = table;
  const actions = useMemo(() => new Set<AdminAction>(table.actions), [table.actions]);
  const definition = entities[source];
  const columns = useMemo(() => columnsOf(definition), [definition]);
  const detailFields = useMemo(() => detailFieldsOf(definition), [definition]);
  const rowActions = rowActionsFor(source, loaderData.role);
  const location = useLocation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  // The rows shown open, from the URL (`open=id,id`), at most a page's worth.
  const expanded = useMemo(
    () => new Set((new URLSearchParams(location.search).get('open') ?? '').split(',').filter(Boolean).slice(0, 100)),
    [location.search],
  );

  const snackbar = useSnackbar();
  const remover = useFetcher<ActionResult>();
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [confirming, setConfirming] = useState<Row[] | 'all' | null>(null);
  const [batch, setBatch] = useState<Row[] | 'all' | null>(null);
  // The selection `all` (spec, section 4): every record the search matches, on every page.
  const [allSelected, setAllSelected] = useState(false);
  const [reloads, setReloads] = useState(0);
  const [exporting, setExporting] = useState(false);
  const [uploading, setUploading] = useState(false);
  const screen: AdminScreen = ADMIN_SCREENS[source];
  const uploads = screen.upload;
  const live = useLive();
  const base = `/${locale}/admin/${source}`;

  // Records anyone changes show here within a moment: the table through its query (above), and the
  // open editor's record through the page's loader (the editor then says it was changed elsewhere).
  useLiveRefresh(editing ? [source] : []);
  // The Reload button, and after the page's own changes: the table through the live connection;
  // while it is down (or still opening), or with the editor open, the page's loader reads it too.
  const reload = () => {
    if (reads && !editing) void refresh();
    else void revalidator.revalidate();
  };

  // Another search, filter, order or page lets the selection of every match go.
  const viewKey = JSON.stringify(viewQuery(definition, view));
  useEffect(() => setAllSelected(false), [viewKey]);
  // Selected rows no longer on the page (removed, or another page shown) are let go.
  useEffect(() => {
    setSelection((current) => {
      const onPage = new Set(rows.map((row) => row._id));
      const kept = Object.fromEntries(Object.entries(current).filter(([id]) => onPage.has(id)));
      return Object.keys(kept).length === Object.keys(current).length ? current : kept;
    });
  }, [rows]);

  const href = (change: Partial<TableView>) => {
    const next = { ...view, ...change };
    const params = viewParams(next, new URLSearchParams(location.search));
    const search = params.toString();
    return `${base}${search ? `?${search}` : ''}`;
  };
  const sortHref = (field: string) => {
    const direction = view.sort?.field === field && view.sort.direction === 1 ? -1 : 1;
    return href({ sort: { field, direction }, page: 1, cursor: '' });
  };
  const withParam = (name: string, value: string | null) => {
    const params = new URLSearchParams(location.search);
    if (value === null) params.delete(name);
    else params.set(name, value);
    const search = params.toString();
    return `${base}${search ? `?${search}` : ''}`;
  };
  const nameOf = (row: Row) => {
    const field = columns[0]?.name;
    const value = field ? row[field] : row._id;
    if (value && typeof value === 'object')
      return String((value as Record<string, string>)[locale] ?? (value as Record<string, string>).en ?? row._id);
    return String(value ?? row._id);
  };

  // The result of a removal: a message, and the selection cleared of what went. The table is read
  // again by the page's loader, as after every action (its newer answer replaces the query's).
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const answer = remover.data;
    if (!answer || handled.current === answer) return;
    if (answer.intent === 'rowAction') {
      handled.current = answer;
      if (answer.result.ok) snackbar.success(t(`admin.rowActionDone.${answer.result.key}`));
      else snackbar.error(answer.result.message);
      return;
    }
    if (answer.intent !== 'remove') return;
    handled.current = answer;
    const { removed, failures } = answer.result;
    if (failures.length > 0) {
      const reasons = [...new Set(failures.map((failure) => failure.message))].join(' ');
      snackbar.error(t('admin.removeFailed', { count: failures.length, reasons }));
    }
    if (removed > 0) snackbar.success(removed === 1 ? t('admin.removed') : t('admin.removedMany', { count: removed }));
    setSelection({});
    setAllSelected(false);
  }, [remover.data, snackbar, t]);

  /** One of the entity's own actions on a record, through the page's action (the service decides again). */
  const runAction = (id: string, action: RowAction) => {
    const form = new FormData();
    form.set('intent', 'rowAction');
    form.set('key', action.key);
    form.set('id', id);
    void remover.submit(form, { method: 'post' });
  };

  const remove = (targets: Row[] | 'all') => {
    // Several, with the live connection up: one by one with a progress bar that can be stopped.
    if (targets === 'all' || (targets.length > 1 && live)) {
      setConfirming(null);
      setBatch(targets);
      return;
    }
    const form = new FormData();
    form.set('intent', 'remove');
    for (const row of targets) form.append('id', row._id);
    void remover.submit(form, { method: 'post' });
    setConfirming(null);
  };

  const selected = rows.filter((row) => selection[row._id]);
  // Every row of the page chosen while the search matches more: the whole match may be chosen.
  const wholePage = rows.length > 0 && selected.length === rows.length;
  const moreThanPage = table.totalCapped === true || total > rows.length;
  const everyMatch = allSelected && wholePage;
  const matchCount = table.totalCapped ? `${formatNumber(total, locale)}+` : total;
  /** The view's matches without its page: what the selection `all` deletes and exports. */
  const matchQuery = () => {
    const {
      $limit: _limit,
      $skip: _skip,
      $cursor: _cursor,
      $countUpTo: _countUpTo,
      ...rest
    } = viewQuery(definition, view);
    return rest;
  };
  /** Reads every match, a page at a time, up to the most one deletion takes. */
  const findMatches = async (going: () => boolean) => {
    const found: { id: string; name: string }[] = [];
    const nameField = columns[0]?.name;
    for (let skip = 0; going() && found.length < ALL_SELECTED_LIMIT; skip += MAX_PAGE) {
      const page = (await live!.call(source, (service) =>
        records(service).find({
          query: { ...matchQuery(), $select: nameField ? [nameField] : [], $limit: MAX_PAGE, $skip: skip },
        }),
      )) as { data: Row[] };
      found.push(...page.data.map((row) => ({ id: row._id, name: nameOf(row) })));
      if (page.data.length < MAX_PAGE) break;
    }
    return found.slice(0, ALL_SELECTED_LIMIT);
  };
  const saveProblem = actionData?.intent === 'save' && !actionData.result.ok ? actionData.result : null;
  const editorId = new URLSearchParams(location.search).get('editor');
  const closeEditor = () => navigate(withParam('editor', null), { preventScrollReset: true });

  return (
    <div data-live={reads ? 'on' : 'off'} data-testid="admin-page">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold" data-testid="admin-heading">
          {t(`resources.${source}.name`)}
        </h1>
        <div className="flex gap-2">
          <button type="button" className={smallButton} onClick={reload} data-testid="admin-refresh">
            {t('admin.refresh')}
          </button>
          {uploads ? (
            <button
              type="button"
              className={smallButton}
              aria-expanded={uploading}
              onClick={() => setUploading((open) => !open)}
              data-testid="admin-upload"
            >
              {uploads === 'facebook'
                ? t(uploading ? 'facebook.close' : 'facebook.open')
                : t(uploading ? 'admin.upload.close' : 'admin.upload.open')}
            </button>
          ) : null}
          {actions.has('export') && live ? (
            <button type="button" className={smallButton} onClick={() => setExporting(true)} data-testid="admin-export">
              {t('admin.export.title')}
            </button>
          ) : null}
          {actions.has('add') ? (
            <Link
              to={`${base}/new`}
              className="inline-flex min-h-9 items-center justify-center gap-1 rounded-full bg-brand-700 px-3.5 py-1.5 text-sm font-semibold text-white hover:bg-brand-800 dark:bg-brand-400 dark:text-brand-950 dark:hover:bg-brand-300"
              data-testid="admin-add"
            >
              <PlusIcon className="h-4 w-4" />
              {t('admin.add')}
            </Link>
          ) : null}
        </div>
      </div>
      {uploading && uploads === 'media' ? <MediaUpload onUploaded={reload} /> : null}
      {uploading && uploads === 'facebook' ? (
        <FacebookImport live={live} graph={loaderData.facebookPage} onStarted={reload} />
      ) : null}
      <SearchPanel
        // Drawn again when the search or the filters in the URL change (Clear, Back): its boxes show them, not what was typed before.
        key={JSON.stringify([view.q, view.choices, view.ranges])}
        source={source}
        view={view}
        references={references}
      />
      {selected.length > 0 ? (
        <div
          className="mt-3 flex flex-wrap items-center gap-3 rounded-xl border border-brand-200 bg-brand-50 px-4 py-2 text-sm dark:border-brand-800 dark:bg-brand-950"
          data-testid="selection-bar"
        >
          <span className="font-semibold" aria-live="polite" data-testid="selection-count">
            {everyMatch
              ? t('admin.allSelected', { count: matchCount })
              : t('admin.selected', { count: selected.length })}
          </span>
          {wholePage && moreThanPage && !everyMatch && live ? (
            <button
              type="button"
              className="font-semibold text-brand-700 underline underline-offset-4 dark:text-brand-300"
              onClick={() => setAllSelected(true)}
              data-testid="select-all-matches"
            >
              {t('admin.selectAll', { count: matchCount })}
            </button>
          ) : null}
          <button
            type="button"
            className="font-semibold text-muted underline-offset-4 hover:underline"
            onClick={() => {
              setSelection({});
              setAllSelected(false);
            }}
          >
            {t('admin.clearSelection')}
          </button>
          {actions.has('remove') ? (
            <button
              type="button"
              className="ml-auto font-semibold text-red-700 dark:text-red-300"
              onClick={() => (everyMatch ? setConfirming('all') : setConfirming(selected))}
              data-testid="remove-selected"
            >
              {t('admin.removeSelected')}
            </button>
          ) : null}
        </div>
      ) : null}
      <div className="mt-3">
        <DataTable
          source={source}
          rows={rows}
          columns={columns}
          view={view}
          references={references}
          actions={actions}
          selection={selection}
          onSelectionChange={(next) => {
            setSelection(next);
            setAllSelected(false);
          }}
          sortHref={sortHref}
          editHref={(id) => withParam('editor', id)}
          cloneHref={(id) => `${base}/edit?clone=${encodeURIComponent(id)}`}
          onRemove={(row) => setConfirming([row])}
          nameOf={nameOf}
          expanded={expanded}
          expandHref={(id) => {
            const next = new Set(expanded);
            if (next.has(id)) next.delete(id);
            else next.add(id);
            return withParam('open', next.size > 0 ? [...next].join(',') : null);
          }}
          detailFields={detailFields}
          rowActions={rowActions}
          onRowAction={(row, action) => runAction(row._id, action)}
          related={screen.related ?? []}
        />
      </div>
      <Pagination
        view={view}
        total={total}
        totalCapped={table.totalCapped}
        shown={rows.length}
        cursors={table.cursors}
        href={href}
      />
      {confirming ? (
        <ConfirmDialog
          title={
            confirming === 'all'
              ? t('admin.confirmRemove.many', { count: matchCount })
              : confirming.length === 1
                ? t('admin.confirmRemove.title')
                : t('admin.confirmRemove.many', { count: confirming.length })
          }
          body={
            confirming === 'all'
              ? t('admin.confirmRemove.allBody', { limit: ALL_SELECTED_LIMIT })
              : confirming.length === 1
                ? t('admin.confirmRemove.body', { name: nameOf(confirming[0] as Row) })
                : t('admin.confirmRemove.manyBody')
          }
          confirmLabel={t('admin.remove')}
          onConfirm={() => remove(confirming)}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
      {exporting && live ? (
        <ExportDialog
          source={source}
          columns={exportedFieldsOf(definition)}
          // The export reads every page itself: the view's filters and order, not its page.
          query={matchQuery()}
          // Every match chosen: the export of the search is the selection.
          selectedIds={everyMatch ? [] : selected.map((row) => row._id)}
          live={live}
          onClose={() => setExporting(false)}
        />
      ) : null}
      {batch && live ? (
        <BatchRemoval
          live={live}
          source={source}
          {...(batch === 'all'
            ? { find: findMatches }
            : { targets: batch.map((row) => ({ id: row._id, name: nameOf(row) })) })}
          onFinished={(removed) => {
            setBatch(null);
            setSelection({});
            setAllSelected(false);
            if (removed > 0)
              snackbar.success(removed === 1 ? t('admin.removed') : t('admin.removedMany', { count: removed }));
            reload();
          }}
        />
      ) : null}
      {editorId && editing ? (
        <EditorDialog
          title={editing.record ? t('admin.editor.edit', { name: editing.name }) : t(`resources.${source}.name`)}
          pageHref={editing.record ? `${base}/edit/${encodeURIComponent(editorId)}` : null}
          onClose={closeEditor}
        >
          {editing.record ? (
            <RecordForm
              // Kept while the record is read again (live changes): the edits stay, checked against the version they started from.
              key={`${editorId}:${reloads}`}
              formId="record-editor"
              source={source}
              fields={editorFieldsOf(definition, loaderData.role, 'patch')}
              record={editing.record}
              id={editorId}
              version={
                editing.record.updatedAt ? new Date(editing.record.updatedAt as string).toISOString() : undefined
              }
              options={editing.options}
              problem={saveProblem}
              onCancel={closeEditor}
              onReload={() => {
                setReloads((count) => count + 1);
                void revalidator.revalidate();
              }}
            >
              {editing.record && rowActions.some((action) => rowActionFits(action, editing.record ?? {})) ? (
                // The record's own actions (a push message's Send now), as on its row; saved edits first.
                <div className="mb-4 flex flex-wrap gap-2" role="group" aria-label={t('admin.editor.actions')}>
                  {rowActions
                    .filter((action) => rowActionFits(action, editing.record ?? {}))
                    .map((action) => (
                      <button
                        key={action.key}
                        type="button"
                        className="rounded-lg border border-line px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-sunken dark:text-brand-300"
                        data-testid={`editor-${action.key}`}
                        onClick={() => runAction(editorId, action)}
                      >
                        {t(`admin.rowActions.${action.key}`)}
                      </button>
                    ))}
                </div>
              ) : null}
              {editing.related.length > 0 ? <RelatedRecords id={editorId} lists={editing.related} /> : null}
              {editing.series ? <SeriesPanel series={editing.series} /> : null}
              {editing.history ? (
                <RecordHistory
                  source={source}
                  fields={columnsOf(definition).concat(editorFieldsOf(definition, loaderData.role, 'patch'))}
                  entries={editing.history}
                />
              ) : null}
            </RecordForm>
          ) : (
            <p className="pb-5" data-testid="editor-missing">
              {t('admin.notFound')}
            </p>
          )}
        </EditorDialog>
      ) : null}
      {saveProblem?.conflict ? (
        <p className="sr-only" role="status">
          {t('admin.editor.conflict')}
        </p>
      ) : null}
    </div>
  );
}

/** The editor over the table: a modal dialog (focus kept inside, Escape closes it). */
function EditorDialog({
  title,
  pageHref,
  onClose,
  children,
}: {
  title: string;
  pageHref: string | null;
  onClose: () => void;
  children: React.ReactNode;
}) {
  const { t } = useLocale();
  return (
    <ModalDialog
      labelledBy="editor-title"
      className="max-h-[92vh] w-[min(100vw-1rem,56rem)] overflow-y-auto p-0"
      onCancel={onClose}
      testId="editor-dialog"
    >
      <div className="sticky top-0 z-10 flex items-center justify-between gap-3 border-b border-line bg-raised px-5 py-4">
        <h2 id="editor-title" className="min-w-0 truncate text-lg font-semibold">
          {title}
        </h2>
        <div className="flex shrink-0 items-center gap-2">
          {pageHref ? (
            <Link
              to={pageHref}
              className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
            >
              {t('admin.editor.openPage')}
            </Link>
          ) : null}
          <button type="button" onClick={onClose} className={smallButton} data-testid="editor-close">
            {t('admin.editor.close')}
          </button>
        </div>
      </div>
      <div className="px-5 pt-5">{children}</div>
    </ModalDialog>
  );
}
