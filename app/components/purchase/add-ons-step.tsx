import { localized } from '../../../domain/locales';
import type { CurrencyCode } from '../../../domain/money';
import type { ChosenAddOn } from '../../../domain/purchase/subscription-form';
import { useLocale } from '../../i18n/messages';
import { useAddOnPrice, type AddOn } from '../site/add-ons';
import { DeviceCount } from '../site/device-count';
import type { FlowPlan } from './order-preview';
import { smallButton } from './ui';

/**
 * Step 3: optional add-ons on top of the plan. Each is added or cancelled with a button; a counter
 * module (screens, kiosks) then takes its number of devices, 1 to 10, with the calculator's slider.
 */
export function AddOnsStep({
  plan,
  offered,
  chosen,
  currency,
  onChange,
  includedLabel,
}: {
  /** The plan (or, on an upgrade, the subscription): its name and what it has already. */
  plan: Pick<FlowPlan, 'name' | 'included'>;
  offered: AddOn[];
  chosen: ChosenAddOn[];
  currency: CurrencyCode;
  onChange: (addOns: ChosenAddOn[]) => void;
  /** The heading of what the plan has already (by default: what it includes). */
  includedLabel?: string;
}) {
  const { t, locale } = useLocale();
  const price = useAddOnPrice(currency);
  const counts = new Map(chosen.map((item) => [item.id, item.count]));
  const set = (id: string, count: number | null) =>
    onChange(
      count === null
        ? chosen.filter((item) => item.id !== id)
        : counts.has(id)
          ? chosen.map((item) => (item.id === id ? { id, count } : item))
          : [...chosen, { id, count }],
    );
  return (
    <div className="mt-6 space-y-6">
      {plan.included.length ? (
        <section aria-labelledby="included-heading">
          <h2 id="included-heading" className="text-sm font-semibold">
            {includedLabel ?? t('subscription.addons.included', { plan: localized(plan.name, locale) })}
          </h2>
          <ul className="mt-2 flex flex-wrap gap-2" data-testid="included">
            {plan.included.map((item) => (
              <li key={item.id} className="rounded-full bg-sunken px-3 py-1 text-sm">
                {localized(item.name, locale)}
                {item.count > 1 ? ` × ${item.count}` : ''}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {offered.length ? (
        <ul
          className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-raised"
          data-testid="add-on-choices"
        >
          {offered.map((module) => {
            const name = localized(module.name, locale);
            const on = counts.has(module._id);
            const count = counts.get(module._id) ?? 1;
            return (
              <li
                key={module._id}
                className={`p-4 sm:p-5 ${on ? 'bg-tint' : ''}`}
                data-testid={`add-on-${module.key ?? module._id}`}
                data-chosen={on}
              >
                <div className="flex items-start justify-between gap-4">
                  <div className="min-w-0">
                    <h2 className="font-semibold">
                      {on ? (
                        <span className="text-brand-700 dark:text-brand-300" aria-hidden="true">
                          ✓{' '}
                        </span>
                      ) : null}
                      {name}
                    </h2>
                    {module.shortDesc ? (
                      <p className="text-sm text-muted">{localized(module.shortDesc, locale)}</p>
                    ) : null}
                    <p className="mt-1 text-sm font-medium">{price(module)}</p>
                  </div>
                  <button
                    type="button"
                    onClick={() => set(module._id, on ? null : 1)}
                    aria-label={t(on ? 'subscription.addons.cancelLabel' : 'subscription.addons.addLabel', {
                      module: name,
                    })}
                    className={`${smallButton} shrink-0 ${on ? '' : 'border-brand-600 text-brand-800 dark:border-brand-400 dark:text-brand-200'}`}
                    data-testid="add-on-toggle"
                  >
                    {t(on ? 'subscription.addons.cancel' : 'subscription.addons.add')}
                  </button>
                </div>
                {module.counter && on ? (
                  <DeviceCount
                    id={`count-${module._id}`}
                    moduleName={name}
                    count={count}
                    onChange={(value) => set(module._id, value)}
                    className="mt-3"
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p data-testid="no-add-ons">{t('subscription.addons.none')}</p>
      )}
    </div>
  );
}
