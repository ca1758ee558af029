import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router';
import { addDays } from '../../../domain/billing/calendar';
import type { UpgradePrice } from '../../../domain/billing/upgrade';
import { formatMoney, formatNumber } from '../../../domain/format';
import { localized } from '../../../domain/locales';
import { ADD_ON_LEAD_WORKING_DAYS } from '../../../domain/billing/lead-time';
import { newIdempotencyKey, type ChosenAddOn } from '../../../domain/purchase/subscription-form';
import { RECORD_ID } from '../../../domain/record-id';
import { AddOnsStep } from '../../components/purchase/add-ons-step';
import type { Billing } from '../../components/purchase/payment-step';
import { useFlowCall } from '../../components/purchase/flow-api';
import { primaryButton, smallButton, StepActions, StepHeading } from '../../components/purchase/ui';
import { requireUser } from '../../auth.server';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { usePurchaseDocument } from '../../purchase-document';
import { useSsoLink } from '../../components/portal/sso';
import { siteLinks, useSite } from '../../shell';
import type { Route } from './+types/upgrade';
import { dayText } from '../../components/portal/plan-text';
import { loadUpgrade, upgradeAction, type UpgradeDone, type UpgradeSubscription } from './upgrade.server';
import { upgradeRequestSchema } from '../../../domain/orders/flow-request';
import { readForm } from '../../components/forms/read-form';

/*
 * `/{locale}/upgrade/{id}`: add functions to a plan (decision 028). Select add-ons → the order's
 * summary, priced by the server for today (items can be removed) → payment through the purchase
 * flow's own step → confirmation with the day they are expected. The choice and the step are in
 * the address (`?step=summary&add=kds:2,loyalty`), so a reload or the back button keeps them.
 */

const PaymentStep = lazy(() =>
  import('../../components/purchase/payment-step').then((module) => ({ default: module.PaymentStep })),
);

export const messageGroups = [
  'upgrade',
  'dashboard',
  'subscription',
  'purchase',
  'registration',
  'forms',
  'pricing',
  'product',
] as const;

const STEPS = ['select', 'summary', 'payment', 'done'] as const;
type Step = (typeof STEPS)[number];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  const upgrade = await loadUpgrade(ctx, user, params.lang, params.id, new URL(request.url));
  return {
    ...upgrade,
    payments: {
      provider: ctx.payments.provider,
      origin: ctx.payments.origin,
      publishableKey: ctx.payments.publishableKey,
    },
    messages: pageMessages(params.lang, messageGroups),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const body = await readForm(request, upgradeRequestSchema);
  return upgradeAction(context.get(serverContext), params.lang, params.id, body);
}

/** Moving between steps changes only the address; the page is read again when an order was paid (the confirmation reads it). */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== 'GET') return false;
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  return nextUrl.searchParams.get('order') !== currentUrl.searchParams.get('order');
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'upgrade.title', description: 'upgrade.description', index: false });
}

/** `kds:2,loyalty` → the add-ons chosen (a count of 1 unless given). */
export function parseChoice(value: string | null): ChosenAddOn[] {
  const seen = new Set<string>();
  return (value ?? '').split(',').flatMap((part) => {
    const [id = '', count = '1'] = part.split(':');
    const n = Number.parseInt(count, 10);
    if (!RECORD_ID.test(id) || seen.has(id)) return [];
    seen.add(id);
    return [{ id, count: Number.isInteger(n) && n >= 1 && n <= 10 ? n : 1 }];
  });
}

/** The billing address the payment step fills in: the last order's (decision 063), else only the country. */
function billingOf(subscription: UpgradeSubscription): Billing {
  const last = subscription.payWith.billingAddress;
  if (!last)
    return {
      name: '',
      line1: '',
      line2: '',
      city: '',
      postalCode: '',
      country: subscription.currency === 'SGD' ? 'SG' : 'HK',
    };
  return {
    name: last.name,
    line1: last.line1,
    line2: last.line2 ?? '',
    city: last.city,
    postalCode: last.postalCode ?? '',
    country: last.country,
  };
}

export function choiceParam(addOns: readonly ChosenAddOn[]): string {
  return addOns.map((item) => (item.count > 1 ? `${item.id}:${item.count}` : item.id)).join(',');
}

function Progress({ step }: { step: Step }) {
  const { t } = useLocale();
  const current = STEPS.indexOf(step);
  return (
    <nav aria-label={t('subscription.progress.label')} data-testid="upgrade-progress">
      <ol className="flex gap-1">
        {STEPS.map((item, index) => (
          <li
            key={item}
            className="flex min-w-0 flex-1 flex-col gap-2"
            aria-current={index === current ? 'step' : undefined}
          >
            <div
              className={`h-1 rounded-full ${index <= current ? 'bg-brand-600 dark:bg-brand-400' : 'bg-sunken'}`}
              aria-hidden="true"
            />
            <span className={`truncate text-sm ${index === current ? 'font-semibold' : 'text-muted'}`}>
              <span className="sr-only">
                {t('subscription.progress.of', { current: index + 1, total: STEPS.length })} ·{' '}
              </span>
              {t(`upgrade.steps.${item}.short`)}
            </span>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** Step 2: the order as the server priced it today; each item can be removed. */
function Summary({
  subscription,
  quote,
  problem,
  onRemove,
}: {
  subscription: UpgradeSubscription;
  quote: UpgradePrice | null;
  problem: { message: string; errors: Record<string, string> } | null;
  onRemove: (id: string) => void;
}) {
  const { t, locale } = useLocale();
  const money = (amount: number) => formatMoney({ amount, currency: quote?.currency ?? subscription.currency }, locale);
  if (problem) {
    return (
      <div
        role="alert"
        className="mt-6 rounded-2xl border border-red-600 p-4 font-medium text-red-700 dark:text-red-300"
        data-testid="upgrade-problem"
      >
        <p>{problem.message}</p>
        {Object.values(problem.errors).length ? (
          <ul className="mt-2 list-disc pl-5 text-sm">
            {[...new Set(Object.values(problem.errors))].map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : null}
      </div>
    );
  }
  if (!quote) {
    return (
      <p className="mt-6 min-h-40 text-muted" aria-busy="true" data-testid="upgrade-pricing">
        {t('upgrade.checking')}
      </p>
    );
  }
  return (
    <div className="mt-6 space-y-6" data-testid="upgrade-summary">
      <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-raised">
        {quote.items.map((line) => {
          const name = localized(line.name, locale);
          return (
            <li
              key={line.module}
              className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 p-4 sm:p-5"
              data-testid="upgrade-line"
              data-module={line.module}
            >
              <div className="min-w-0">
                <p className="font-semibold">
                  {name}
                  {line.count > 1 ? (
                    <span className="ml-2 font-normal text-muted">
                      {t('dashboard.count', { count: formatNumber(line.count, locale) })}
                    </span>
                  ) : null}
                </p>
                <p className="text-sm text-muted" data-testid="line-share">
                  {line.periodEnd && line.remainingDays > 0
                    ? t('upgrade.share', {
                        from: dayText(addDays(line.periodEnd, -line.remainingDays), locale),
                        to: dayText(addDays(line.periodEnd, -1), locale),
                        days: formatNumber(line.remainingDays, locale),
                        total: formatNumber(line.periodDays, locale),
                      })
                    : t('upgrade.shareOnce')}
                </p>
              </div>
              <div className="flex items-center gap-3">
                <span className="font-semibold whitespace-nowrap" data-testid="line-amount">
                  {money(line.amount)}
                </span>
                <button
                  type="button"
                  onClick={() => onRemove(line.module)}
                  className={smallButton}
                  aria-label={t('upgrade.removeLabel', { name })}
                  data-testid="line-remove"
                >
                  {t('upgrade.remove')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <dl className="space-y-2 rounded-2xl border border-brand-500 bg-raised p-4 sm:p-5" data-testid="upgrade-totals">
        <div className="flex items-baseline justify-between gap-4">
          <dt className="font-semibold">{t('upgrade.dueNow')}</dt>
          <dd className="text-2xl text-figure" data-testid="upgrade-due">
            {money(quote.total)}
          </dd>
        </div>
        {quote.tax ? (
          <div className="flex justify-between gap-4 text-sm text-muted">
            <dt>{t('upgrade.gstIncluded', { rate: quote.taxRate / 100 })}</dt>
            <dd data-testid="upgrade-gst">{money(quote.tax)}</dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-4 border-t border-line pt-2 text-sm">
          <dt className="text-muted">{t('upgrade.monthlyNow')}</dt>
          <dd data-testid="upgrade-monthly-now">{money(quote.monthlyBefore)}</dd>
        </div>
        <div className="flex justify-between gap-4 text-sm">
          <dt className="text-muted">{t('upgrade.monthlyAfter')}</dt>
          <dd className="font-semibold" data-testid="upgrade-monthly-after">
            {money(quote.monthlyAfter)}
          </dd>
        </div>
        {quote.yearly ? (
          <div className="flex justify-between gap-4 text-sm">
            <dt className="text-muted">{t('upgrade.yearlyAdded')}</dt>
            <dd data-testid="upgrade-yearly">{money(quote.yearly)}</dd>
          </div>
        ) : null}
      </dl>
    </div>
  );
}

function Done({ done }: { done: UpgradeDone }) {
  const { t, locale } = useLocale();
  const link = useSsoLink();
  const money = (amount: number) => formatMoney({ amount, currency: done.currency }, locale);
  return (
    <div className="mt-6 space-y-6" data-testid="upgrade-done" data-order={done.number}>
      <section className="rounded-2xl border border-line bg-raised p-4 sm:p-6">
        <h2 className="font-semibold">{t('upgrade.orderNumber', { number: done.number })}</h2>
        <ul className="mt-3 divide-y divide-line">
          {done.items.map((item) => (
            <li key={item.module} className="flex justify-between gap-4 py-2">
              <span>
                {localized(item.name, locale)}
                {item.count > 1 ? (
                  <span className="ml-2 text-muted">
                    {t('dashboard.count', { count: formatNumber(item.count, locale) })}
                  </span>
                ) : null}
              </span>
              <span className="whitespace-nowrap">{money(item.amount)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-3 flex justify-between gap-4 border-t border-line pt-3 font-semibold">
          <span>{t('upgrade.paid')}</span>
          <span data-testid="upgrade-paid">{money(done.total)}</span>
        </p>
      </section>
      {done.availableOn ? (
        <section className="rounded-2xl border border-brand-500 bg-tint p-4 sm:p-6">
          <p className="text-sm font-semibold">{t('upgrade.availableOn')}</p>
          <p className="mt-1 text-2xl font-bold" data-testid="upgrade-available-on" data-day={done.availableOn}>
            {dayText(done.availableOn, locale)}
          </p>
          <p className="mt-2 text-sm text-muted">
            {t('upgrade.availableHint', { days: formatNumber(ADD_ON_LEAD_WORKING_DAYS, locale) })}
          </p>
        </section>
      ) : null}
      <Link to={link(`/${locale}/portal`)} className={primaryButton} data-testid="upgrade-to-dashboard">
        {t('upgrade.toDashboard')}
      </Link>
    </div>
  );
}

export default function Upgrade({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const { subscription, done, unpaid, payments } = loaderData;
  const [search, setSearch] = useSearchParams();
  // The card fields need this page's own document (its policy allows their frame).
  usePurchaseDocument();
  const navigate = useNavigate();
  // Inside the company's apps (`?sso`) every step and link keeps the mark (`go` copies the address's query).
  const link = useSsoLink();
  const heading = useRef<HTMLHeadingElement>(null);
  const requested = search.get('step');
  const chosen = useMemo(() => parseChoice(search.get('add')), [search]);
  const step: Step = done
    ? 'done'
    : (STEPS as readonly string[]).includes(requested ?? '') && requested !== 'done' && chosen.length > 0
      ? (requested as Step)
      : 'select';
  const key = search.get('key') ?? '';
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const go = (next: Step, changes: Record<string, string | null> = {}, replace = false) => {
    const params = new URLSearchParams(search);
    params.set('step', next);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) params.delete(name);
      else params.set(name, value);
    }
    setSearch(params, { replace, preventScrollReset: true });
  };
  const setChoice = (addOns: ChosenAddOn[]) =>
    go(step, { add: addOns.length ? choiceParam(addOns) : null, key: null }, true);

  // A new step is announced by moving the focus to its heading (not on the first view).
  const shown = useRef<Step | null>(null);
  useEffect(() => {
    if (shown.current && shown.current !== step) heading.current?.focus();
    shown.current = step;
  }, [step]);

  // The server's price of the choice, asked again whenever it changes, on the summary and the payment.
  const addParam = choiceParam(chosen);
  const [quote, setQuote] = useState<{ add: string; price: UpgradePrice } | null>(null);
  const [problem, setProblem] = useState<{ add: string; message: string; errors: Record<string, string> } | null>(null);
  const asked = useRef('');
  const quoteCall = useFlowCall((answer) => {
    if (answer.intent !== 'upgradeQuote') return;
    if (answer.ok) {
      setQuote({ add: asked.current, price: answer.quote });
      setProblem(null);
    } else setProblem({ add: asked.current, message: answer.message, errors: answer.errors });
  });
  const { call: askQuote } = quoteCall;
  useEffect(() => {
    if (!subscription || !addParam || (step !== 'summary' && step !== 'payment') || asked.current === addParam) return;
    asked.current = addParam;
    void askQuote('upgradeQuote', { addOns: chosen });
  }, [subscription, addParam, step, chosen, askQuote]);
  const price = quote && quote.add === addParam ? quote.price : null;
  const priceProblem = problem && problem.add === addParam ? problem : null;

  if (!subscription) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6" data-testid="upgrade-no-plan">
        <h1 className="text-3xl font-bold">{t('upgrade.noPlanHeading')}</h1>
        <p className="mt-3 text-lg text-muted">{t('upgrade.noPlanBody')}</p>
        <Link to={link(siteLinks(locale, site.brandSlug).subscription)} className={`${primaryButton} mt-6`}>
          {t('upgrade.noPlanAction')}
        </Link>
      </div>
    );
  }

  const plan = {
    name: subscription.planName,
    included: subscription.modules.map((module) => ({ id: module.id, name: module.name, count: module.count })),
  };

  let body: React.ReactNode;
  if (done) {
    body = <Done done={done} />;
  } else if (!hydrated) {
    body = (
      <div className="mt-6 min-h-64" aria-busy="true" data-testid="upgrade-loading">
        <p className="text-muted">{t('subscription.loading')}</p>
        <noscript>
          <p className="mt-4 rounded-2xl border border-line bg-sunken p-4">{t('upgrade.noScript')}</p>
        </noscript>
      </div>
    );
  } else if (step === 'select') {
    body = (
      <>
        {subscription.offered.length ? (
          <AddOnsStep
            plan={plan}
            offered={subscription.offered}
            chosen={chosen}
            currency={subscription.currency}
            onChange={setChoice}
            includedLabel={t('upgrade.has')}
          />
        ) : (
          <p className="mt-6" data-testid="upgrade-none-left">
            {t('upgrade.noneLeft')}
          </p>
        )}
        <StepActions onBack={() => void navigate(link(`/${locale}/portal`))}>
          {chosen.length ? (
            <button type="button" onClick={() => go('summary')} className={primaryButton} data-testid="upgrade-review">
              {t('upgrade.review')} →
            </button>
          ) : null}
        </StepActions>
      </>
    );
  } else if (step === 'summary') {
    body = (
      <>
        <Summary
          subscription={subscription}
          quote={price}
          problem={priceProblem}
          onRemove={(id) => {
            const rest = chosen.filter((item) => item.id !== id);
            if (rest.length) setChoice(rest);
            else go('select', { add: null, key: null }, true);
          }}
        />
        <StepActions onBack={() => go('select')}>
          {price && !priceProblem ? (
            <button
              type="button"
              onClick={() => go('payment', { key: key || newIdempotencyKey() })}
              className={primaryButton}
              data-testid="upgrade-checkout"
            >
              {t('upgrade.checkout')} →
            </button>
          ) : null}
        </StepActions>
      </>
    );
  } else if (step === 'payment') {
    body = !key ? (
      <StepActions onBack={() => go('summary')} />
    ) : price ? (
      <PaymentStep
        key={`${key}:${addParam}`}
        order={{ addOns: chosen, idempotencyKey: key }}
        billing={billingOf(subscription)}
        billingSource={subscription.payWith.billingAddress ? 'lastOrder' : 'none'}
        cardOnFile={subscription.payWith.card}
        shownTotal={price.total}
        payments={payments}
        onOrder={() => undefined}
        onPaid={(orderId) =>
          void navigate(
            link(`/${locale}/upgrade/${subscription._id}?${new URLSearchParams({ step: 'done', order: orderId })}`),
            { replace: true },
          )
        }
        onBack={() => go('summary', { key: null })}
      />
    ) : priceProblem ? (
      <Summary subscription={subscription} quote={null} problem={priceProblem} onRemove={() => undefined} />
    ) : (
      <p className="mt-6 min-h-40 text-muted" aria-busy="true">
        {t('upgrade.checking')}
      </p>
    );
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 lg:py-10" data-testid="upgrade-flow" data-step={step}>
      <Progress step={step} />
      <p className="mt-6 text-sm text-muted" data-testid="upgrade-plan">
        {t('upgrade.plan', {
          plan: localized(subscription.planName, locale),
          date: dayText(subscription.contractStart, locale),
        })}
      </p>
      <section aria-labelledby="step-heading" className="mt-2 min-w-0">
        <StepHeading ref={heading}>{t(`upgrade.steps.${step}.title`)}</StepHeading>
        <p className="mt-2 text-lg text-muted">{t(`upgrade.steps.${step}.lead`)}</p>
        {unpaid ? (
          <p role="status" className="mt-6 rounded-2xl border border-line bg-sunken p-4" data-testid="upgrade-unpaid">
            {t('upgrade.unpaid')}
          </p>
        ) : null}
        <Suspense
          fallback={
            <p className="mt-6 min-h-64 text-muted" aria-busy="true">
              {t('subscription.loading')}
            </p>
          }
        >
          {body}
        </Suspense>
      </section>
    </div>
  );
}
