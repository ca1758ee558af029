import { data, Form, Link, useLocation, useNavigation } from 'react-router';
import { missingTranslationsSchema } from '../../../domain/forms/missing-translations';
import { isLocale, LOCALES, localeOf } from '../../../domain/locales';
import { formatIsoDate, formatNumber } from '../../../domain/format';
import { requireStaff } from '../../auth.server';
import { LANGUAGE_NAMES } from '../../components/layout/language-selector';
import { readAsSent } from '../../components/forms/read-form';
import { refusalOf } from '../../components/forms/refusal';
import { useSay } from '../../components/forms/say';
import { smallButton } from '../../components/ui/buttons';
import { serverContext, type ServerContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMeta } from '../../meta';
import { memberCallParams } from '../../api/call-params.server';
import type { Route } from './+types/translations';

/*
 * `/{locale}/admin/translations`: the message keys pages asked for that a language lacks (reported
 * by development pages through `missingTranslate`), the most asked first, with the page that asked
 * last. Staff remove a key once it is translated; admins empty the list.
 */

const PAGE_SIZE = 50;

const missingOf = (ctx: ServerContext) => ctx.api.service('missingTranslate');

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireStaff(ctx, request, params.lang);
  const url = new URL(request.url);
  const language = url.searchParams.get('language');
  const page = Math.max(1, Math.min(10_000, Number(url.searchParams.get('page')) || 1));
  const query = {
    $limit: PAGE_SIZE,
    $skip: (page - 1) * PAGE_SIZE,
    ...(isLocale(language) ? { locale: language } : {}),
  };
  const found = await missingOf(ctx).find({ ...memberCallParams(ctx, localeOf(params.lang)), query });
  return { rows: found.data, total: found.total, page, language: query.locale ?? '', canClear: user.role === 'admin' };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'admin.translations.title', index: false });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  requireStaff(ctx, request, params.lang);
  const { intent, id } = await readAsSent(request, missingTranslationsSchema);
  const callParams = memberCallParams(ctx, localeOf(params.lang));
  try {
    if (intent === 'clear') await missingOf(ctx).remove(null, callParams);
    else if (id) await missingOf(ctx).remove(id, callParams);
    else throw data(null, { status: 400 });
  } catch (caught) {
    const { refused, status, message } = refusalOf(caught);
    if (refused) return data({ message }, { status });
    throw caught;
  }
  return { message: '' };
}

export default function AdminTranslations({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const say = useSay();
  const location = useLocation();
  const navigation = useNavigation();
  const { rows, total, page, language, canClear } = loaderData;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const withPage = (next: number) => {
    const params = new URLSearchParams(location.search);
    params.set('page', String(next));
    return `${location.pathname}?${params}`;
  };
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold" data-testid="admin-heading">
          {t('admin.translations.title')}
        </h1>
        {canClear && total > 0 ? (
          <Form
            method="post"
            onSubmit={(event) =>
              window.confirm(t('admin.translations.clearConfirm')) ? undefined : event.preventDefault()
            }
          >
            <input type="hidden" name="intent" value="clear" />
            <button
              type="submit"
              className={`${smallButton} text-red-700 dark:text-red-300`}
              data-testid="translations-clear"
            >
              {t('admin.translations.clear')}
            </button>
          </Form>
        ) : null}
      </div>
      <p className="mt-1 text-muted">{t('admin.translations.lead')}</p>
      {actionData?.message ? (
        <p role="alert" className="mt-3 text-red-700 dark:text-red-300">
          {say(actionData.message)}
        </p>
      ) : null}
      <Form method="get" className="mt-4 flex items-end gap-2" preventScrollReset>
        <label className="block">
          <span className="block text-sm font-medium">{t('admin.translations.language')}</span>
          <select
            name="language"
            defaultValue={language}
            className="mt-1 rounded-lg border border-line bg-raised px-3 py-2"
            data-testid="translations-language"
          >
            <option value="">{t('admin.any')}</option>
            {LOCALES.map((code) => (
              <option key={code} value={code}>
                {LANGUAGE_NAMES[code]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={smallButton}>
          {t('admin.apply')}
        </button>
      </Form>
      <div className="mt-4 overflow-x-auto rounded-2xl border border-line bg-raised">
        <table className="w-full text-left text-sm" data-testid="translations-table">
          <thead className="border-b border-line text-xs tracking-wide text-muted uppercase">
            <tr>
              <th scope="col" className="px-3 py-2.5">
                {t('admin.translations.key')}
              </th>
              <th scope="col" className="px-3 py-2.5">
                {t('admin.translations.language')}
              </th>
              <th scope="col" className="px-3 py-2.5">
                {t('admin.translations.count')}
              </th>
              <th scope="col" className="px-3 py-2.5">
                {t('admin.translations.page')}
              </th>
              <th scope="col" className="px-3 py-2.5">
                {t('admin.translations.last')}
              </th>
              <th scope="col" className="px-3 py-2.5">
                <span className="sr-only">{t('admin.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={row._id} data-testid="translation-row">
                <td className="px-3 py-2 font-mono text-xs">{row.key}</td>
                <td className="px-3 py-2">{LANGUAGE_NAMES[row.locale as keyof typeof LANGUAGE_NAMES] ?? row.locale}</td>
                <td className="px-3 py-2 tabular-nums">{formatNumber(row.count, locale)}</td>
                <td className="max-w-xs truncate px-3 py-2">{row.url}</td>
                <td className="px-3 py-2 tabular-nums">{formatIsoDate(row.updatedAt)}</td>
                <td className="px-3 py-1.5 text-right">
                  <Form method="post">
                    <input type="hidden" name="id" value={row._id} />
                    <button
                      type="submit"
                      className="rounded-md px-2 py-1 font-semibold text-brand-700 hover:bg-sunken dark:text-brand-300"
                      disabled={navigation.state !== 'idle'}
                      aria-label={t('admin.translations.done', { key: row.key })}
                    >
                      {t('admin.translations.translated')}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 ? (
          <p className="px-4 py-10 text-center text-muted" data-testid="translations-empty">
            {t('admin.translations.none')}
          </p>
        ) : null}
      </div>
      <div className="mt-3 flex items-center justify-between text-sm text-muted">
        <span data-testid="translations-total">{t('admin.records', { count: formatNumber(total, locale) })}</span>
        {pages > 1 ? (
          <span className="flex gap-3">
            {page > 1 ? <Link to={withPage(page - 1)}>{t('admin.previous')}</Link> : null}
            <span>{t('admin.page', { page })}</span>
            {page < pages ? <Link to={withPage(page + 1)}>{t('admin.next')}</Link> : null}
          </span>
        ) : null}
      </div>
    </div>
  );
}
