import { useLocale } from '../../i18n/messages';
import { BarChart, type Bar } from './bar-chart';

/**
 * A chart with its caption and its numbers: the SVG names every value in its label, and a
 * "Show data" disclosure holds the same figures as a table for anyone who wants to read them.
 */
export function ChartFigure({
  id,
  title,
  summary,
  bars,
  step,
}: {
  id: string;
  title: string;
  summary: string;
  bars: readonly Bar[];
  step?: number;
}) {
  const { t } = useLocale();
  const label = `${title}: ${bars.map((bar) => `${bar.label} ${bar.text}`).join('; ')}`;
  return (
    <figure className="flex flex-col rounded-xl border border-line bg-raised p-5" data-testid={`chart-${id}`}>
      <figcaption>
        <h3 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h3>
        <p className="mt-1 text-sm text-muted">{summary}</p>
      </figcaption>
      <div className="mt-5 flex-1">
        <BarChart bars={bars} label={label} step={step} />
      </div>
      <details className="mt-4 text-sm">
        <summary className="font-medium text-link underline">{t('graph.table.show')}</summary>
        <table className="mt-3 w-full border-collapse text-left">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr className="border-b border-line">
              <th scope="col" className="py-1.5 pr-4 font-semibold">
                {t('graph.table.measure')}
              </th>
              <th scope="col" className="py-1.5 text-right font-semibold">
                {t('graph.table.value')}
              </th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.label} className="border-b border-line last:border-0">
                <th scope="row" className="py-1.5 pr-4 font-normal">
                  {bar.label}
                </th>
                <td className="py-1.5 text-right tabular-nums">{bar.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
