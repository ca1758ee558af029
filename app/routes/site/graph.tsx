import { formatNumber } from '../../../domain/format';
import { RESULTS, SCALE } from '../../../domain/marketing-figures';
import { ChartFigure } from '../../components/charts/chart-figure';
import { signedPercent } from '../../components/charts/scale';
import type { Bar } from '../../components/charts/bar-chart';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import type { MarketingHandle } from './layout';
import type { Route } from './+types/graph';

/** Links only: the page is sent without the framework's scripts. */
export const handle: MarketingHandle = { scripts: false };

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['graph'] as const;

export function loader({ params }: Route.LoaderArgs) {
  return { messages: pageMessages(params.lang, messageGroups) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'graph.title', description: 'graph.description' });
}

function useCharts() {
  const { t, locale } = useLocale();
  const times = (value: number) => t('graph.units.times', { value: formatNumber(value, locale) });
  const seconds = (value: number) => t('graph.units.seconds', { value: formatNumber(value, locale) });
  const change = (key: string, value: number): Bar => ({
    label: t(`graph.labels.${key}`),
    value,
    text: signedPercent(value, locale),
    tone: 'brand',
  });
  return [
    {
      id: 'sales',
      step: 1,
      bars: [
        { label: t('graph.labels.before'), value: 1, text: times(1), tone: 'muted' },
        {
          label: t('graph.labels.after'),
          value: RESULTS.salesMultiple,
          text: times(RESULTS.salesMultiple),
          tone: 'brand',
        },
      ],
    },
    {
      id: 'changes',
      step: 10,
      bars: [
        change('operatingCosts', RESULTS.operatingCostsPct),
        change('staffCost', RESULTS.staffCostPct),
        change('efficiency', RESULTS.workflowEfficiencyPct),
        change('repeatCustomers', RESULTS.repeatCustomersPct),
      ],
    },
    {
      id: 'speed',
      step: 10,
      bars: [
        {
          label: t('graph.labels.manual'),
          value: RESULTS.manualSecondsPerOrder,
          text: seconds(RESULTS.manualSecondsPerOrder),
          tone: 'muted',
        },
        {
          label: t('graph.labels.after'),
          value: RESULTS.secondsPerOrder,
          text: seconds(RESULTS.secondsPerOrder),
          tone: 'brand',
        },
      ],
    },
  ] satisfies { id: string; step: number; bars: Bar[] }[];
}

export default function Graph() {
  const { t, locale } = useLocale();
  const charts = useCharts();
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">{t('graph.heading')}</h1>
      <p className="mt-4 max-w-3xl text-lg text-muted">
        {t('graph.intro')}{' '}
        <a href="#notes" className="font-medium text-link underline">
          {t('graph.notes.link')}
        </a>
      </p>

      <section aria-labelledby="results" className="mt-12">
        <h2 id="results" className="text-2xl font-semibold">
          {t('graph.results')}
        </h2>
        <div className="mt-6 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {charts.map((chart) => (
            <ChartFigure
              key={chart.id}
              id={chart.id}
              title={t(`graph.charts.${chart.id}.title`)}
              summary={t(`graph.charts.${chart.id}.summary`)}
              bars={chart.bars}
              step={chart.step}
            />
          ))}
        </div>
      </section>

      <section aria-labelledby="scale" className="mt-14">
        <h2 id="scale" className="text-2xl font-semibold">
          {t('graph.scale.heading')}
        </h2>
        <dl className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5" data-testid="scale">
          {SCALE.map((figure) => (
            <div key={figure.key} className="flex flex-col-reverse rounded-xl border border-line bg-tint p-5">
              <dt className="mt-1 text-sm text-muted">{t(`graph.scale.${figure.key}`)}</dt>
              <dd className="text-4xl font-bold tracking-tight text-link tabular-nums">
                {formatNumber(figure.value, locale)}
                {'exact' in figure ? '' : '+'}
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section
        id="notes"
        aria-labelledby="notes-heading"
        className="mt-14 max-w-3xl border-t border-line pt-6 text-sm text-muted"
      >
        <h2 id="notes-heading" className="text-base font-semibold text-ink">
          {t('graph.notes.heading')}
        </h2>
        <p className="mt-2">{t('graph.notes.p1')}</p>
        <p className="mt-2">{t('graph.notes.p2')}</p>
      </section>
    </div>
  );
}
