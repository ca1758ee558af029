import { data } from 'react-router';
import { HONEYPOT_FIELD, textOf } from '../../../domain/forms/messages';
import { isNewsletterCampaign, newsletterFromForm } from '../../../domain/forms/newsletter-fields';
import { NewsletterForm } from '../../components/site/newsletter-form';
import { serverContext } from '../../context';
import { submitForm } from '../../forms.server';
import { localeOf, localized } from '../../../domain/locales';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import type { Route } from './+types/campaign';

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['campaign', 'newsletter'] as const;

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!isNewsletterCampaign(params.name)) throw data(null, { status: 404 });
  const ctx = context.get(serverContext);
  const lang = localeOf(params.lang);
  // The campaign of the same key, while published and inside its window: its published ads (decision 057).
  const ads = await ctx.api.service('adPicks').find({ provider: 'ssr', query: { campaign: params.name } });
  return {
    campaign: params.name,
    ads: ads.map((ad) => ({
      id: ad.id,
      name: localized(ad.name, lang),
      picture: ad.media ?? ad.smallImage,
      link: ad.targetLink,
    })),
    messages: pageMessages(params.lang, messageGroups),
  };
}

/**
 * The newsletter subscription, through the `subscribers` service: its rules answer, in the
 * visitor's language. With JavaScript the form calls this in place; without it the page answers.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  if (!isNewsletterCampaign(params.name)) throw data(null, { status: 404 });
  const form = await request.formData();
  const answers = {
    ...newsletterFromForm(form),
    campaign: params.name,
    locale: params.lang,
    [HONEYPOT_FIELD]: textOf(form, HONEYPOT_FIELD),
  };
  const { result, status } = await submitForm(context.get(serverContext), 'subscribers', answers, params.lang);
  return data(result, { status });
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return pageMeta(matches, {
    title: `campaign.${loaderData.campaign}.title`,
    description: `campaign.${loaderData.campaign}.lead`,
  });
}

export default function CampaignPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const key = `campaign.${loaderData.campaign}`;
  return (
    <>
      <section className="bg-gradient-to-br from-brand-950 via-brand-800 to-brand-600 px-4 pt-[160px] pb-24 text-white sm:px-6">
        <div className="mx-auto max-w-4xl">
          <p className="font-semibold tracking-wide text-accent-400 uppercase">{t(`${key}.kicker`)}</p>
          <h1 className="mt-4 text-4xl leading-tight font-bold sm:text-5xl">{t(`${key}.title`)}</h1>
          <p className="mt-6 max-w-2xl text-lg text-brand-50">{t(`${key}.lead`)}</p>
        </div>
      </section>
      {loaderData.ads.length > 0 ? (
        <section aria-labelledby="campaign-ads-heading" className="px-4 pt-16 sm:px-6" data-testid="campaign-ads">
          <div className="mx-auto max-w-4xl">
            <h2 id="campaign-ads-heading" className="text-3xl font-bold tracking-tight">
              {t('campaign.offers')}
            </h2>
            <ul className="mt-8 grid gap-6 sm:grid-cols-2">
              {loaderData.ads.map((ad) => (
                <li key={ad.id} className="overflow-hidden rounded-2xl border border-line bg-raised">
                  {ad.picture ? <img src={ad.picture} alt="" className="aspect-video w-full object-cover" /> : null}
                  <div className="p-5">
                    {ad.link ? (
                      <a
                        href={ad.link}
                        className="text-lg font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
                      >
                        {ad.name}
                      </a>
                    ) : (
                      <p className="text-lg font-semibold">{ad.name}</p>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}
      {/* The microsite's newsletter slot. */}
      <section aria-labelledby="newsletter-heading" className="px-4 py-16 sm:px-6" id="newsletter">
        <div className="mx-auto max-w-3xl">
          <h2 id="newsletter-heading" className="text-3xl font-bold tracking-tight">
            {t('newsletter.heading')}
          </h2>
          <p className="mt-3 text-muted">{t('newsletter.lead')}</p>
          <div className="mt-8">
            <NewsletterForm
              key={loaderData.campaign}
              campaign={loaderData.campaign}
              action={`/${locale}/campaign/${loaderData.campaign}`}
              result={actionData}
            />
          </div>
        </div>
      </section>
    </>
  );
}
