import { Link } from 'react-router';
import { formatMoney, formatNumber } from '../../../domain/format';
import type { CurrencyCode } from '../../../domain/money';
import { localeOf, localized } from '../../../domain/locales';
import { requireUser } from '../../auth.server';
import { PRICE_KEYS } from '../../components/portal/plan-text';
import { StatusBadge, upgradeLink } from '../../components/portal/app-parts';
import { primaryButton, smallButton } from '../../components/ui/buttons';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { useSsoLink } from '../../components/portal/sso';
import { useLiveRefresh } from '../../api/use-live';
import { siteLinks, useSite } from '../../shell';
import type { Route } from './+types/apps';
import { type AppCard, loadApps, type OfferedCard } from './apps.server';

/*
 * `/{locale}/portal/apps`: the member's apps (issue 16, decision 030), one per module of their
 * plan, included or bought, with its status; and below, what the plan could add, each with its
 * price and a way into the upgrade.
 */

export const messageGroups = ['apps', 'dashboard'] as const;

/** Staff's changes to the plan (a module set up) and devices registered elsewhere show as they happen. */
const LIVE_SERVICES = ['subscriptions', 'devices'] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  return { ...(await loadApps(ctx, user, localeOf(params.lang))), messages: pageMessages(params.lang, messageGroups) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'apps.title', index: false });
}

function OwnApp({ app }: { app: AppCard }) {
  const { t, locale } = useLocale();
  const link = useSsoLink();
  const name = localized(app.name, locale);
  return (
    <li
      className="flex flex-col rounded-2xl border border-line bg-raised p-5"
      data-testid="app-card"
      data-app={app.slug}
      data-status={app.status}
    >
      <h3 className="text-lg font-semibold">
        <Link
          to={link(`/${locale}/portal/apps/${app.slug}`)}
          className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
          data-testid="app-open"
        >
          {name}
        </Link>
      </h3>
      {app.shortDesc ? <p className="mt-1 text-muted">{localized(app.shortDesc, locale)}</p> : null}
      <div className="mt-auto flex flex-wrap items-center gap-2 pt-4 text-sm">
        <StatusBadge status={app.status} availableOn={app.availableOn} />
        {app.included ? <span className="text-muted">{t('dashboard.included')}</span> : null}
        {app.counter ? (
          <span className="text-muted">{t('dashboard.count', { count: formatNumber(app.count, locale) })}</span>
        ) : null}
        {app.devices !== null ? (
          <span className="text-muted" data-testid="app-devices">
            {t('apps.devicesCount', { count: formatNumber(app.devices, locale) })}
          </span>
        ) : null}
      </div>
    </li>
  );
}

function Offered({ app, subscription, currency }: { app: OfferedCard; subscription: string; currency: CurrencyCode }) {
  const { t, locale } = useLocale();
  const link = useSsoLink();
  const name = localized(app.name, locale);
  const price = formatMoney({ amount: app.unitPrice, currency }, locale);
  return (
    <li
      className="flex flex-col rounded-2xl border border-line bg-raised p-5"
      data-testid="offered-card"
      data-app={app.slug}
    >
      <h3 className="text-lg font-semibold">
        <Link to={link(`/${locale}/portal/apps/${app.slug}`)} className="underline-offset-2 hover:underline">
          {name}
        </Link>
      </h3>
      {app.shortDesc ? <p className="mt-1 text-muted">{localized(app.shortDesc, locale)}</p> : null}
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-4">
        <span className="text-sm" data-testid="offered-price">
          {t(PRICE_KEYS[app.billing], { price })}
          {app.counter ? <span className="text-muted"> · {t('dashboard.perUnit')}</span> : null}
        </span>
        {/* The upgrade is a purchase page: a document of its own, whose policy allows the card frame. */}
        <Link
          to={link(upgradeLink(locale, subscription, app.id))}
          reloadDocument
          className={smallButton}
          aria-label={t('dashboard.addThis', { name })}
          data-testid="offered-add"
        >
          {t('dashboard.add')}
        </Link>
      </div>
    </li>
  );
}

export default function Apps({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const link = useSsoLink();
  useLiveRefresh(LIVE_SERVICES);
  const { subscription, apps, offered } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:py-10" data-testid="apps-page">
      <h1 className="text-3xl font-bold">{t('apps.heading')}</h1>
      <p className="mt-2 max-w-prose text-lg text-muted">{t('apps.lead')}</p>
      {subscription ? (
        <>
          <section aria-labelledby="own-apps-heading" className="mt-8">
            <h2 id="own-apps-heading" className="text-xl font-semibold">
              {t('apps.yours')}
            </h2>
            {apps.length === 0 ? (
              <p className="mt-3 text-muted" data-testid="apps-none">
                {t('apps.none')}
              </p>
            ) : (
              <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="apps">
                {apps.map((app) => (
                  <OwnApp key={app.id} app={app} />
                ))}
              </ul>
            )}
          </section>
          {offered.length > 0 ? (
            <section aria-labelledby="offered-heading" className="mt-10">
              <h2 id="offered-heading" className="text-xl font-semibold">
                {t('apps.offeredHeading')}
              </h2>
              <p className="mt-1 text-muted">{t('apps.offeredLead')}</p>
              <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="offered">
                {offered.map((app) => (
                  <Offered key={app.id} app={app} subscription={subscription._id} currency={subscription.currency} />
                ))}
              </ul>
            </section>
          ) : null}
        </>
      ) : (
        <section
          aria-labelledby="empty-heading"
          className="mt-8 rounded-2xl border border-line bg-raised p-6 sm:p-8"
          data-testid="apps-no-plan"
        >
          <h2 id="empty-heading" className="text-xl font-semibold">
            {t('dashboard.emptyHeading')}
          </h2>
          <p className="mt-2 max-w-prose text-muted">{t('dashboard.emptyBody')}</p>
          <Link
            to={link(siteLinks(locale, site.brandSlug).subscription)}
            reloadDocument
            className={`${primaryButton} mt-5`}
          >
            {t('dashboard.emptyAction')}
          </Link>
        </section>
      )}
    </div>
  );
}
