import { Link, useRouteLoaderData } from 'react-router';
import type { Balance } from '../../../domain/billing/ledger';
import { formatMoney, formatNumber } from '../../../domain/format';
import { localized } from '../../../domain/locales';
import type { Billing } from '../../../domain/pricing';
import type { CurrencyCode } from '../../../domain/money';
import { serverContext } from '../../context';
import { requireUser } from '../../auth.server';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { siteLinks, useSite } from '../../shell';
import { dayText, PLAN_NAMES, PRICE_KEYS } from '../../components/portal/plan-text';
import type { Route } from './+types/dashboard';
import { loadDashboard } from './dashboard.server';
import type { loader as layoutLoader } from './layout';
import { primaryButton, smallButton } from '../../components/ui/buttons';
import { useSsoLink } from '../../components/portal/sso';
import { useLiveRefresh } from '../../api/use-live';

/** Services whose changes to the member's own records (staff's too) refresh the dashboard as they happen. */
const LIVE_SERVICES = ['subscriptions', 'orders', 'invoices'] as const;

export const messageGroups = ['dashboard'] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  return { ...(await loadDashboard(ctx, user)), messages: pageMessages(params.lang, messageGroups) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'portal.title', index: false });
}

/** The page's one call to action: the purchase flow's button. */
const actionButton = primaryButton;

function Figure({ label, value, testId, note }: { label: string; value: string; testId: string; note?: string }) {
  return (
    <div className="rounded-xl border border-line bg-raised p-4">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 text-lg font-semibold" data-testid={testId}>
        {value}
      </dd>
      {note ? <dd className="mt-1 text-sm text-muted">{note}</dd> : null}
    </div>
  );
}

function balanceText(
  balance: Balance,
  money: (amount: number) => string,
  t: ReturnType<typeof useLocale>['t'],
): string {
  if (balance.state === 'credit') return t('dashboard.balanceCredit', { amount: money(balance.amount) });
  if (balance.state === 'due') return t('dashboard.balanceDue', { amount: money(-balance.amount) });
  return t('dashboard.balanceSettled');
}

/** What needs the member's eye before the figures: a payment overdue, add-ons suspended, the plan stopping or ended. */
function LifecycleBanner({
  lifecycle,
  currency,
}: {
  lifecycle: NonNullable<Route.ComponentProps['loaderData']['subscription']>['lifecycle'];
  currency: CurrencyCode;
}) {
  const { t, locale } = useLocale();
  const link = useSsoLink();
  const amount = lifecycle.pastDue ? formatMoney({ amount: lifecycle.pastDue.amount, currency }, locale) : '';
  const text =
    lifecycle.status === 'past_due' && lifecycle.retryOn
      ? t('dashboard.pastDueBanner', { amount, date: dayText(lifecycle.retryOn, locale) })
      : lifecycle.status === 'unpaid'
        ? t('dashboard.unpaidBanner', { amount })
        : lifecycle.status === 'non_renewing' && lifecycle.cancelAt
          ? t('dashboard.stoppingBanner', { date: dayText(lifecycle.cancelAt, locale) })
          : lifecycle.status === 'cancelled' && lifecycle.cancelAt
            ? t('dashboard.endedBanner', { date: dayText(lifecycle.cancelAt, locale) })
            : null;
  if (!text) return null;
  const urgent = lifecycle.status === 'past_due' || lifecycle.status === 'unpaid';
  return (
    <div
      role={urgent ? 'alert' : 'status'}
      className={`mt-6 flex flex-wrap items-center justify-between gap-3 rounded-2xl border p-4 ${
        urgent
          ? 'border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50'
          : 'border-amber-400 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50'
      }`}
      data-testid="lifecycle-banner"
    >
      <p className="font-medium">{text}</p>
      <Link to={link(`/${locale}/portal/plan`)} className="font-semibold underline underline-offset-2">
        {t('dashboard.bannerAction')}
      </Link>
    </div>
  );
}

function Overview({
  _id,
  plan,
  overview,
  modules,
  lifecycle,
}: NonNullable<Route.ComponentProps['loaderData']['subscription']>) {
  const { t, locale } = useLocale();
  const money = (amount: number) => formatMoney({ amount, currency: overview.currency }, locale);
  const day = (value: string) => dayText(value, locale);
  const price = (billing: Billing, amount: number) => t(PRICE_KEYS[billing], { price: money(amount) });
  const nameOf = (id: string) => localized(modules[id]?.name, locale) || id;
  // The upgrade is a purchase page: it loads as a document of its own (its policy allows the card frame).
  const upgrade = `/${locale}/upgrade/${_id}`;
  const link = useSsoLink();
  const settlement = t(overview.billingAnchorDay > 28 ? 'dashboard.settlementClamped' : 'dashboard.settlementDay', {
    day: overview.billingAnchorDay,
  });
  return (
    <>
      <LifecycleBanner lifecycle={lifecycle} currency={overview.currency} />
      <section
        aria-labelledby="plan-heading"
        className="mt-8 rounded-2xl border border-line bg-raised p-5 sm:p-6"
        data-testid="plan"
      >
        <h2 id="plan-heading" className="text-sm font-semibold tracking-wide text-muted uppercase">
          {t('dashboard.plan')}
        </h2>
        <p className="mt-2 flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <span className="text-3xl font-bold" data-testid="plan-type">
            {PLAN_NAMES[plan.type]}
          </span>
          <span className="text-lg text-muted" data-testid="plan-name">
            {localized(plan.name, locale)}
          </span>
          <span className="rounded-full bg-tint px-3 py-0.5 text-sm font-semibold" data-testid="plan-status">
            {t(`dashboard.statuses.${plan.status}`)}
          </span>
        </p>
        <p className="mt-3">
          <Link
            to={link(`/${locale}/portal/plan`)}
            className="font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
            data-testid="plan-details"
          >
            {t('dashboard.planDetails')} →
          </Link>
        </p>
      </section>

      <section aria-labelledby="billing-heading" className="mt-6">
        <h2 id="billing-heading" className="text-xl font-semibold">
          {t('dashboard.billing')}
        </h2>
        <dl className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          <Figure
            label={t('dashboard.period')}
            value={t(`dashboard.periods.${overview.period}`)}
            testId="figure-period"
          />
          <Figure
            label={t('dashboard.contractStart')}
            value={day(overview.contractStart)}
            testId="figure-contract-start"
          />
          <Figure label={t('dashboard.contractEnd')} value={day(overview.contractEnd)} testId="figure-contract-end" />
          <Figure label={t('dashboard.settlement')} value={settlement} testId="figure-settlement" />
          <Figure
            label={t('dashboard.nextPayDate')}
            value={day(overview.nextPayDate)}
            testId="figure-next-pay-date"
            note={
              overview.currentPeriod.prepaid
                ? t('dashboard.prepaidUntil', { date: day(overview.currentPeriod.end) })
                : undefined
            }
          />
          <Figure
            label={t('dashboard.nextPayAmount')}
            value={money(overview.nextPayAmount)}
            testId="figure-next-pay-amount"
          />
          <Figure
            label={t('dashboard.balance')}
            value={balanceText(overview.balance, money, t)}
            testId="figure-balance"
          />
          <Figure
            label={t('dashboard.basicFee')}
            value={money(overview.basicMonthlyFee)}
            testId="figure-basic-fee"
            note={
              overview.monthly !== overview.basicMonthlyFee
                ? t('dashboard.monthlyTotal', { amount: money(overview.monthly) })
                : undefined
            }
          />
          {overview.prepaid ? (
            <Figure
              label={t('dashboard.prepaid')}
              value={t('dashboard.prepaidUsage', {
                used: formatNumber(overview.prepaid.used, locale),
                months: formatNumber(overview.prepaid.months, locale),
                left: formatNumber(overview.prepaid.left, locale),
              })}
              testId="figure-prepaid"
            />
          ) : null}
        </dl>
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="activated-heading" className="rounded-2xl border border-line bg-raised">
          <h2 id="activated-heading" className="border-b border-line px-4 py-3 text-lg font-semibold sm:px-5">
            {t('dashboard.activated')}
          </h2>
          <ul className="divide-y divide-line" data-testid="activated">
            {overview.activated.map((module) => (
              <li
                key={module.id}
                className="flex items-baseline justify-between gap-4 px-4 py-3 sm:px-5"
                data-testid="activated-module"
                data-module={module.id}
              >
                <span className="min-w-0">
                  <span className="font-medium">{nameOf(module.id)}</span>
                  {module.count > 1 || modules[module.id]?.counter ? (
                    <span className="ml-2 text-muted" data-testid="module-count">
                      {t('dashboard.count', { count: formatNumber(module.count, locale) })}
                    </span>
                  ) : null}
                  {module.pending ? (
                    <span
                      className="mt-1 block w-fit rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-950 dark:bg-amber-900 dark:text-amber-50"
                      data-testid="module-pending"
                    >
                      {module.availableOn
                        ? t('dashboard.pending', { date: day(module.availableOn) })
                        : t('dashboard.pendingNoDate')}
                    </span>
                  ) : null}
                  {module.suspended ? (
                    <span
                      className="mt-1 block w-fit rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold text-red-900 dark:bg-red-950 dark:text-red-100"
                      data-testid="module-suspended"
                    >
                      {t('dashboard.suspended')}
                    </span>
                  ) : null}
                  {module.ended ? (
                    <span
                      className="mt-1 block w-fit rounded-full bg-sunken px-2.5 py-0.5 text-xs font-semibold text-muted"
                      data-testid="module-ended"
                    >
                      {t('dashboard.moduleEnded')}
                    </span>
                  ) : null}
                </span>
                <span className="text-right text-sm whitespace-nowrap text-muted">
                  {module.included ? t('dashboard.included') : price(module.billing, module.unitPrice * module.count)}
                </span>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="inactive-heading" className="rounded-2xl border border-line bg-raised">
          <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line px-4 py-3 sm:px-5">
            <h2 id="inactive-heading" className="text-lg font-semibold">
              {t('dashboard.inactive')}
            </h2>
            {overview.inactiveAddOns.length > 0 ? (
              <Link to={link(upgrade)} reloadDocument className={smallButton} data-testid="add-functions">
                {t('dashboard.addFunctions')}
              </Link>
            ) : null}
          </div>
          {overview.inactiveAddOns.length === 0 ? (
            <p className="px-4 py-3 text-muted sm:px-5">{t('dashboard.inactiveNone')}</p>
          ) : (
            <ul className="divide-y divide-line" data-testid="inactive">
              {overview.inactiveAddOns.map((addOn) => (
                <li
                  key={addOn.id}
                  className="flex items-baseline justify-between gap-4 px-4 py-3 sm:px-5"
                  data-testid="inactive-add-on"
                  data-module={addOn.id}
                >
                  <span className="min-w-0 font-medium">{localized(addOn.name, locale)}</span>
                  <span className="flex items-baseline gap-3">
                    <span className="text-right text-sm whitespace-nowrap" data-testid="add-on-price">
                      {price(addOn.billing, addOn.unitPrice)}
                      {addOn.counter ? <span className="text-muted"> · {t('dashboard.perUnit')}</span> : null}
                    </span>
                    <Link
                      to={link(`${upgrade}?add=${encodeURIComponent(addOn.id)}`)}
                      reloadDocument
                      className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
                      aria-label={t('dashboard.addThis', { name: localized(addOn.name, locale) })}
                      data-testid="add-this"
                    >
                      {t('dashboard.add')}
                    </Link>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

function Invoices({ invoices }: { invoices: Route.ComponentProps['loaderData']['invoices'] }) {
  const { t, locale } = useLocale();
  return (
    <section aria-labelledby="invoices-heading" className="mt-6 rounded-2xl border border-line bg-raised">
      <h2 id="invoices-heading" className="border-b border-line px-4 py-3 text-lg font-semibold sm:px-5">
        {t('dashboard.invoices')}
      </h2>
      {invoices.length === 0 ? (
        <p className="px-4 py-3 text-muted sm:px-5">{t('dashboard.invoicesNone')}</p>
      ) : (
        // On a phone the date goes under the number, so the table fits without scrolling sideways.
        <table className="w-full text-left text-sm sm:text-base" data-testid="invoices">
          <thead className="text-sm text-muted">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium sm:px-5">
                {t('dashboard.invoiceNumber')}
              </th>
              <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                {t('dashboard.invoiceDate')}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                {t('dashboard.invoiceTotal')}
              </th>
              <th scope="col" className="px-3 py-2 font-medium sm:px-5">
                {t('dashboard.invoiceStatus')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line border-t border-line">
            {invoices.map((invoice) => (
              <tr key={invoice._id} data-testid="invoice" data-number={invoice.number}>
                <th scope="row" className="px-3 py-3 text-left font-medium sm:px-5">
                  <span className="font-mono whitespace-nowrap" data-testid="invoice-number">
                    {invoice.number}
                  </span>
                  <span className="block font-normal text-muted sm:hidden">{dayText(invoice.issuedOn, locale)}</span>
                </th>
                <td className="hidden px-3 py-3 whitespace-nowrap sm:table-cell" data-testid="invoice-date">
                  {dayText(invoice.issuedOn, locale)}
                </td>
                <td className="px-3 py-3 text-right font-semibold whitespace-nowrap" data-testid="invoice-total">
                  {formatMoney({ amount: invoice.total, currency: invoice.currency }, locale)}
                </td>
                <td className="px-3 py-3 sm:px-5" data-testid="invoice-status">
                  {t(`dashboard.invoiceStatuses.${invoice.status}`)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** `/{locale}/portal`: the member's plan, its billing worked out from their records, and what they could add. */
export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const layout = useRouteLoaderData<typeof layoutLoader>('routes/portal/layout');
  const name = layout?.user.name ?? '';
  const link = useSsoLink();
  useLiveRefresh(LIVE_SERVICES);
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:py-10">
      <h1 className="text-3xl font-bold">{t('portal.heading')}</h1>
      <p className="mt-2 text-lg text-muted" data-testid="welcome">
        {t('portal.welcome', { name })}
      </p>
      {loaderData.subscription ? (
        <Overview {...loaderData.subscription} />
      ) : (
        <section
          aria-labelledby="empty-heading"
          className="mt-8 rounded-2xl border border-line bg-raised p-6 sm:p-8"
          data-testid="no-subscription"
        >
          <h2 id="empty-heading" className="text-xl font-semibold">
            {t('dashboard.emptyHeading')}
          </h2>
          <p className="mt-2 max-w-prose text-muted">{t('dashboard.emptyBody')}</p>
          <Link
            to={link(siteLinks(locale, site.brandSlug).subscription)}
            className={`${actionButton} mt-5`}
            data-testid="buy-plan"
          >
            {t('dashboard.emptyAction')}
          </Link>
        </section>
      )}
      {loaderData.subscription || loaderData.invoices.length > 0 ? <Invoices invoices={loaderData.invoices} /> : null}
    </div>
  );
}
