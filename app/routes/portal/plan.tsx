import { Link } from 'react-router';
import { formatMoney, formatNumber } from '../../../domain/format';
import { localized } from '../../../domain/locales';
import { requireUser } from '../../auth.server';
import { primaryButton, secondaryButton } from '../../components/ui/buttons';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { useSsoLink } from '../../portal/sso';
import { siteLinks, useSite } from '../../shell';
import type { Route } from './+types/plan';
import { dayText, PLAN_NAMES, PRICE_KEYS } from '../../components/portal/plan-text';
import { loadDashboard } from './dashboard.server';

/*
 * `/{locale}/portal/plan`: the member's plan in detail (issue 16, "plan detail"): its modules and
 * prices, its contract terms, and what changes when the prepaid months or the contract end, all
 * worked out by the same billing rules as the dashboard (decision 023).
 */

export const messageGroups = ['dashboard', 'planDetail'] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  const { subscription } = await loadDashboard(ctx, user);
  return { subscription, messages: pageMessages(params.lang, messageGroups) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'planDetail.title', index: false });
}

function Term({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <div className="grid gap-1 px-4 py-3 sm:grid-cols-[14rem_1fr] sm:px-5">
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

export default function PlanDetail({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const link = useSsoLink();
  const { subscription } = loaderData;
  if (!subscription) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6" data-testid="plan-detail-none">
        <h1 className="text-3xl font-bold">{t('dashboard.emptyHeading')}</h1>
        <p className="mt-3 text-lg text-muted">{t('dashboard.emptyBody')}</p>
        <Link to={link(siteLinks(locale, site.brandSlug).subscription)} reloadDocument className={`${primaryButton} mt-6`}>
          {t('dashboard.emptyAction')}
        </Link>
      </div>
    );
  }
  const { plan, overview, modules } = subscription;
  const money = (amount: number) => formatMoney({ amount, currency: overview.currency }, locale);
  const day = (value: string) => dayText(value, locale);
  const nameOf = (id: string) => localized(modules[id]?.name, locale) || id;
  const yearly = overview.activated.filter((module) => module.billing === 'yearly' && !module.included);
  const prepaidRunning = overview.prepaid !== null && overview.prepaidEnd !== null;
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 lg:py-10" data-testid="plan-detail">
      <p>
        <Link to={link(`/${locale}/portal`)} className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300">
          ← {t('planDetail.back')}
        </Link>
      </p>
      <h1 className="mt-3 text-3xl font-bold">
        {t('planDetail.heading', { plan: PLAN_NAMES[plan.type] })}
        <span className="ml-3 text-lg font-normal text-muted">{localized(plan.name, locale)}</span>
      </h1>

      <section aria-labelledby="terms-heading" className="mt-8 rounded-2xl border border-line bg-raised">
        <h2 id="terms-heading" className="border-b border-line px-4 py-3 text-lg font-semibold sm:px-5">
          {t('planDetail.terms')}
        </h2>
        <dl className="divide-y divide-line">
          <Term label={t('planDetail.contract')} testId="term-contract">
            {overview.contractMonths > 0
              ? // Paying ahead longer than the contract makes the contract that long (decision 018).
              t('planDetail.contractTerm', { months: formatNumber(Math.max(overview.contractMonths, overview.prepaidMonths), locale), start: day(overview.contractStart), end: day(overview.contractEnd) })
              : t('planDetail.noContract')}
          </Term>
          {overview.contractMonths > 0 ? (
            <Term label={t('planDetail.ending')} testId="term-ending">
              {t('planDetail.termination', { end: day(overview.contractEnd) })}
            </Term>
          ) : null}
          <Term label={t('planDetail.prepaid')} testId="term-prepaid">
            {overview.prepaidMonths > 0 && overview.prepaidEnd
              ? t('planDetail.prepaidTerm', { months: formatNumber(overview.prepaidMonths, locale), end: day(overview.prepaidEnd) })
              : t('planDetail.noPrepaid')}
          </Term>
          <Term label={t('planDetail.card')} testId="term-card">
            {subscription.card
              ? t('planDetail.cardText', {
                  brand: subscription.card.brand.toUpperCase(),
                  last4: subscription.card.last4,
                  month: String(subscription.card.expMonth).padStart(2, '0'),
                  year: subscription.card.expYear,
                })
              : t('planDetail.noCard')}
          </Term>
          <Term label={t('dashboard.settlement')} testId="term-settlement">
            {t(overview.billingAnchorDay > 28 ? 'dashboard.settlementClamped' : 'dashboard.settlementDay', { day: overview.billingAnchorDay })}
          </Term>
        </dl>
      </section>

      <section aria-labelledby="renewal-heading" className="mt-6 rounded-2xl border border-brand-500 bg-raised p-4 sm:p-5" data-testid="renewal">
        <h2 id="renewal-heading" className="text-lg font-semibold">
          {t('planDetail.renewal')}
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li data-testid="renewal-monthly">
            {prepaidRunning && overview.prepaidEnd
              ? t('planDetail.afterPrepaid', { date: day(overview.prepaidEnd), amount: money(overview.monthly) })
              : t('planDetail.monthly', { date: day(overview.nextPayDate), amount: money(overview.monthly) })}
          </li>
          {yearly.map((module) => (
            <li key={module.id} data-testid="renewal-yearly">
              {t('planDetail.yearly', { name: nameOf(module.id), amount: money(module.unitPrice * module.count) })}
            </li>
          ))}
          <li data-testid="renewal-contract">
            {overview.contractMonths > 0 ? t('planDetail.contractRenews', { end: day(overview.contractEnd) }) : t('planDetail.liteRenews')}
          </li>
        </ul>
      </section>

      <section aria-labelledby="modules-heading" className="mt-6 rounded-2xl border border-line bg-raised">
        <h2 id="modules-heading" className="border-b border-line px-4 py-3 text-lg font-semibold sm:px-5">
          {t('planDetail.modules')}
        </h2>
        <ul className="divide-y divide-line">
          <li className="flex items-baseline justify-between gap-4 px-4 py-3 sm:px-5" data-testid="plan-fee">
            <span className="font-medium">{t('dashboard.basicFee')}</span>
            <span className="whitespace-nowrap">{t('dashboard.perMonth', { price: money(overview.basicMonthlyFee) })}</span>
          </li>
          {overview.activated.map((module) => (
            <li key={module.id} className="flex items-baseline justify-between gap-4 px-4 py-3 sm:px-5" data-testid="plan-module" data-module={module.id}>
              <span className="min-w-0">
                <span className="font-medium">{nameOf(module.id)}</span>
                {module.count > 1 ? <span className="ml-2 text-muted">{t('dashboard.count', { count: formatNumber(module.count, locale) })}</span> : null}
                {module.pending ? <span className="ml-2 text-sm text-muted">({t('dashboard.pendingNoDate')})</span> : null}
              </span>
              <span className="text-right whitespace-nowrap text-muted">
                {module.included ? t('dashboard.included') : t(PRICE_KEYS[module.billing], { price: money(module.unitPrice * module.count) })}
              </span>
            </li>
          ))}
          <li className="flex items-baseline justify-between gap-4 px-4 py-3 font-semibold sm:px-5">
            <span>{t('planDetail.monthlyTotal')}</span>
            <span className="whitespace-nowrap" data-testid="plan-monthly">
              {money(overview.monthly)}
            </span>
          </li>
        </ul>
      </section>

      {overview.inactiveAddOns.length > 0 ? (
        <p className="mt-6">
          <Link to={link(`/${locale}/upgrade/${subscription._id}`)} reloadDocument className={secondaryButton} data-testid="plan-add-functions">
            {t('dashboard.addFunctions')}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
