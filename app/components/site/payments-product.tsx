import { formatMoney } from '../../../domain/format';
import { INACTIVITY_DAYS, INACTIVITY_FEE, PAYMENT_GROUPS, PAYMENT_METHODS } from '../../../domain/payment-methods';
import { useLocale } from '../../i18n/messages';
import { CallToAction } from './call-to-action';
import { Hero } from './hero';
import { Section } from './section';

const TERMS = ['settlement', 'report', 'inactivity'] as const;
const FAQ = [1, 2, 3] as const;

/** The payment product: 16+ methods online and offline, T+2 settlement, the inactivity fee. */
export function PaymentsProduct() {
  const { t, locale } = useLocale();
  const fee = formatMoney(INACTIVITY_FEE, locale);
  return (
    <>
      <Hero kicker={t('pay.kicker')} heading={t('pay.heading')} lead={t('pay.lead')}>
        <p className="mt-6 text-sm font-medium text-muted">{t('pay.methods.heading')} · T+2</p>
      </Hero>
      <Section id="methods" heading={t('pay.methods.heading')} lead={t('pay.methods.lead')}>
        <div className="grid gap-6 md:grid-cols-2" data-testid="payment-methods">
          {PAYMENT_GROUPS.map((group) => (
            <section
              key={group}
              aria-labelledby={`methods-${group}`}
              className="rounded-2xl border border-line bg-raised p-6"
            >
              <h3 id={`methods-${group}`} className="text-lg font-semibold">
                {t(`pay.methods.${group}`)}
              </h3>
              <ul className="mt-4 divide-y divide-line">
                {PAYMENT_METHODS.filter((method) => method.group === group).map((method) => (
                  <li key={method.key} className="flex items-center justify-between gap-4 py-2.5">
                    <span className="font-medium">{t(`pay.method.${method.key}`)}</span>
                    <span className="rounded-full bg-sunken px-2.5 py-0.5 text-sm text-muted">
                      {t(`pay.methods.${method.channel}`)}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </Section>
      <Section id="terms" heading={t('pay.terms.heading')} tone="sunken">
        <ul className="grid gap-6 md:grid-cols-3">
          {TERMS.map((term) => (
            <li key={term} className="rounded-2xl border border-line bg-raised p-6" data-testid={`pay-${term}`}>
              <h3 className="text-lg font-semibold">{t(`pay.terms.${term}.title`)}</h3>
              <p className="mt-2 text-muted">{t(`pay.terms.${term}.text`, { fee, days: INACTIVITY_DAYS })}</p>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="faq" heading={t('pay.faq.heading')}>
        <div className="max-w-3xl divide-y divide-line rounded-2xl border border-line bg-raised">
          {FAQ.map((n) => (
            <details key={n} className="group p-5">
              <summary className="flex items-center justify-between gap-4 font-semibold">
                {t(`pay.faq.q${n}`)}
                <span aria-hidden="true" className="transition-transform group-open:rotate-45">
                  +
                </span>
              </summary>
              <p className="mt-3 text-muted">{t(`pay.faq.a${n}`)}</p>
            </details>
          ))}
        </div>
      </Section>
      <CallToAction />
    </>
  );
}
