import { formatMoney } from '../../../domain/format';
import { localized } from '../../../domain/locales';
import type { CurrencyCode } from '../../../domain/money';
import type { OrderPrice } from '../../../domain/orders/pricing';
import { useLocale } from '../../i18n/messages';
import type { OrderPreview } from './order-preview';

/** The order's total beside every step after the plan: a card on wide screens, a bar stuck to the foot of a phone's screen. */
export function OrderTotal({
  preview,
  confirmed,
  currency,
  variant,
}: {
  preview: OrderPreview;
  confirmed: OrderPrice | null;
  currency: CurrencyCode;
  variant: 'aside' | 'bar';
}) {
  const { t, locale } = useLocale();
  const money = (amount: number) => formatMoney({ amount, currency }, locale);
  const { quote } = preview;
  const due = confirmed?.total ?? quote.prepaid;
  const monthly = confirmed?.monthly ?? quote.monthly;
  if (variant === 'bar') {
    return (
      <div
        className="sticky bottom-0 z-20 -mx-4 mt-8 border-t border-line bg-raised/95 px-4 py-3 shadow-[0_-4px_12px_rgb(0_0_0/0.08)] backdrop-blur lg:hidden"
        data-testid="total-bar"
      >
        {/* The right end stays clear for the floating chat button. */}
        <div className="flex items-center gap-6 pr-20">
          <div>
            <p className="text-xs text-muted">{t('subscription.total.dueNow', { months: quote.prepaidMonths })}</p>
            <p className="text-xl text-figure" data-testid="bar-due">
              {money(due)}
            </p>
          </div>
          <p className="text-sm">
            <span className="block text-xs whitespace-nowrap text-muted">{t('pricing.monthly')}</span>
            <span className="font-semibold">{money(monthly)}</span>
          </p>
        </div>
      </div>
    );
  }
  return (
    <aside
      aria-labelledby="total-heading"
      className="hidden h-fit rounded-2xl border border-brand-500 bg-raised p-6 shadow-lg lg:sticky lg:top-28 lg:block"
      data-testid="total-aside"
    >
      <h2 id="total-heading" className="text-lg font-semibold">
        {localized(preview.plan.name, locale)}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('subscription.total.addOns', { count: preview.lines.length - 1 })}</p>
      <p className="mt-4 text-sm text-muted">{t('pricing.monthly')}</p>
      <p className="text-2xl text-figure" data-testid="aside-monthly">
        {money(monthly)}
      </p>
      <p className="mt-3 text-sm text-muted">{t('subscription.total.dueNow', { months: quote.prepaidMonths })}</p>
      <p className="text-xl font-semibold" data-testid="aside-due">
        {money(due)}
      </p>
      <p className="mt-4 text-xs text-muted">{t('pricing.gst')}</p>
    </aside>
  );
}
