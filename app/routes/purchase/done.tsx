import { useEffect } from 'react';
import { data, Link, redirect } from 'react-router';
import { formatDate, formatMoney } from '../../../domain/format';
import { localized } from '../../../domain/locales';
import type { CurrencyCode } from '../../../domain/money';
import { isPaidOrder } from '../../../domain/orders/paid';
import { SUBSCRIPTION_FORM_KEY } from '../../../domain/purchase/subscription-form';
import { RECORD_ID } from '../../../domain/record-id';
import { primaryButton } from '../../components/purchase/ui';
import { requireUser } from '../../auth.server';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { siteLinks, useSite } from '../../shell';
import type { MarketingHandle } from '../site/layout';
import type { Route } from './+types/done';

export const messageGroups = ['subscription', 'pricing'] as const;

/** Like the flow it ends: no footer. */
export const handle: MarketingHandle = { hideFooter: true };

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const { api, user } = ctx;
  // `/done` alone: the signed-in member's latest order; none yet, their dashboard; signed out, sign in first.
  if (params.id === undefined) {
    const member = requireUser(ctx, request, params.lang);
    const latest = (await api.service('orders').find({
      provider: 'ssr',
      user: member,
      query: { user: member._id, $sort: { createdAt: -1, _id: -1 }, $limit: 1, $select: ['_id'] },
    })) as { data: { _id: string }[] };
    const order = latest.data[0];
    throw redirect(order ? `/${params.lang}/done/${order._id}` : `/${params.lang}/portal`);
  }
  // Only the buyer (and staff) read an order; for anyone else, or no one signed in, it does not exist.
  if (!user || !RECORD_ID.test(params.id)) throw data(null, { status: 404 });
  const order = await api
    .service('orders')
    .get(params.id, { provider: 'ssr', user })
    .catch(() => null);
  if (!order) throw data(null, { status: 404 });
  return {
    order: {
      _id: order._id,
      number: order.number,
      status: order.status,
      paid: isPaidOrder(order.status),
      items: order.items.map((item) => ({
        key: item.key,
        kind: item.kind,
        name: item.name,
        billing: item.billing,
        unitPrice: item.unitPrice,
        count: item.count,
        amount: item.amount,
      })),
      currency: order.currency,
      monthly: order.monthly,
      prepaidMonths: order.prepaidMonths,
      contractMonths: order.contractMonths,
      planType: order.planType,
      subtotal: order.subtotal,
      taxRate: order.taxRate,
      tax: order.tax,
      total: order.total,
      card: order.card ? { brand: order.card.brand, last4: order.card.last4 } : null,
      shipping: order.shipping,
    },
    messages: pageMessages(params.lang, messageGroups),
  };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return pageMeta(matches, { title: 'errorPage.notFound', index: false });
  return pageMeta(matches, {
    title: 'subscription.done.title',
    index: false,
    values: { number: loaderData.order.number },
  });
}

const BILLING_SUFFIX = {
  monthly: 'subscription.summary.perMonth',
  yearly: 'subscription.summary.perYear',
  one_time: 'subscription.summary.once',
} as const;

/** `/{locale}/done/{id}`: the order just paid for, what comes next, and the way to the portal. */
export default function Done({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  const { order } = loaderData;
  const money = (amount: number) => formatMoney({ amount, currency: order.currency as CurrencyCode }, locale);
  const shipping = order.shipping;

  // The flow is over once the order is paid: a new visit to the flow starts afresh.
  useEffect(() => {
    if (!order.paid) return;
    try {
      window.localStorage.removeItem(SUBSCRIPTION_FORM_KEY);
    } catch {
      // Storage refused: nothing was kept.
    }
  }, [order.paid]);

  const address = [
    shipping.room,
    shipping.street,
    shipping.district,
    shipping.city,
    shipping.zipcode,
    t(`subscription.countries.${shipping.country}`),
  ].filter(Boolean);
  const delivery = formatDate(`${shipping.shippingDate}T12:00:00+08:00`, locale);
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 lg:py-12" data-testid="order-done" data-status={order.status}>
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">
        {t('subscription.done.kicker')}
      </p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
        {order.paid ? t('subscription.done.heading') : t('subscription.done.headingUnpaid')}
      </h1>
      <p className="mt-3 text-lg text-muted">
        {t('subscription.done.number')}{' '}
        <strong className="font-mono text-ink" data-testid="done-number">
          {order.number}
        </strong>
      </p>

      <section aria-labelledby="done-items" className="mt-8 rounded-2xl border border-line bg-raised">
        <h2 id="done-items" className="border-b border-line px-4 py-3 font-semibold sm:px-5">
          {t('subscription.summary.items')}
        </h2>
        <ul className="divide-y divide-line">
          {order.items.map((item) => (
            <li
              key={item.key}
              className="flex items-baseline justify-between gap-4 px-4 py-3 sm:px-5"
              data-testid="done-item"
            >
              <span className="min-w-0">
                {localized(item.name, locale)}
                {item.count > 1 ? ` × ${item.count}` : ''}
                {/* What the line's amount is made of: its price per period (and count). */}
                <span className="block text-sm text-muted">
                  {t(BILLING_SUFFIX[item.billing], { price: money(item.unitPrice) })}
                  {item.count > 1 ? ` × ${item.count}` : ''}
                </span>
              </span>
              <span className="text-right font-semibold whitespace-nowrap">{money(item.amount)}</span>
            </li>
          ))}
        </ul>
        <dl className="space-y-2 border-t border-line px-4 py-4 sm:px-5">
          <div className="flex justify-between gap-4">
            <dt>{t('pricing.monthly')}</dt>
            <dd className="font-semibold">{money(order.monthly)}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt>{t('pricing.prepaid', { months: order.prepaidMonths })}</dt>
            <dd className="font-semibold">{money(order.subtotal)}</dd>
          </div>
          {order.taxRate ? (
            <div className="flex justify-between gap-4 text-sm text-muted">
              <dt>{t('subscription.summary.gstIncluded', { rate: order.taxRate / 100 })}</dt>
              <dd data-testid="done-gst">{money(order.tax)}</dd>
            </div>
          ) : null}
          <div className="flex items-baseline justify-between gap-4 border-t border-line pt-3">
            <dt className="text-lg font-semibold">
              {order.paid ? t('subscription.done.totalPaid') : t('subscription.summary.dueNow')}
            </dt>
            <dd className="text-2xl text-figure" data-testid="done-total">
              {money(order.total)}
            </dd>
          </div>
        </dl>
      </section>

      <div className="mt-6 grid gap-6 sm:grid-cols-2">
        <section aria-labelledby="done-payment" className="rounded-2xl border border-line p-4 sm:p-5">
          <h2 id="done-payment" className="font-semibold">
            {t('subscription.done.paidBy')}
          </h2>
          <p className="mt-2" data-testid="done-card">
            {order.card
              ? t('subscription.done.card', { brand: order.card.brand.toUpperCase(), last4: order.card.last4 })
              : t('subscription.done.notPaid')}
          </p>
        </section>
        <section aria-labelledby="done-delivery" className="rounded-2xl border border-line p-4 sm:p-5">
          <h2 id="done-delivery" className="font-semibold">
            {t('subscription.done.delivery')}
          </h2>
          <p className="mt-2 text-lg font-semibold" data-testid="done-delivery-date">
            {delivery}
          </p>
          <address className="mt-2 text-sm not-italic text-muted" data-testid="done-address">
            {shipping.contactPerson} · {shipping.contactNumber}
            <br />
            {address.join(', ')}
          </address>
        </section>
      </div>

      <section aria-labelledby="done-next" className="mt-6 rounded-2xl border border-line bg-sunken p-4 sm:p-5">
        <h2 id="done-next" className="font-semibold">
          {t('subscription.done.nextHeading')}
        </h2>
        <ol className="mt-2 list-decimal space-y-1 pl-5">
          <li>{t('subscription.done.next1')}</li>
          <li>{t('subscription.done.next2', { date: delivery })}</li>
          <li>{t('subscription.done.next3')}</li>
        </ol>
      </section>

      <Link to={links.portal} className={`${primaryButton} mt-8`} data-testid="done-portal">
        {t('subscription.done.portal')}
      </Link>
    </div>
  );
}
