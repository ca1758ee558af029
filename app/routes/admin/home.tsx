import { Link } from 'react-router';
import { ADMIN_GROUPS, ADMIN_SCREENS, screensFor } from '../../../domain/admin/screens';
import { formatNumber } from '../../../domain/format';
import { localeOf } from '../../../domain/locales';
import { requireStaff } from '../../auth.server';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMeta } from '../../meta';
import { memberCallParams } from '../../api/call-params.server';
import { recordsOf } from '../../api/services';
import type { Route } from './+types/home';

/** `/{locale}/admin`: every list the staff member may open, by group, with how many records each holds. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireStaff(ctx, request, params.lang);
  const lang = localeOf(params.lang);
  const screens = screensFor(user.role);
  const counts = await Promise.all(
    screens.map(async (source) => {
      const page = await recordsOf(ctx.api, source)
        .find({ ...memberCallParams(ctx, lang), query: { $limit: 0 } })
        .catch(() => null);
      return [source, page ? page.total : null] as const;
    }),
  );
  return { counts };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'admin.title', index: false });
}

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const counts = new Map(loaderData.counts);
  return (
    <div>
      <h1 className="text-2xl font-bold" data-testid="admin-heading">
        {t('admin.title')}
      </h1>
      <p className="mt-1 text-muted">{t('admin.homeIntro')}</p>
      {ADMIN_GROUPS.map((group) => {
        const inGroup = [...counts.keys()].filter((source) => ADMIN_SCREENS[source].group === group);
        if (inGroup.length === 0) return null;
        return (
          <section key={group} className="mt-8" aria-labelledby={`home-${group}`}>
            <h2 id={`home-${group}`} className="text-sm font-semibold tracking-wide text-muted uppercase">
              {t(`admin.groups.${group}`)}
            </h2>
            <ul className="mt-3 grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
              {inGroup.map((source) => {
                const count = counts.get(source);
                return (
                  <li key={source}>
                    <Link
                      to={`/${locale}/admin/${source}`}
                      className="block rounded-2xl border border-line bg-raised p-4 hover:border-brand-400 hover:shadow-sm"
                      data-testid={`admin-card-${source}`}
                    >
                      <span className="block font-semibold">{t(`resources.${source}.name`)}</span>
                      <span className="mt-1 block text-sm text-muted tabular-nums">
                        {count === null || count === undefined
                          ? '—'
                          : t('admin.records', { count: formatNumber(count, locale) })}
                      </span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
