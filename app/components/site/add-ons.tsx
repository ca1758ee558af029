import type { modules } from '../../../domain/entities/modules';
import type { RecordOf } from '../../../domain/entities/types';
import { formatMoney } from '../../../domain/format';
import { localized } from '../../../domain/locales';
import { isCurrency, type CurrencyCode } from '../../../domain/money';
import { convert } from '../../../domain/pricing';
import { useLocale } from '../../i18n/messages';

/** An add-on module as its price and its row show it. */
export type AddOn = Pick<
  RecordOf<typeof modules>,
  '_id' | 'key' | 'name' | 'shortDesc' | 'counter' | 'monthPrice' | 'currency' | 'billing' | 'released'
>;

/**
 * How an add-on is priced: per month, per device, per year or once; or not yet released. Given a
 * currency, the price is converted to it (the plan page shows the visitor's currency).
 */
export function useAddOnPrice(currency?: CurrencyCode) {
  const { t, locale } = useLocale();
  return (addOn: AddOn) => {
    if (!addOn.released) return t('product.addOns.comingLater');
    if (!isCurrency(addOn.currency)) return '';
    const money = currency
      ? { amount: convert(addOn.monthPrice, addOn.currency, currency), currency }
      : { amount: addOn.monthPrice, currency: addOn.currency };
    const price = formatMoney(money, locale);
    if (addOn.billing === 'one_time') return t('product.addOns.oneTime', { price });
    if (addOn.billing === 'yearly') return t('product.addOns.perYear', { price });
    return addOn.counter ? t('product.addOns.perDevice', { price }) : t('product.addOns.perMonth', { price });
  };
}

/** Add-on modules with what each does and its price. */
export function AddOnTable({ addOns, currency }: { addOns: AddOn[]; currency?: CurrencyCode }) {
  const { t, locale } = useLocale();
  const price = useAddOnPrice(currency);
  return (
    <div className="overflow-hidden rounded-2xl border border-line bg-raised">
      <table className="w-full text-left" data-testid="add-ons">
        <thead className="bg-sunken text-sm">
          <tr>
            <th scope="col" className="px-5 py-3 font-semibold">
              {t('product.addOns.module')}
            </th>
            <th scope="col" className="px-5 py-3 text-right font-semibold">
              {t('product.addOns.price')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {addOns.map((addOn) => (
            <tr key={addOn._id}>
              <th scope="row" className="px-5 py-4 font-normal">
                <span className="font-semibold">{localized(addOn.name, locale)}</span>
                {addOn.shortDesc ? (
                  <span className="block text-sm text-muted">{localized(addOn.shortDesc, locale)}</span>
                ) : null}
              </th>
              <td className={`px-5 py-4 text-right sm:whitespace-nowrap ${addOn.released ? '' : 'text-muted italic'}`}>
                {price(addOn)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
