import { formatDay, formatMoney, formatNumber } from '../../../domain/format';
import { lineBasis } from '../../../domain/invoices/lines';
import { settlementRows } from '../../../domain/invoices/settlement';
import { localeOf, localized } from '../../../domain/locales';
import { cardBrandName } from '../../../domain/orders/payment-options';
import { requireUser } from '../../auth.server';
import { smallButton } from '../../components/ui/buttons';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { useLiveRefresh } from '../../api/use-live';
import { useSite } from '../../shell';
import type { Route } from './+types/invoices';
import { type InvoiceRow, loadInvoices } from './invoices.server';

/*
 * `/{locale}/portal/invoices`: the member's invoices, newest first (issue 16, "Invoices and payment
 * method"), each with what it was for, its tax and total, and its PDF in the page's language
 * (`GET /api/invoices/{id}/pdf`, decision 029).
 */

export const messageGroups = ['invoices'] as const;

/**
 * Changes that may bring an invoice: a payment the member makes in another tab is announced on
 * `payments`; invoices and orders announce what staff change.
 */
const LIVE_SERVICES = ['invoices', 'orders', 'payments'] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  return {
    ...(await loadInvoices(ctx, user, localeOf(params.lang))),
    messages: pageMessages(params.lang, messageGroups),
  };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'invoices.title', index: false });
}

const badge = 'rounded-full px-2.5 py-0.5 text-xs font-semibold';

function Invoice({ invoice }: { invoice: InvoiceRow }) {
  const { t, locale } = useLocale();
  const money = (amount: number) => formatMoney({ amount, currency: invoice.currency }, locale);
  const day = (value: string) => formatDay(value, locale);
  const heading = `invoice-${invoice._id}`;
  const voided = invoice.status === 'void';
  const refunded = invoice.status === 'refunded';
  const statusColours = voided
    ? 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100'
    : refunded
      ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100'
      : 'bg-brand-100 text-brand-900 dark:bg-brand-900 dark:text-brand-50';
  return (
    <li>
      <article
        aria-labelledby={heading}
        className="rounded-2xl border border-line bg-raised"
        data-testid="invoice"
        data-number={invoice.number}
        data-status={invoice.status}
      >
        <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 border-b border-line px-4 py-3 sm:px-5">
          <div className="min-w-0">
            <h2 id={heading} className="font-mono text-lg font-semibold" data-testid="invoice-number">
              {invoice.number}
            </h2>
            <p className="text-sm text-muted">
              <span data-testid="invoice-date">{t('invoices.issued', { date: day(invoice.issuedOn) })}</span>
              {invoice.order ? <span> · {t('invoices.order', { number: invoice.order.number })}</span> : null}
            </p>
          </div>
          <p className="flex flex-wrap gap-2">
            <span className={`${badge} bg-tint`} data-testid="invoice-kind">
              {t(`invoices.kinds.${invoice.kind}`)}
            </span>
            <span className={`${badge} ${statusColours}`} data-testid="invoice-status">
              {t(`invoices.statuses.${invoice.status}`)}
            </span>
          </p>
        </header>
        <ul className="divide-y divide-line" data-testid="invoice-lines">
          {invoice.lines.map((line) => {
            const basis = lineBasis(line, invoice.order?.prepaidMonths ?? 0, { money, day });
            return (
              <li
                key={line.key}
                className="flex items-baseline justify-between gap-4 px-4 py-3 sm:px-5"
                data-testid="invoice-line"
              >
                <span className="min-w-0">
                  <span className="block font-medium">{localized(line.name, locale)}</span>
                  <span className="block text-sm text-muted">{t(basis.key, basis.values)}</span>
                </span>
                <span className="text-right whitespace-nowrap">{money(line.amount)}</span>
              </li>
            );
          })}
        </ul>
        <dl className="border-t border-line px-4 py-3 text-sm sm:px-5">
          <div className="flex justify-between gap-4 text-muted">
            <dt>
              {invoice.taxRate > 0
                ? t('invoices.gstIncluded', { rate: formatNumber(invoice.taxRate / 100, locale) })
                : t('invoices.tax')}
            </dt>
            <dd className="whitespace-nowrap" data-testid="invoice-tax">
              {money(invoice.tax)}
            </dd>
          </div>
          <div className="mt-1 flex items-baseline justify-between gap-4 text-base font-semibold">
            <dt>{t('invoices.total')}</dt>
            <dd
              className={`text-lg whitespace-nowrap ${voided ? 'text-muted line-through' : ''}`}
              data-testid="invoice-total"
            >
              {money(invoice.total)}
            </dd>
          </div>
          {!voided && invoice.paidOn ? (
            <div className="mt-1 text-muted">
              <dt className="sr-only">{t('invoices.payment')}</dt>
              <dd data-testid="invoice-paid">
                {invoice.card
                  ? t('invoices.paidWith', {
                      date: day(invoice.paidOn),
                      brand: cardBrandName(invoice.card.brand),
                      last4: invoice.card.last4,
                    })
                  : t('invoices.paidOn', { date: day(invoice.paidOn) })}
              </dd>
            </div>
          ) : null}
          {refunded && invoice.refundedOn ? (
            <div className="mt-1 font-medium">
              <dt className="sr-only">{t('invoices.statuses.refunded')}</dt>
              <dd data-testid="invoice-refunded">{t('invoices.refundedOn', { date: day(invoice.refundedOn) })}</dd>
            </div>
          ) : null}
          {voided || refunded
            ? null
            : settlementRows(invoice.total, invoice.balanceApplied).map((row) => (
                <div
                  key={row.key}
                  className="mt-1 flex justify-between gap-4 text-muted"
                  data-testid={`invoice-${row.key}`}
                >
                  <dt>{t(`invoices.settlement.${row.key}`)}</dt>
                  <dd className="whitespace-nowrap">{money(row.amount)}</dd>
                </div>
              ))}
        </dl>
        <footer className="flex justify-end border-t border-line px-4 py-3 sm:px-5">
          {/* A file, not a page: a plain link the session cookie signs, which the browser saves. */}
          <a
            href={`/api/invoices/${encodeURIComponent(invoice._id)}/pdf?lang=${locale}`}
            download={`${invoice.number}.pdf`}
            className={smallButton}
            data-testid="invoice-download"
          >
            {t('invoices.download')}
            {/* Which one, for a screen reader going through the links; the visible words start the name. */}
            <span className="sr-only"> {invoice.number}</span>
          </a>
        </footer>
      </article>
    </li>
  );
}

export default function Invoices({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const { invoices, total } = loaderData;
  useLiveRefresh(LIVE_SERVICES);
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 lg:py-10" data-testid="invoices-page">
      <h1 className="text-3xl font-bold">{t('invoices.heading')}</h1>
      <p className="mt-2 max-w-prose text-lg text-muted">{t('invoices.lead')}</p>
      {invoices.length === 0 ? (
        <section
          aria-labelledby="invoices-none"
          className="mt-8 rounded-2xl border border-line bg-raised p-6 sm:p-8"
          data-testid="invoices-none"
        >
          <h2 id="invoices-none" className="text-xl font-semibold">
            {t('invoices.none')}
          </h2>
          <p className="mt-2 max-w-prose text-muted">{t('invoices.noneBody')}</p>
        </section>
      ) : (
        <>
          <ol className="mt-8 space-y-6" data-testid="invoices">
            {invoices.map((invoice) => (
              <Invoice key={invoice._id} invoice={invoice} />
            ))}
          </ol>
          {total > invoices.length ? (
            <p className="mt-6 text-sm text-muted" data-testid="invoices-limited">
              {t('invoices.limited', {
                count: formatNumber(invoices.length, locale),
                total: formatNumber(total, locale),
                email: site.supportEmail,
              })}
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
