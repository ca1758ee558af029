import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, type ShouldRevalidateFunctionArgs } from 'react-router';
import { type ShippingCountry } from '../../../domain/forms/shipping-fields';
import { marketOf } from '../../../domain/orders/countries';
import type { OrderPrice } from '../../../domain/orders/pricing';
import { forLocale, localeOf } from '../../../domain/locales';
import { STEPS, type Step } from '../../../domain/purchase/subscription-form';
import { AddOnsStep } from '../../components/purchase/add-ons-step';
import { changesBuyer, type FlowBody, useFlowCall } from '../../components/purchase/flow-api';
import { addOnsFor, previewOrder, type FlowCatalogue, type FlowPlan } from '../../components/purchase/order-preview';
import type { DeliveryDates } from '../../components/purchase/shipping-step';
import { OrderTotal } from '../../components/purchase/order-total';
import { primaryButton, StepActions, StepHeading, StepProgress } from '../../components/purchase/ui';
import { useSubscriptionFlow } from '../../components/purchase/use-subscription-flow';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { usePurchaseDocument } from '../../purchase-document';
import { siteLinks, useShell, useSite } from '../../shell';
import type { MarketingHandle } from '../site/layout';
import type { Route } from './+types/subscription';
import { emailVerified, flowAction } from './flow.server';
import { flowRequestSchema } from '../../../domain/orders/flow-request';
import { readForm } from '../../components/forms/read-form';

/*
 * Most buyers arrive from a plan's page with their plan chosen: the page carries the code of the
 * add-ons and the order's total, and every other step, the summary included, loads when the buyer
 * first touches the page or gets there (or, on a reload, with the page).
 */
const stepModules = {
  summary: () => import('../../components/purchase/summary-step'),
  choice: () => import('../../components/purchase/choice-steps'),
  shipping: () => import('../../components/purchase/shipping-step'),
  account: () => import('../../components/purchase/account-step'),
  verify: () => import('../../components/purchase/verify-step'),
  payment: () => import('../../components/purchase/payment-step'),
};
const IndustryStep = lazy(() => stepModules.choice().then((module) => ({ default: module.IndustryStep })));
const PlanStep = lazy(() => stepModules.choice().then((module) => ({ default: module.PlanStep })));
const SummaryStep = lazy(() => stepModules.summary().then((module) => ({ default: module.SummaryStep })));
const ShippingStep = lazy(() => stepModules.shipping().then((module) => ({ default: module.ShippingStep })));
const AccountStep = lazy(() => stepModules.account().then((module) => ({ default: module.AccountStep })));
const VerifyStep = lazy(() => stepModules.verify().then((module) => ({ default: module.VerifyStep })));
const PaymentStep = lazy(() => stepModules.payment().then((module) => ({ default: module.PaymentStep })));

/** At the buyer's first touch, key or focus on the page, the other steps' code is fetched ahead of need. */
function usePrefetchSteps() {
  useEffect(() => {
    const events = ['pointerdown', 'keydown', 'focusin'] as const;
    const prefetch = () => {
      for (const event of events) document.removeEventListener(event, prefetch, true);
      for (const load of Object.values(stepModules)) void load().catch(() => undefined);
    };
    for (const event of events) document.addEventListener(event, prefetch, { capture: true, passive: true });
    return () => {
      for (const event of events) document.removeEventListener(event, prefetch, true);
    };
  }, []);
}

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = [
  'subscription',
  'pricing',
  'product',
  'forms',
  'registration',
  'verification',
  'purchase',
  'login',
] as const;

/** Spec: "Footer hidden on /subscription". */
export const handle: MarketingHandle = { hideFooter: true };

const PLAN_ORDER: Record<string, number> = { lite: 0, flexi: 1, enterprise: 2 };

export async function loader({ context, params }: Route.LoaderArgs) {
  const { api, user } = context.get(serverContext);
  const ssr = { provider: 'ssr', user };
  const [industries, templates, modules] = await Promise.all([
    api.service('industries').find({
      ...ssr,
      query: { $sort: { order: 1 }, $limit: 50, $select: ['_id', 'key', 'name', 'description', 'order'] },
    }),
    api.service('appTemplates').find({ ...ssr, query: { $limit: 100, $populate: 'modules.id' } }),
    api.service('modules').find({ ...ssr, query: { released: true, $sort: { order: 1 }, $limit: 50 } }),
  ]);
  const plans: FlowPlan[] = templates.data
    .map((plan) => ({
      _id: plan._id,
      key: plan.key,
      name: plan.name,
      description: plan.description,
      type: plan.type,
      monthPrice: plan.monthPrice,
      currency: plan.currency,
      contractMonths: plan.contractMonths,
      industry: plan.industry,
      included: plan.modules.flatMap((item) =>
        typeof item.id === 'string' ? [] : [{ id: item.id._id, name: item.id.name, count: item.count ?? 1 }],
      ),
    }))
    .sort((a, b) => (PLAN_ORDER[a.type] ?? 9) - (PLAN_ORDER[b.type] ?? 9));
  const withPlans = new Set(plans.map((plan) => plan.industry));
  const locale = localeOf(params.lang);
  const catalogue: FlowCatalogue = {
    industries: industries.data.filter((industry) => withPlans.has(industry._id)),
    plans,
    addOns: modules.data,
  };
  const { payments } = context.get(serverContext);
  return {
    catalogue: forLocale(catalogue, locale),
    buyer: { signedIn: Boolean(user), emailVerified: await emailVerified({ api, user }) },
    account: user ? { name: user.name ?? user.email, email: user.email } : null,
    // The provider's card fields: which provider, and the sandbox's origin (never a secret).
    payments: { provider: payments.provider, origin: payments.origin, publishableKey: payments.publishableKey },
    messages: pageMessages(params.lang, messageGroups),
  };
}

/** The flow's calls (prices, dates, account, verification, order, payment): see flow.server.ts. */
export async function action({ request, context, params }: Route.ActionArgs) {
  return flowAction(context.get(serverContext), params.lang, await readForm(request, flowRequestSchema));
}

/**
 * The catalogue and the buyer are read once per visit to the page: moving between steps changes
 * only `?step=`, and needs nothing new from the server. After signing in or verifying, the buyer
 * is read again; other calls (prices, dates, the order, the payment) change nothing the loader reads.
 */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, actionResult }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== 'GET') return changesBuyer(actionResult);
  return currentUrl.pathname !== nextUrl.pathname;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'subscription.title', description: 'subscription.description', index: false });
}

/** The country a buyer is most likely in, before they say: the site's region. */
function defaultCountry(region: string): ShippingCountry {
  return region === 'sg' ? 'SG' : 'HK';
}

/** `/{locale}/subscription`: the purchase flow, one step per `?step=`, its state in the browser (decision 021). */
export default function Subscription({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { market } = useShell();
  const { site } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  usePrefetchSteps();
  // The card fields need this page's own document (its policy allows their frame).
  usePurchaseDocument();
  const { catalogue, buyer, account, payments } = loaderData;
  const { form, step, frontier, update, goTo } = useSubscriptionFlow(catalogue, buyer);
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef<Step | null>(null);

  // A new step is announced by moving the focus to its heading (not on the first view of the page).
  useEffect(() => {
    if (!form) return;
    if (shown.current && shown.current !== step) heading.current?.focus();
    shown.current = step;
  }, [form, step]);

  const country = form?.shippingInfo.country ?? '';
  // The summary prices in the currency of the country of delivery: default it to the site's region.
  useEffect(() => {
    if (form && step === 'summary' && !form.shippingInfo.country) {
      update((previous) => ({
        ...previous,
        shippingInfo: { ...previous.shippingInfo, country: defaultCountry(market.region) },
      }));
    }
  }, [form, step, market.region, update]);

  // Currency and seller follow the country of delivery (decision 018); before one is chosen, the site's region.
  const currency = marketOf((country || defaultCountry(market.region)) as ShippingCountry).currency;
  const preview = form ? previewOrder(form, catalogue, currency) : null;

  // The server's price of the choice (the summary shows it once it answers; the preview before).
  const [serverQuote, setServerQuote] = useState<{ request: string; price: OrderPrice } | null>(null);
  const quoteCall = useFlowCall((answer) => {
    if (answer.intent === 'quote' && answer.ok) setServerQuote({ request: pendingQuote.current, price: answer.quote });
  });
  const pendingQuote = useRef('');
  const quoteRequest =
    form?.planInfo.planId && country && preview
      ? JSON.stringify({
          plan: form.planInfo.planId,
          addOns: form.planInfo.addOns,
          prepaidMonths: form.planInfo.prepaidMonths,
          country,
        })
      : '';
  const { call: askQuote } = quoteCall;
  useEffect(() => {
    if (
      !quoteRequest ||
      !['summary', 'shipping', 'account', 'verify', 'payment'].includes(step) ||
      pendingQuote.current === quoteRequest
    )
      return;
    pendingQuote.current = quoteRequest;
    void askQuote('quote', JSON.parse(quoteRequest) as FlowBody);
  }, [quoteRequest, step, askQuote]);
  const confirmed = serverQuote && serverQuote.request === quoteRequest ? serverQuote.price : null;

  // The days a delivery can be booked on, for the country chosen.
  const [dates, setDates] = useState<{ country: string; dates: string[] } | null>(null);
  const datesCall = useFlowCall((answer) => {
    if (answer.intent === 'dates' && answer.ok) setDates({ country: answer.country, dates: answer.dates });
  });
  const { call: askDates } = datesCall;
  const datesAsked = useRef('');
  useEffect(() => {
    if (step !== 'shipping' || !country || datesAsked.current === country) return;
    datesAsked.current = country;
    void askDates('dates', { country });
  }, [step, country, askDates]);
  const deliveryDates: DeliveryDates | null =
    dates && dates.country === country ? { kind: 'list', dates: dates.dates } : null;
  const plan = preview?.plan;
  const previous = STEPS[STEPS.indexOf(step) - 1];
  const back = previous ? () => goTo(previous) : undefined;
  const next = (label = t('subscription.continue'), target: Step = STEPS[STEPS.indexOf(step) + 1] ?? step) => (
    <button type="button" onClick={() => goTo(target)} className={primaryButton} data-testid="step-continue">
      {label} →
    </button>
  );

  if (!market.subscription) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-16 text-center sm:px-6" data-testid="subscription-off">
        <h1 className="text-3xl font-bold tracking-tight">{t('subscription.off.heading')}</h1>
        <p className="mt-4 text-lg text-muted">{t('subscription.off.lead')}</p>
        <Link to={links.enquiry} className={`${primaryButton} mt-8`}>
          {t('subscription.off.enquire')}
        </Link>
      </div>
    );
  }

  let body: React.ReactNode;
  if (!form) {
    body = (
      <div className="mt-6 min-h-64" aria-busy="true" data-testid="flow-loading">
        <p className="text-muted">{t('subscription.loading')}</p>
        <noscript>
          <p className="mt-4 rounded-2xl border border-line bg-sunken p-4">{t('subscription.noScript')}</p>
        </noscript>
      </div>
    );
  } else if (step === 'industry') {
    body = (
      <IndustryStep
        industries={catalogue.industries}
        chosen={form.industryId}
        onChoose={(id) => {
          update((previous) =>
            previous.industryId === id
              ? previous
              : { ...previous, industryId: id, planInfo: { ...previous.planInfo, planId: null, addOns: [] } },
          );
          goTo('plan');
        }}
      />
    );
  } else if (step === 'plan') {
    body = (
      <>
        <PlanStep
          plans={catalogue.plans.filter((candidate) => candidate.industry === form.industryId)}
          chosen={form.planInfo.planId}
          currency={currency}
          onChoose={(id) => {
            const chosen = catalogue.plans.find((candidate) => candidate._id === id);
            const offered = new Set(addOnsFor(catalogue, chosen).map((module) => module._id));
            // Add-ons the new plan already includes are dropped; the others stay chosen.
            update((previous) => ({
              ...previous,
              planInfo: {
                ...previous.planInfo,
                planId: id,
                addOns: previous.planInfo.addOns.filter((item) => offered.has(item.id)),
              },
            }));
            goTo('addons');
          }}
        />
        <StepActions onBack={back}>{plan ? next() : null}</StepActions>
      </>
    );
  } else if (step === 'addons' && plan) {
    body = (
      <>
        <AddOnsStep
          plan={plan}
          offered={addOnsFor(catalogue, plan)}
          chosen={form.planInfo.addOns}
          currency={currency}
          onChange={(addOns) => update((previous) => ({ ...previous, planInfo: { ...previous.planInfo, addOns } }))}
        />
        <StepActions onBack={back}>{next(t('subscription.addons.review'))}</StepActions>
      </>
    );
  } else if (step === 'summary' && preview) {
    body = (
      <>
        <SummaryStep
          preview={preview}
          confirmed={confirmed}
          country={country as ShippingCountry | ''}
          onRemove={(id) =>
            update((previous) => ({
              ...previous,
              planInfo: { ...previous.planInfo, addOns: previous.planInfo.addOns.filter((item) => item.id !== id) },
            }))
          }
          onChangePlan={() => goTo('plan')}
          onMonths={(months) =>
            update((previous) => ({ ...previous, planInfo: { ...previous.planInfo, prepaidMonths: months } }))
          }
          period={form.planInfo.period}
          onPeriod={(period) => update((previous) => ({ ...previous, planInfo: { ...previous.planInfo, period } }))}
          onCountry={(value) =>
            update((previous) => ({ ...previous, shippingInfo: { ...previous.shippingInfo, country: value } }))
          }
        />
        <StepActions onBack={back}>{next(t('subscription.summary.checkout'))}</StepActions>
      </>
    );
  } else if (step === 'shipping') {
    body = (
      <ShippingStep
        info={form.shippingInfo}
        dates={deliveryDates}
        onChange={(shippingInfo) => update((previous) => ({ ...previous, shippingInfo }))}
        onDone={() => goTo('account')}
        onBack={() => goTo('summary')}
      />
    );
  } else if (step === 'account') {
    body = (
      <AccountStep
        signedInAs={buyer.signedIn ? (account?.name ?? '') : null}
        onBack={() => goTo('shipping')}
        onContinue={() => goTo(buyer.emailVerified ? 'payment' : 'verify')}
      />
    );
  } else if (step === 'verify') {
    body = (
      <VerifyStep
        email={account?.email ?? null}
        verified={buyer.emailVerified}
        onBack={() => goTo('account')}
        onContinue={() => goTo('payment')}
      />
    );
  } else if (step === 'payment' && preview) {
    body = (
      <PaymentStep
        key={form.idempotencyKey}
        order={{
          plan: form.planInfo.planId,
          addOns: form.planInfo.addOns,
          prepaidMonths: form.planInfo.prepaidMonths,
          period: form.planInfo.period,
          shipping: form.shippingInfo,
          idempotencyKey: form.idempotencyKey,
        }}
        billing={{
          name: form.shippingInfo.contactPerson,
          line1: form.shippingInfo.street,
          line2: form.shippingInfo.room,
          city: form.shippingInfo.city,
          postalCode: form.shippingInfo.zipcode,
          country: form.shippingInfo.country,
        }}
        shownTotal={confirmed?.total ?? preview.quote.prepaid}
        payments={payments}
        onOrder={(orderId) =>
          update((previous) => (previous.orderId === orderId ? previous : { ...previous, orderId }))
        }
        onPaid={(orderId) => void navigate(`/${locale}/done/${orderId}`)}
        onBack={() => goTo('summary')}
      />
    );
  }

  // Beside every step after the plan; the summary lists the totals itself, so on a wide screen it has no card.
  const showTotal = Boolean(preview) && ['addons', 'shipping', 'account', 'verify', 'payment'].includes(step);
  const showBar = showTotal || (Boolean(preview) && step === 'summary');
  return (
    <div className="mx-auto max-w-6xl px-4 pt-6 sm:px-6 lg:pt-10" data-testid="subscription-flow" data-step={step}>
      <StepProgress step={step} frontier={form ? frontier : step} onGo={goTo} />
      <div className={`mt-8 grid gap-8 pb-10 ${showTotal ? 'lg:grid-cols-[1fr_20rem]' : ''}`}>
        <section aria-labelledby="step-heading" className="min-w-0">
          <StepHeading ref={heading}>{t(`subscription.steps.${step}.title`)}</StepHeading>
          <p className="mt-2 text-lg text-muted">{t(`subscription.steps.${step}.lead`)}</p>
          <Suspense
            fallback={
              <p className="mt-6 min-h-64 text-muted" aria-busy="true" data-testid="step-loading">
                {t('subscription.loading')}
              </p>
            }
          >
            {body}
          </Suspense>
        </section>
        {showTotal && preview ? (
          <OrderTotal preview={preview} confirmed={confirmed} currency={currency} variant="aside" />
        ) : null}
      </div>
      {showBar && preview ? (
        <OrderTotal preview={preview} confirmed={confirmed} currency={currency} variant="bar" />
      ) : null}
    </div>
  );
}
