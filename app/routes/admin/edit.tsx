import { data, Link, redirect, useLocation, useNavigate } from 'react-router';
import { editorFieldsOf, recordName } from '../../../domain/admin/screens';
import { entities } from '../../../domain/entities/index';
import { localeOf } from '../../../domain/locales';
import { requireStaff } from '../../auth.server';
import { RecordHistory } from '../../components/admin/history';
import { RecordForm } from '../../components/admin/record-form';
import { useLiveRefresh } from '../../api/use-live';
import { serverContext } from '../../context';
import { flashCookie } from '../../feedback.server';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import type { Route } from './+types/edit';
import { editorOptions } from './editor.server';
import {
  adminSource,
  loadHistory,
  loadRecord,
  loadRelated,
  loadSeries,
  requireAction,
  saveRecord,
} from './records.server';
import { RelatedRecords } from '../../components/admin/related-records';
import { SeriesPanel } from '../../components/admin/series-panel';
import { useActionAnswer } from '../../action-answer';

/*
 * The editor as a page (issue 21): `/{source}/new`, `/{source}/edit/{id}`, and
 * `/{source}/edit?clone={id}` (a new record filled from another). Saving goes back to the table.
 */

export const messageGroups = ['forms', 'uploader'] as const;

type Mode = 'new' | 'edit' | 'clone';

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireStaff(ctx, request, params.lang);
  const source = adminSource(params.source, user);
  const lang = localeOf(params.lang);
  const cloneOf = new URL(request.url).searchParams.get('clone');
  const mode: Mode = params.id ? 'edit' : cloneOf ? 'clone' : 'new';
  requireAction(source, user.role, mode === 'edit' ? 'edit' : mode === 'clone' ? 'clone' : 'add');
  const loadedId = params.id ?? cloneOf;
  const record = loadedId ? await loadRecord(ctx, source, loadedId, lang) : null;
  if (loadedId && !record) throw data(null, { status: 404 });
  const options = await editorOptions(ctx, source, user.role, mode === 'edit' ? 'patch' : 'create', lang, record);
  const history = mode === 'edit' && record ? await loadHistory(ctx, user, source, record._id, lang) : null;
  const related = mode === 'edit' && record ? await loadRelated(ctx, user, source, record._id, lang) : [];
  const series = mode === 'edit' && record ? await loadSeries(ctx, source, record._id, lang) : null;
  return {
    source,
    mode,
    record,
    name: record ? recordName(source, record, lang) : '',
    options,
    role: user.role,
    history,
    related,
    series,
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
  // The id a patch is for comes from the address, never from the form alone.
  if (params.id) form.set('id', params.id);
  else form.delete('id');
  const result = await saveRecord(ctx, user, source, form, lang);
  if (!result.ok) return data({ result }, { status: result.conflict ? 409 : 400 });
  const key = result.created ? 'admin.created' : result.changed ? 'admin.saved' : 'admin.editor.noChanges';
  return redirect(`/${lang}/admin/${source}`, {
    headers: { 'set-cookie': flashCookie({ type: 'success', key }, ctx.secureCookies) },
  });
}

export default function AdminEdit({ loaderData, actionData: answered }: Route.ComponentProps) {
  const actionData = useActionAnswer(answered);
  const { t, locale } = useLocale();
  const { source, mode, record, name, options, role, history, related, series } = loaderData;
  const navigate = useNavigate();
  const location = useLocation();
  const definition = entities[source];
  const base = `/${locale}/admin/${source}`;
  const title =
    mode === 'edit'
      ? t('admin.editor.edit', { name })
      : t('admin.editor.new', { entity: t(`resources.${source}.name`) });
  const problem = actionData && !actionData.result.ok ? actionData.result : null;
  // The record's page follows changes made elsewhere (a push message's statistics as devices report).
  useLiveRefresh(mode === 'edit' ? [source] : []);
  return (
    <div className="mx-auto max-w-4xl">
      <nav className="mb-2 text-sm">
        <Link to={base} className="font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
          ← {t(`resources.${source}.name`)}
        </Link>
      </nav>
      <h1 className="mb-5 text-2xl font-bold" data-testid="admin-heading">
        {title}
      </h1>
      <div className="rounded-2xl border border-line bg-raised px-5 pt-5">
        <RecordForm
          key={location.key}
          formId="record-page"
          source={source}
          fields={editorFieldsOf(definition, role, mode === 'edit' ? 'patch' : 'create')}
          record={record}
          id={mode === 'edit' ? record?._id : undefined}
          version={
            mode === 'edit' && record?.updatedAt ? new Date(record.updatedAt as string).toISOString() : undefined
          }
          options={options}
          problem={problem}
          onCancel={() => navigate(base)}
        >
          {record && related.length > 0 ? <RelatedRecords id={record._id} lists={related} heading="h2" /> : null}
          {series ? <SeriesPanel series={series} heading="h2" /> : null}
          {history ? (
            <RecordHistory
              source={source}
              fields={editorFieldsOf(definition, role, 'patch')}
              entries={history}
              heading="h2"
            />
          ) : null}
        </RecordForm>
      </div>
    </div>
  );
}
