import {
  availability,
  comesLater,
  FEATURE_AREAS,
  PLAN_TIERS,
  type Availability,
  type Feature,
  type PlanTier,
  type ProductLine,
} from '../../../domain/feature-matrix';
import { useLocale } from '../../i18n/messages';
import { CheckIcon, MinusIcon, PlusIcon } from '../ui/icons';

/** Plan names are product names: the same in every language. */
export const PLAN_NAMES: Record<PlanTier, string> = { lite: 'Lite', flexi: 'Flexi', flexiPlus: 'Flexi+' };

const MARKS: Record<Availability, { Icon: typeof CheckIcon; tone: string }> = {
  included: { Icon: CheckIcon, tone: 'text-brand-700 dark:text-brand-300' },
  addOn: { Icon: PlusIcon, tone: 'text-accent-600 dark:text-accent-400' },
  none: { Icon: MinusIcon, tone: 'text-muted' },
};

/** An icon for the eye and the words for everyone: the words show from `md` up, and are read out always. */
function AvailabilityMark({ value }: { value: Availability }) {
  const { t } = useLocale();
  const { Icon, tone } = MARKS[value];
  return (
    <span className="inline-flex items-center gap-1.5" data-availability={value}>
      <Icon className={`h-5 w-5 shrink-0 ${tone}`} />
      <span className="sr-only md:not-sr-only">{t(`featureList.status.${value}`)}</span>
    </span>
  );
}

export function FeatureTable({ features, line }: { features: readonly Feature[]; line: ProductLine }) {
  const { t } = useLocale();
  const groups = FEATURE_AREAS.map((area) => ({
    area,
    features: features.filter((feature) => feature.area === area),
  })).filter((group) => group.features.length > 0);
  return (
    <div
      role="region"
      aria-label={t('featureList.table.scroll')}
      tabIndex={0}
      className="overflow-x-auto rounded-xl border border-line bg-raised"
    >
      <table className="w-full min-w-[20rem] border-collapse text-left text-sm" data-testid="feature-table">
        <caption className="px-4 pt-4 pb-2 text-left text-base font-semibold">
          {t('featureList.table.caption', { line: t(`featureList.lines.${line}`) })}
        </caption>
        <thead className="bg-sunken">
          <tr>
            <th scope="col" className="px-3 py-3 font-semibold md:px-4">
              {t('featureList.table.feature')}
            </th>
            {PLAN_TIERS.map((tier) => (
              <th
                key={tier}
                scope="col"
                className="w-14 px-1 py-3 text-center font-semibold md:w-36 md:px-4 md:text-left"
              >
                {PLAN_NAMES[tier]}
              </th>
            ))}
          </tr>
        </thead>
        {groups.map((group) => (
          <tbody key={group.area} className="border-t border-line">
            <tr>
              <th
                scope="rowgroup"
                colSpan={1 + PLAN_TIERS.length}
                className="bg-tint px-3 py-2.5 font-semibold text-link md:px-4"
              >
                {t(`featureList.areas.${group.area}`)}
              </th>
            </tr>
            {group.features.map((feature) => (
              <tr key={feature.key} className="border-t border-line align-top" data-feature={feature.key}>
                <th scope="row" className="px-3 py-3 font-normal md:px-4">
                  <span className="font-medium">{t(`featureList.features.${feature.key}.name`)}</span>
                  {comesLater(feature) ? (
                    <span className="ml-2 inline-block rounded-full border border-line px-2 text-xs text-muted">
                      {t('featureList.status.comingLater')}
                    </span>
                  ) : null}
                  <span className="mt-0.5 block text-muted">
                    {t(`featureList.features.${feature.key}.description`)}
                  </span>
                </th>
                {PLAN_TIERS.map((tier) => (
                  <td key={tier} className="px-1 py-3 text-center md:px-4 md:text-left">
                    <AvailabilityMark value={availability(feature, tier, line)} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}
