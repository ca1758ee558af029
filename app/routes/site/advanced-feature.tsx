import { forLocale, localeOf, localized } from '../../../domain/locales';
import { CallToAction } from '../../components/site/call-to-action';
import { Hero } from '../../components/site/hero';
import { useAddOnPrice } from '../../components/site/add-ons';
import { Section } from '../../components/site/section';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMeta } from '../../meta';
import type { MarketingHandle } from './layout';
import type { Route } from './+types/advanced-feature';
import { pageMessages } from '../../i18n/messages.server';
import { ADD_ON_FIELDS } from './summaries.server';

/** Links only: the page is sent without the framework's scripts. */
export const handle: MarketingHandle = { scripts: false };

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['home', 'product', 'advanced'] as const;

export async function loader({ context, params }: Route.LoaderArgs) {
  const { api, user } = context.get(serverContext);
  const found = await api.service('modules').find({
    provider: 'ssr',
    user,
    query: { $sort: { order: 1 }, $limit: 50, $select: [...ADD_ON_FIELDS, 'description'] },
  });
  return { modules: forLocale(found.data, localeOf(params.lang)), messages: pageMessages(params.lang, messageGroups) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'advanced.title', description: 'advanced.description' });
}

/** The add-on modules, each with what it does and its price; unreleased ones say "coming later" (稍後推出). */
export default function AdvancedFeature({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const price = useAddOnPrice();
  return (
    <>
      <Hero kicker={t('advanced.kicker')} heading={t('advanced.heading')} lead={t('advanced.lead')} />
      <Section id="modules" heading={t('advanced.modules')}>
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="modules">
          {loaderData.modules.map((module) => (
            <li
              key={module._id}
              data-released={module.released}
              className="flex flex-col rounded-2xl border border-line bg-raised p-6"
            >
              <div className="flex items-start justify-between gap-3">
                <h3 className="text-xl font-semibold">{localized(module.name, locale)}</h3>
                {module.released ? null : (
                  <span
                    className="shrink-0 rounded-full bg-accent-400 px-3 py-0.5 text-sm font-semibold text-brand-950"
                    data-testid="coming-later"
                  >
                    {t('product.addOns.comingLater')}
                  </span>
                )}
              </div>
              {module.shortDesc ? (
                <p className="mt-1 font-medium text-brand-700 dark:text-brand-300">
                  {localized(module.shortDesc, locale)}
                </p>
              ) : null}
              {module.description ? (
                <p className="mt-3 flex-1 text-muted">{localized(module.description, locale)}</p>
              ) : null}
              {module.released ? (
                <p className="mt-5 border-t border-line pt-4">
                  <span className="sr-only">{t('advanced.priceFrom')}: </span>
                  <span className="text-lg font-semibold">{price(module)}</span>
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      </Section>
      <CallToAction />
    </>
  );
}
