import { data, Form, Link, useNavigation } from 'react-router';
import { verificationLinkSchema } from '../../../domain/forms/verification-link';
import { readAsSent } from '../../components/forms/read-form';
import { refusalOf } from '../../components/forms/refusal';
import { useSay } from '../../components/forms/say';
import { primaryButton, secondaryButton } from '../../components/purchase/ui';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { siteLinks, useSite } from '../../shell';
import type { MarketingHandle } from '../site/layout';
import type { Route } from './+types/verify';

export const messageGroups = ['subscription', 'verification'] as const;

export const handle: MarketingHandle = { hideFooter: true };

const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

/**
 * Opening the mailed link verifies nothing by itself: mail scanners open links too, and a link
 * works once. The page asks for one click, which posts the token (decision 021, addendum).
 */
export function loader({ request, params }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  return { token: TOKEN.test(token) ? token : '', messages: pageMessages(params.lang, messageGroups) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const { token } = await readAsSent(request, verificationLinkSchema);
  try {
    // Anonymous on purpose: the link proves the address, and signs no one in (decision 020).
    const answer = await ctx.api
      .service('emailVerifications')
      .create({ token }, { provider: 'ssr', ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': params.lang } });
    return { verified: answer.verified, error: '' };
  } catch (caught) {
    const { status, message } = refusalOf(caught);
    return data({ verified: false, error: message }, { status });
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'subscription.verifyPage.title', index: false });
}

/** `/{locale}/verify?token=…`: the mailed link's page. */
export default function Verify({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const say = useSay();
  const { site } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  const busy = useNavigation().state === 'submitting';
  const flow = `/${locale}/subscription?step=payment`;
  const onwards = (
    <div className="mt-8 flex flex-wrap gap-3">
      <Link to={flow} className={primaryButton} data-testid="verify-to-flow">
        {t('subscription.verifyPage.toFlow')}
      </Link>
      <Link to={links.login} className={secondaryButton} data-testid="verify-to-login">
        {t('subscription.verifyPage.toLogin')}
      </Link>
    </div>
  );
  let body: React.ReactNode;
  if (actionData?.verified) {
    body = (
      <>
        <p className="mt-4 text-lg" role="status" data-testid="verify-page-done">
          {t('subscription.verifyPage.done')}
        </p>
        {onwards}
      </>
    );
  } else if (!loaderData.token) {
    body = (
      <>
        <p className="mt-4 text-lg" role="alert" data-testid="verify-page-error">
          {t('verification.invalidLink')}
        </p>
        {onwards}
      </>
    );
  } else {
    body = (
      <>
        <p className="mt-4 text-lg text-muted">{t('subscription.verifyPage.lead')}</p>
        {actionData?.error ? (
          <p className="mt-4 font-medium text-red-700 dark:text-red-300" role="alert" data-testid="verify-page-error">
            {say(actionData.error)}
          </p>
        ) : null}
        <Form method="post" className="mt-8">
          <input type="hidden" name="token" value={loaderData.token} />
          <button type="submit" disabled={busy} className={primaryButton} data-testid="verify-page-submit">
            {t('subscription.verifyPage.submit')}
          </button>
        </Form>
        {actionData?.error ? onwards : null}
      </>
    );
  }
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6 lg:py-16" data-testid="verify-page">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{t('subscription.verifyPage.heading')}</h1>
      {body}
    </div>
  );
}
