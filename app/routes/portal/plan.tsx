import { useEffect, useRef, useState } from 'react';
import { data, Form, Link, useActionData, useNavigation } from 'react-router';
import { formatMoney, formatNumber } from '../../../domain/format';
import { planChangeSchema } from '../../../domain/forms/plan-change';
import { localized } from '../../../domain/locales';
import { requireUser } from '../../auth.server';
import { useSnackbar } from '../../components/feedback/snackbars';
import { readForm } from '../../components/forms/read-form';
import { useSay } from '../../components/forms/say';
import { refusalOf } from '../../components/forms/refusal';
import { primaryButton, secondaryButton } from '../../components/ui/buttons';
import { serverContext } from '../../context';
import { memberCallParams } from '../../api/call-params.server';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { useSsoLink } from '../../components/portal/sso';
import { siteLinks, useSite } from '../../shell';
import type { Route } from './+types/plan';
import { dayText, PLAN_NAMES, PRICE_KEYS } from '../../components/portal/plan-text';
import { type DashboardData, loadDashboard } from './dashboard.server';
import { RECORD_ID } from '../../../domain/record-id';

/*
 * `/{locale}/portal/plan`: the member's plan in detail (issue 16, "plan detail"): its modules and
 * prices, its contract terms, and what changes when the prepaid months or the contract end, all
 * worked out by the same billing rules as the dashboard (decision 023). `/{locale}/portal/plan/{id}`
 * is one subscription of the member's by its id (where `/{locale}/plan/{id}` sends its owner,
 * decision 044); another member's id, like an unknown one, is a 404.
 */

export const messageGroups = ['dashboard', 'planDetail'] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  if (params.id !== undefined && !RECORD_ID.test(params.id)) throw data(null, { status: 404 });
  const { subscription } = await loadDashboard(ctx, user, new Date(), params.id ? { subscriptionId: params.id } : {});
  if (params.id && !subscription) throw data(null, { status: 404 });
  return { subscription, messages: pageMessages(params.lang, messageGroups) };
}

type ChangeAnswer =
  | { ok: true; action: 'cancel' | 'resume'; cancelAt: string | null }
  | { ok: true; action: 'removeAddOn'; credit: number; module: string }
  | { ok: true; action: 'terminate'; fee: number; invoice: string | null }
  | { ok: false; message: string; action: string | null; reason?: string | null; card?: boolean; pending?: boolean };

/**
 * Stop the plan, keep it, or remove an add-on: through `subscriptionChanges` as the member
 * (decision 031); end it now for its fee: through `terminations` (decision 044).
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  requireUser(ctx, request, params.lang);
  const form = await readForm(request, planChangeSchema);
  if (!form.ok) return data<ChangeAnswer>({ ok: false, message: 'validation.invalid', action: null }, { status: 400 });
  const { intent, subscription, module, expectedFee } = form.values;
  try {
    if (intent === 'terminate') {
      // The fee the member confirmed: a different one today is refused, not charged.
      const shown = expectedFee.trim() !== '' ? Number(expectedFee) : Number.NaN;
      const answer = await ctx.api
        .service('terminations')
        .create(
          { subscription, ...(Number.isInteger(shown) && shown >= 0 ? { expectedFee: shown } : {}) },
          memberCallParams(ctx, params.lang),
        );
      return data<ChangeAnswer>({ ok: true, action: intent, fee: answer.fee, invoice: answer.invoice?.number ?? null });
    }
    if (intent === 'removeAddOn') {
      const answer = await ctx.api
        .service('subscriptionChanges')
        .create({ subscription, action: intent, module }, memberCallParams(ctx, params.lang));
      return data<ChangeAnswer>({
        ok: true,
        action: intent,
        credit: answer.removed?.credit ?? 0,
        module: answer.removed?.module ?? '',
      });
    }
    const answer = await ctx.api
      .service('subscriptionChanges')
      .create({ subscription, action: intent }, memberCallParams(ctx, params.lang));
    return data<ChangeAnswer>({ ok: true, action: intent, cancelAt: answer.cancelAt });
  } catch (caught) {
    const { status, message, errors } = refusalOf(caught);
    if (intent === 'terminate') {
      // 503: the gateway has not answered yet; the plan ends once it reports the charge made.
      const pending = status === 503;
      // A card not charged: why (the bank's reason), and the way to another card.
      return data<ChangeAnswer>(
        { ok: false, message, action: intent, reason: errors.card ?? null, card: status === 402, pending },
        { status },
      );
    }
    return data<ChangeAnswer>({ ok: false, message: errors.module ?? message, action: intent }, { status });
  }
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
        <Link
          to={link(siteLinks(locale, site.brandSlug).subscription)}
          reloadDocument
          className={`${primaryButton} mt-6`}
        >
          {t('dashboard.emptyAction')}
        </Link>
      </div>
    );
  }
  const { plan, overview, modules, lifecycle } = subscription;
  const money = (amount: number) => formatMoney({ amount, currency: overview.currency }, locale);
  const { cancellation } = lifecycle;
  const [removing, setRemoving] = useState<string | null>(null);
  const day = (value: string) => dayText(value, locale);
  const nameOf = (id: string) => localized(modules[id]?.name, locale) || id;
  const yearly = overview.activated.filter((module) => module.billing === 'yearly' && !module.included);
  const prepaidRunning = overview.prepaid !== null && overview.prepaidEnd !== null;
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 lg:py-10" data-testid="plan-detail">
      <p>
        <Link
          to={link(`/${locale}/portal`)}
          className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
        >
          ← {t('planDetail.back')}
        </Link>
      </p>
      <h1 className="mt-3 text-3xl font-bold">
        {t('planDetail.heading', { plan: PLAN_NAMES[plan.type] })}
        <span className="ml-3 text-lg font-normal text-muted">{localized(plan.name, locale)}</span>
      </h1>
      <p className="mt-2">
        <span
          className={`rounded-full px-3 py-0.5 text-sm font-semibold ${STATUS_TONES[lifecycle.status]}`}
          data-testid="plan-status"
        >
          {t(`dashboard.statuses.${lifecycle.status}`)}
        </span>
      </p>
      <PaymentAlert subscription={subscription} />

      <section aria-labelledby="terms-heading" className="mt-8 rounded-2xl border border-line bg-raised">
        <h2 id="terms-heading" className="border-b border-line px-4 py-3 text-lg font-semibold sm:px-5">
          {t('planDetail.terms')}
        </h2>
        <dl className="divide-y divide-line">
          <Term label={t('planDetail.contract')} testId="term-contract">
            {overview.contractMonths > 0
              ? // Paying ahead longer than the contract makes the contract that long (decision 018).
                t('planDetail.contractTerm', {
                  months: formatNumber(Math.max(overview.contractMonths, overview.prepaidMonths), locale),
                  start: day(overview.contractStart),
                  end: day(overview.contractEnd),
                })
              : t('planDetail.noContract')}
          </Term>
          {overview.contractMonths > 0 ? (
            <Term label={t('planDetail.ending')} testId="term-ending">
              {cancellation.kind === 'contractEnd'
                ? cancellation.terminationFee > 0
                  ? t('planDetail.termination', {
                      end: day(overview.contractEnd),
                      fee: money(cancellation.terminationFee),
                      months: formatNumber(cancellation.monthsLeft, locale),
                    })
                  : t('planDetail.terminationNone', { end: day(overview.contractEnd) })
                : t('planDetail.afterTerm', { end: day(overview.contractEnd) })}
            </Term>
          ) : null}
          <Term label={t('planDetail.prepaid')} testId="term-prepaid">
            {overview.prepaidMonths > 0 && overview.prepaidEnd
              ? t('planDetail.prepaidTerm', {
                  months: formatNumber(overview.prepaidMonths, locale),
                  end: day(overview.prepaidEnd),
                })
              : t('planDetail.noPrepaid')}
          </Term>
          <Term label={t('planDetail.card')} testId="term-card">
            <span data-testid="card-text">
              {subscription.card
                ? t('planDetail.cardText', {
                    brand: subscription.card.brand.toUpperCase(),
                    last4: subscription.card.last4,
                    month: String(subscription.card.expMonth).padStart(2, '0'),
                    year: subscription.card.expYear,
                  })
                : t('planDetail.noCard')}
            </span>
            {lifecycle.status !== 'cancelled' ? (
              <Link
                to={link(`/${locale}/portal/card`)}
                reloadDocument
                className="ml-3 font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
                data-testid="change-card"
              >
                {t('planDetail.changeCard')}
              </Link>
            ) : null}
          </Term>
          <Term label={t('dashboard.settlement')} testId="term-settlement">
            {t(overview.billingAnchorDay > 28 ? 'dashboard.settlementClamped' : 'dashboard.settlementDay', {
              day: overview.billingAnchorDay,
            })}
          </Term>
        </dl>
      </section>

      <section
        aria-labelledby="renewal-heading"
        className="mt-6 rounded-2xl border border-brand-500 bg-raised p-4 sm:p-5"
        data-testid="renewal"
      >
        <h2 id="renewal-heading" className="text-lg font-semibold">
          {t('planDetail.renewal')}
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li data-testid="renewal-monthly">
            {overview.period === 'annual'
              ? prepaidRunning && overview.prepaidEnd
                ? t('planDetail.afterPrepaidAnnual', {
                    date: day(overview.prepaidEnd),
                    amount: money(overview.monthly * 12),
                  })
                : t('planDetail.annual', { date: day(overview.nextPayDate), amount: money(overview.monthly * 12) })
              : prepaidRunning && overview.prepaidEnd
                ? t('planDetail.afterPrepaid', { date: day(overview.prepaidEnd), amount: money(overview.monthly) })
                : t('planDetail.monthly', { date: day(overview.nextPayDate), amount: money(overview.monthly) })}
          </li>
          {yearly.map((module) => (
            <li key={module.id} data-testid="renewal-yearly">
              {t('planDetail.yearly', { name: nameOf(module.id), amount: money(module.unitPrice * module.count) })}
            </li>
          ))}
          <li data-testid="renewal-contract">
            {overview.contractMonths > 0
              ? t('planDetail.contractRenews', { end: day(overview.contractEnd) })
              : t('planDetail.liteRenews')}
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
            <span className="whitespace-nowrap">
              {t('dashboard.perMonth', { price: money(overview.basicMonthlyFee) })}
            </span>
          </li>
          {overview.activated.map((module) => (
            <li
              key={module.id}
              className="flex items-baseline justify-between gap-4 px-4 py-3 sm:px-5"
              data-testid="plan-module"
              data-module={module.id}
            >
              <span className="min-w-0">
                <span className="font-medium">{nameOf(module.id)}</span>
                {module.count > 1 ? (
                  <span className="ml-2 text-muted">
                    {t('dashboard.count', { count: formatNumber(module.count, locale) })}
                  </span>
                ) : null}
                {module.pending ? (
                  <span className="ml-2 text-sm text-muted">({t('dashboard.pendingNoDate')})</span>
                ) : null}
                {module.suspended ? (
                  <span
                    className="ml-2 text-sm font-semibold text-red-700 dark:text-red-300"
                    data-testid="module-suspended"
                  >
                    ({t('dashboard.suspended')})
                  </span>
                ) : null}
                {module.ended ? (
                  <span className="ml-2 text-sm text-muted" data-testid="module-ended">
                    ({t('dashboard.moduleEnded')})
                  </span>
                ) : null}
              </span>
              <span className="flex items-baseline gap-3">
                <span className="text-right whitespace-nowrap text-muted">
                  {module.included
                    ? t('dashboard.included')
                    : t(PRICE_KEYS[module.billing], { price: money(module.unitPrice * module.count) })}
                </span>
                {module.id in lifecycle.removals &&
                (lifecycle.status === 'active' || lifecycle.status === 'non_renewing') ? (
                  <button
                    type="button"
                    className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
                    onClick={() => setRemoving(module.id)}
                    aria-label={t('planDetail.removeThis', { name: nameOf(module.id) })}
                    data-testid="module-remove"
                  >
                    {t('planDetail.remove')}
                  </button>
                ) : null}
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

      <RemoveDialog
        subscription={subscription}
        module={removing}
        name={removing ? nameOf(removing) : ''}
        onClose={() => setRemoving(null)}
      />
      <StopSection subscription={subscription} />
      <TerminateSection subscription={subscription} />

      {overview.inactiveAddOns.length > 0 && lifecycle.status === 'active' ? (
        <p className="mt-6">
          <Link
            to={link(`/${locale}/upgrade/${subscription._id}`)}
            reloadDocument
            className={secondaryButton}
            data-testid="plan-add-functions"
          >
            {t('dashboard.addFunctions')}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

type PlanSubscription = NonNullable<DashboardData['subscription']>;

const STATUS_TONES: Record<PlanSubscription['lifecycle']['status'], string> = {
  incomplete: 'bg-tint',
  active: 'bg-tint',
  past_due: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  unpaid: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  non_renewing: 'bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-100',
  cancelled: 'bg-sunken text-muted',
};

/** A renewal not paid: how much, since when, when it is tried again, and the way to another card. */
function PaymentAlert({ subscription }: { subscription: PlanSubscription }) {
  const { t, locale } = useLocale();
  const link = useSsoLink();
  const { lifecycle, overview } = subscription;
  if (!lifecycle.pastDue || (lifecycle.status !== 'past_due' && lifecycle.status !== 'unpaid')) return null;
  const values = {
    amount: formatMoney({ amount: lifecycle.pastDue.amount, currency: overview.currency }, locale),
    date: dayText(lifecycle.pastDue.since, locale),
    retry: lifecycle.retryOn ? dayText(lifecycle.retryOn, locale) : '',
  };
  const unpaid = lifecycle.status === 'unpaid';
  return (
    <section
      role="alert"
      className="mt-6 rounded-2xl border border-red-300 bg-red-50 p-4 text-red-950 sm:p-5 dark:border-red-800 dark:bg-red-950 dark:text-red-50"
      data-testid="payment-alert"
    >
      <h2 className="text-lg font-semibold">{t(unpaid ? 'planDetail.unpaidTitle' : 'planDetail.pastDueTitle')}</h2>
      <p className="mt-1">{t(unpaid ? 'planDetail.unpaidBody' : 'planDetail.pastDueBody', values)}</p>
      <p className="mt-3">
        <Link
          to={link(`/${locale}/portal/card`)}
          reloadDocument
          className={primaryButton}
          data-testid="alert-change-card"
        >
          {t('planDetail.changeCard')}
        </Link>
      </p>
    </section>
  );
}

/**
 * Stopping the plan (decision 031): when it would end if stopped today (the period's end, the
 * minimum term's, or 30 days' notice), asked to confirm; once stopping, the day it ends and the
 * way to keep it.
 */
function StopSection({ subscription }: { subscription: PlanSubscription }) {
  const { t, locale } = useLocale();
  const say = useSay();
  const { success, error } = useSnackbar();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const dialog = useRef<HTMLDialogElement>(null);
  const busy = navigation.state !== 'idle';
  const { lifecycle } = subscription;
  const { cancellation } = lifecycle;
  const day = (value: string) => dayText(value, locale);

  useEffect(() => {
    if (!answer || (answer.action !== 'cancel' && answer.action !== 'resume' && answer.action !== null)) return;
    dialog.current?.close();
    if (!answer.ok) error(say(answer.message));
    else if (answer.action === 'cancel' && answer.cancelAt)
      success(t('planDetail.stopped', { date: day(answer.cancelAt) }));
    else success(t('planDetail.resumed'));
    // Once per answer.
  }, [answer]);

  if (lifecycle.status === 'cancelled') {
    return (
      <section className="mt-6 rounded-2xl border border-line bg-raised p-4 sm:p-5" data-testid="plan-ended">
        <h2 className="text-lg font-semibold">{t('planDetail.endedTitle')}</h2>
        <p className="mt-1 text-muted">
          {t('planDetail.endedBody', { date: day(lifecycle.cancelAt ?? subscription.overview.nextPayDate) })}
        </p>
      </section>
    );
  }
  const hidden = <input type="hidden" name="subscription" value={subscription._id} />;
  if (lifecycle.status === 'non_renewing' && lifecycle.cancelAt) {
    return (
      <section
        aria-labelledby="stop-heading"
        className="mt-6 rounded-2xl border border-amber-400 bg-raised p-4 sm:p-5"
        data-testid="plan-stopping"
      >
        <h2 id="stop-heading" className="text-lg font-semibold">
          {t('planDetail.stoppingTitle', { date: day(lifecycle.cancelAt) })}
        </h2>
        <p className="mt-1 text-muted">{t('planDetail.stoppingBody')}</p>
        <Form method="post" className="mt-4">
          {hidden}
          <button
            type="submit"
            name="intent"
            value="resume"
            className={primaryButton}
            disabled={busy}
            data-testid="plan-resume"
          >
            {t('planDetail.resume')}
          </button>
        </Form>
      </section>
    );
  }
  if (lifecycle.status !== 'active' && lifecycle.status !== 'past_due') return null;
  const explanation =
    cancellation.kind === 'periodEnd'
      ? t('planDetail.stopPeriodEnd', { date: day(cancellation.endsOn) })
      : cancellation.kind === 'contractEnd'
        ? t('planDetail.stopContractEnd', { date: day(cancellation.endsOn) })
        : t('planDetail.stopNotice', { date: day(cancellation.endsOn) });
  return (
    <section
      aria-labelledby="stop-heading"
      className="mt-6 rounded-2xl border border-line bg-raised p-4 sm:p-5"
      data-testid="plan-stop"
    >
      <h2 id="stop-heading" className="text-lg font-semibold">
        {t('planDetail.stopHeading')}
      </h2>
      <p className="mt-1 text-muted" data-testid="plan-stop-when">
        {explanation}
      </p>
      <button
        type="button"
        className={`${secondaryButton} mt-4`}
        onClick={() => dialog.current?.showModal()}
        data-testid="plan-stop-open"
      >
        {t('planDetail.stop')}
      </button>
      <ConfirmDialog
        dialog={dialog}
        headingId="stop-confirm-heading"
        testId="plan-stop-dialog"
        title={t('planDetail.stopConfirmTitle')}
        fields={hidden}
        intent="cancel"
        confirm={t('planDetail.stopConfirm', { date: day(cancellation.endsOn) })}
        confirmTestId="plan-stop-confirm"
        busy={busy}
      >
        <p className="mt-2">{t('planDetail.stopConfirmBody', { date: day(cancellation.endsOn) })}</p>
      </ConfirmDialog>
    </section>
  );
}

/**
 * Ending the plan now (decision 044): inside a minimum term, the termination fee (the figure the
 * server charges, `terminationOf`) and the card it is charged to, asked to confirm; a card not
 * charged says why, with the way to another card.
 */
function TerminateSection({ subscription }: { subscription: PlanSubscription }) {
  const { t, locale } = useLocale();
  const say = useSay();
  const link = useSsoLink();
  const { success } = useSnackbar();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const dialog = useRef<HTMLDialogElement>(null);
  const { lifecycle, overview, card } = subscription;
  const termination = lifecycle.termination;
  const mine = answer?.action === 'terminate' ? answer : null;
  const fee = termination ? formatMoney({ amount: termination.fee, currency: overview.currency }, locale) : '';

  useEffect(() => {
    if (!mine) return;
    dialog.current?.close();
    if (mine.ok && mine.action === 'terminate') {
      success(
        t('planDetail.terminated', {
          fee: formatMoney({ amount: mine.fee, currency: overview.currency }, locale),
          invoice: mine.invoice ?? '',
        }),
      );
    }
    // Once per answer.
  }, [answer]);

  const failed = mine && !mine.ok ? mine : null;
  if (!termination && !failed) return null;
  return (
    <section
      aria-labelledby="terminate-heading"
      className="mt-6 rounded-2xl border border-line bg-raised p-4 sm:p-5"
      data-testid="plan-terminate"
    >
      <h2 id="terminate-heading" className="text-lg font-semibold">
        {t('planDetail.terminateHeading')}
      </h2>
      {failed ? (
        <div
          role="alert"
          className="mt-3 rounded-xl border border-red-300 bg-red-50 p-3 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50"
          data-testid="terminate-error"
        >
          {failed.pending ? null : <p className="font-semibold">{t('planDetail.terminateFailed')}</p>}
          <p className={failed.pending ? '' : 'mt-1'}>{say(failed.message)}</p>
          {failed.reason ? (
            <p className="mt-1" data-testid="terminate-reason">
              {say(failed.reason)}
            </p>
          ) : null}
          {failed.card ? (
            <p className="mt-2">
              <Link
                to={link(`/${locale}/portal/card`)}
                reloadDocument
                className="font-semibold underline underline-offset-2"
                data-testid="terminate-change-card"
              >
                {t('planDetail.changeCard')}
              </Link>
            </p>
          ) : null}
        </div>
      ) : null}
      {termination ? (
        <>
          <p className="mt-1 text-muted" data-testid="terminate-fee">
            {t('planDetail.terminateBody', {
              end: dayText(termination.termEnd, locale),
              fee,
              months: formatNumber(termination.monthsLeft, locale),
            })}
          </p>
          <button
            type="button"
            className={`${secondaryButton} mt-4`}
            onClick={() => dialog.current?.showModal()}
            data-testid="terminate-open"
          >
            {t('planDetail.terminate')}
          </button>
          <ConfirmDialog
            dialog={dialog}
            headingId="terminate-confirm-heading"
            testId="terminate-dialog"
            title={t('planDetail.terminateTitle')}
            fields={
              <>
                <input type="hidden" name="subscription" value={subscription._id} />
                <input type="hidden" name="expectedFee" value={termination.fee} />
              </>
            }
            intent="terminate"
            confirm={t('planDetail.terminateConfirm', { fee })}
            confirmTestId="terminate-confirm"
            busy={navigation.state !== 'idle'}
          >
            <p className="mt-2" data-testid="terminate-confirm-fee">
              {t('planDetail.terminateConfirmBody', { fee })}
            </p>
            {card ? (
              <p className="mt-2 text-muted">
                {t('planDetail.terminateCard', {
                  card: t('planDetail.cardText', {
                    brand: card.brand.toUpperCase(),
                    last4: card.last4,
                    month: String(card.expMonth).padStart(2, '0'),
                    year: card.expYear,
                  }),
                })}
              </p>
            ) : null}
          </ConfirmDialog>
        </>
      ) : null}
    </section>
  );
}

/**
 * Removing a bought add-on (decision 031): what removing it today credits to the balance (the
 * same figure the server credits) and the monthly charge after, asked to confirm.
 */
function RemoveDialog({
  subscription,
  module,
  name,
  onClose,
}: {
  subscription: PlanSubscription;
  module: string | null;
  name: string;
  onClose: () => void;
}) {
  const { t, locale } = useLocale();
  const say = useSay();
  const { success, error } = useSnackbar();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const dialog = useRef<HTMLDialogElement>(null);
  const { overview, lifecycle } = subscription;
  const money = (amount: number) => formatMoney({ amount, currency: overview.currency }, locale);
  const activated = overview.activated.find((item) => item.id === module);
  const monthlyAfter =
    activated && activated.billing === 'monthly'
      ? overview.monthly - activated.unitPrice * activated.count
      : overview.monthly;

  useEffect(() => {
    if (module && !dialog.current?.open) dialog.current?.showModal();
  }, [module]);
  useEffect(() => {
    if (!answer || !module || answer.action !== 'removeAddOn') return;
    dialog.current?.close();
    onClose();
    if (answer.ok && answer.action === 'removeAddOn')
      success(t('planDetail.removed', { name, amount: money(answer.credit) }));
    else if (!answer.ok) error(say(answer.message));
    // Once per answer.
  }, [answer]);

  return (
    <ConfirmDialog
      dialog={dialog}
      headingId="remove-heading"
      testId="remove-dialog"
      onClose={onClose}
      title={t('planDetail.removeTitle', { name })}
      fields={
        <>
          <input type="hidden" name="subscription" value={subscription._id} />
          <input type="hidden" name="module" value={module ?? ''} />
        </>
      }
      intent="removeAddOn"
      confirm={t('planDetail.removeConfirm')}
      confirmTestId="remove-confirm"
      busy={navigation.state !== 'idle'}
    >
      {module ? (
        <p className="mt-2" data-testid="remove-credit">
          {t('planDetail.removeBody', { amount: money(lifecycle.removals[module] ?? 0), monthly: money(monthlyAfter) })}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}

/**
 * A change to the plan asked to confirm: its title and what it does, "Not now" (focused first) and
 * the button that posts the change (`intent`) with its fields to the page's action.
 */
function ConfirmDialog({
  dialog,
  headingId,
  testId,
  title,
  fields,
  intent,
  confirm,
  confirmTestId,
  busy,
  onClose,
  children,
}: {
  dialog: React.RefObject<HTMLDialogElement | null>;
  headingId: string;
  testId: string;
  title: string;
  fields: React.ReactNode;
  intent: string;
  confirm: string;
  confirmTestId: string;
  busy: boolean;
  onClose?: () => void;
  children: React.ReactNode;
}) {
  const { t } = useLocale();
  return (
    <dialog
      ref={dialog}
      aria-labelledby={headingId}
      onClose={onClose}
      className="m-auto w-[min(30rem,calc(100vw-2rem))] rounded-2xl border border-line bg-raised p-5 text-ink backdrop:bg-black/50"
      data-testid={testId}
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
      <Form method="post" className="mt-5 flex flex-wrap justify-end gap-3">
        {fields}
        <button type="button" className={secondaryButton} onClick={() => dialog.current?.close()} autoFocus>
          {t('planDetail.notNow')}
        </button>
        <button
          type="submit"
          name="intent"
          value={intent}
          className={primaryButton}
          disabled={busy}
          data-testid={confirmTestId}
        >
          {confirm}
        </button>
      </Form>
    </dialog>
  );
}
