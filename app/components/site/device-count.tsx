import { COUNTER_MAX, COUNTER_STEP } from '../../../domain/pricing';
import { useLocale } from '../../i18n/messages';

/**
 * How many devices of a counter module (1 to 10): a slider with its count beside it. The
 * calculator and the subscription flow both show counters this way.
 */
export function DeviceCount({
  id,
  name,
  moduleName,
  count,
  onChange,
  className = '',
}: {
  id: string;
  name?: string;
  moduleName: string;
  count: number;
  onChange: (count: number) => void;
  className?: string;
}) {
  const { t } = useLocale();
  return (
    <div className={`flex items-center gap-4 ${className}`}>
      <label htmlFor={id} className="sr-only">
        {t('pricing.count', { module: moduleName })}
      </label>
      <input
        id={id}
        name={name}
        type="range"
        min={1}
        max={COUNTER_MAX}
        step={COUNTER_STEP}
        value={count}
        aria-valuetext={t('pricing.devices', { count })}
        onChange={(event) => onChange(Number(event.target.value))}
        className="w-full max-w-xs accent-brand-600"
      />
      <output htmlFor={id} className="w-24 shrink-0 text-sm font-semibold">
        {t('pricing.devices', { count })}
      </output>
    </div>
  );
}
