import { data } from 'react-router';
import { NEWSLETTER_CAMPAIGNS, type NewsletterCampaign, type NewsletterValues } from '../../../domain/validation/newsletter';
import { NewsletterForm, type NewsletterResult } from '../../components/site/newsletter-form';
import { serverContext } from '../../context';
import { translator, useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import type { Route } from './+types/campaign';

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['campaign', 'newsletter'] as const;

function isCampaign(name: string): name is NewsletterCampaign {
  return (NEWSLETTER_CAMPAIGNS as readonly string[]).includes(name);
}

export function loader({ params }: Route.LoaderArgs) {
  if (!isCampaign(params.name)) throw data(null, { status: 404 });
  return { campaign: params.name, messages: pageMessages(params.lang, messageGroups) };
}

/** The newsletter subscription: through the `subscribers` service, so its rules answer, in the visitor's language. */
export async function action({ params, request, context }: Route.ActionArgs): Promise<NewsletterResult> {
  if (!isCampaign(params.name)) throw data(null, { status: 404 });
  const ctx = context.get(serverContext);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? '').slice(0, 300);
  const values: NewsletterValues = { name: field('name'), companyName: field('companyName'), phone: field('phone'), email: field('email') };
  try {
    await ctx.api.service('subscribers').create(
      { ...Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim())), campaign: params.name, locale: params.lang, website_url: field('website_url') },
      { provider: 'ssr', ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': params.lang } },
    );
    return { ok: true };
  } catch (error) {
    const e = error as { code?: number; message?: string; errors?: Record<string, string> };
    if (e.code === 400 && e.errors) return { errors: e.errors, values };
    // Too many sign-ups from this address: the service's message, already in the page's language.
    if (e.code === 429 && e.message) return { error: e.message, values };
    console.error('Newsletter subscription failed', error);
    const t = translator(pageMessages(params.lang, ['newsletter']));
    return { error: t('newsletter.failed'), values };
  }
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return pageMeta(matches, { title: `campaign.${loaderData.campaign}.title`, description: `campaign.${loaderData.campaign}.lead` });
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
      {/* The microsite's newsletter slot. */}
      <section aria-labelledby="newsletter-heading" className="px-4 py-16 sm:px-6" id="newsletter">
        <div className="mx-auto max-w-3xl">
          <h2 id="newsletter-heading" className="text-3xl font-bold tracking-tight">{t('newsletter.heading')}</h2>
          <p className="mt-3 text-muted">{t('newsletter.lead')}</p>
          <div className="mt-8">
            <NewsletterForm campaign={loaderData.campaign} action={`/${locale}/campaign/${loaderData.campaign}`} result={actionData} />
          </div>
        </div>
      </section>
    </>
  );
}
