import { useCallback, useMemo } from 'react';
import { data, Link, redirect, redirectDocument, useNavigate, useNavigation } from 'react-router';
import { registrationFromForm } from '../../../domain/forms/registration-fields';
import { flowRequestSchema } from '../../../domain/orders/flow-request';
import { isPurchasePath } from '../../../domain/public-pages';
import { safeReturnPath, sessionCookie } from '../../auth.server';
import { readForm } from '../../components/forms/read-form';
import { refusalOf } from '../../components/forms/refusal';
import { type RegistrationRefusal, RegistrationForm } from '../../components/forms/registration-form';
import { VerifyStep } from '../../components/purchase/verify-step';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { emailVerified, flowAction, localeOf, refusedBody } from '../purchase/flow.server';
import type { Route } from './+types/register';

export const messageGroups = ['register', 'subscription', 'registration', 'verification', 'forms'] as const;

/** Where a registered visitor goes: `from` when it is a path of this site, else the portal. */
function targetOf(request: Request, lang: string) {
  return safeReturnPath(new URL(request.url).searchParams.get('from'), lang, request.url);
}

/** A purchase page loads as a document of its own (its policy allows the card fields' frame). */
function goTo(request: Request, target: string, init?: ResponseInit) {
  return (isPurchasePath(new URL(target, request.url).pathname) ? redirectDocument : redirect)(target, init);
}

/**
 * `/{locale}/register`: the registration form; once registered (and signed in), the emailed code
 * in place (`?step=verify`). A signed-in visitor is sent on (to `from` or the portal), unless they
 * are on the code's step with an address still to verify.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const query = new URL(request.url).searchParams;
  const verifying = Boolean(ctx.user) && query.get('step') === 'verify';
  const target = targetOf(request, params.lang);
  if (ctx.user && !(verifying && !(await emailVerified(ctx)))) throw goTo(request, target);
  return {
    from: query.get('from') ?? '',
    /** Where the member goes once verified (a safe path). */
    target,
    email: verifying ? (ctx.user?.email ?? null) : null,
    messages: pageMessages(params.lang, messageGroups),
  };
}

/** What a plain form POST is answered with when it is refused. */
interface Answer {
  registration?: RegistrationRefusal;
  /** Too many accounts from the caller's address: minutes until another may be made. */
  retryMinutes?: number;
  /** The code's refusal, in the page's language. */
  code?: string;
  /** A new code was mailed (asked for without JavaScript). */
  resent?: boolean;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const locale = localeOf(params.lang);
  // The code's step with JavaScript: the purchase flow's calls `verify` and `resend` (VerifyStep).
  if (request.headers.get('content-type')?.startsWith('application/json')) {
    const body = await readForm(request, flowRequestSchema);
    const intent = body.ok ? body.values.intent : null;
    if (intent !== 'verify' && intent !== 'resend') return refusedBody(null, {}, locale);
    return flowAction(ctx, params.lang, body);
  }
  const form = await request.formData();
  const callParams = { provider: 'ssr', ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': locale } };
  const target = targetOf(request, params.lang);

  // The code's step without JavaScript: a new code, the server keeping the minute between two.
  if (form.get('intent') === 'resend') {
    if (!ctx.user) throw redirect(`/${locale}/login`);
    try {
      await ctx.api.service('emailVerifications').create({ resend: true }, { ...callParams, user: ctx.user });
      return data<Answer>({ resent: true });
    } catch (caught) {
      const { status, message } = refusalOf(caught);
      return data<Answer>({ code: message }, { status });
    }
  }
  if (form.get('intent') === 'verify') {
    if (!ctx.user) throw redirect(`/${locale}/login`);
    const code = String(form.get('code') ?? '').replace(/\D/g, '');
    try {
      await ctx.api.service('emailVerifications').create({ code }, { ...callParams, user: ctx.user });
      return goTo(request, target);
    } catch (caught) {
      const { status, message } = refusalOf(caught);
      return data<Answer>({ code: message }, { status });
    }
  }

  const answers = registrationFromForm(form);
  const values = { ...answers, password: undefined, passwordConfirm: undefined };
  try {
    await ctx.api.service('registrations').create({ ...answers, locale }, callParams);
    // Registering does not sign in (decision 020): the page signs in with the password just chosen.
    const result = await ctx.api
      .service('authentication')
      .create({ strategy: 'local', email: answers.email ?? '', password: answers.password ?? '' }, callParams);
    const from = new URL(request.url).searchParams.get('from');
    const next = `/${locale}/register?step=verify${from ? `&from=${encodeURIComponent(from)}` : ''}`;
    return redirect(next, { headers: { 'Set-Cookie': sessionCookie(result.accessToken, ctx.secureCookies) } });
  } catch (caught) {
    const { status, message, errors, data: extra } = refusalOf(caught);
    const retryAfter = Number(extra.retryAfter);
    const registration: RegistrationRefusal =
      status === 409
        ? { message, errors: { email: message }, exists: answers.email ?? '', values }
        : { message, errors, values };
    // Too many accounts from this address: the page says when to try again.
    const retryMinutes = status === 429 && retryAfter > 0 ? Math.ceil(retryAfter / 60) : undefined;
    return data<Answer>({ registration, retryMinutes }, { status });
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'register.title', description: 'register.description', index: false });
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const navigate = useNavigate();
  const busy = useNavigation().state === 'submitting';
  const answer = actionData as Answer | undefined;
  const { from, target, email } = loaderData;
  const withFrom = from ? `?from=${encodeURIComponent(from)}` : '';
  const refusal = useMemo(
    () =>
      answer?.registration && answer.retryMinutes
        ? { ...answer.registration, message: t('register.tryAgainIn', { count: answer.retryMinutes }) }
        : answer?.registration,
    [answer, t],
  );
  const onContinue = useCallback(() => void navigate(target), [navigate, target]);
  const link = 'font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300';

  if (email !== null) {
    return (
      <div data-testid="register-verify">
        <h1 className="text-3xl font-bold tracking-tight">{t('register.verifyHeading')}</h1>
        <VerifyStep
          email={email}
          verified={false}
          onContinue={onContinue}
          refused={answer?.code}
          resent={answer?.resent}
        />
      </div>
    );
  }

  return (
    <div data-testid="register-page">
      <h1 className="text-3xl font-bold tracking-tight">{t('register.heading')}</h1>
      <p className="mt-2 mb-8 text-muted">{t('register.lead')}</p>
      <RegistrationForm
        wide={false}
        refusal={refusal}
        signInInstead={() => (
          <Link
            to={`/${locale}/login${withFrom}`}
            className="mt-1 inline-block underline"
            data-testid="register-sign-in"
          >
            {t('subscription.account.signInInstead')}
          </Link>
        )}
        actions={
          <button
            type="submit"
            disabled={busy}
            className="w-full rounded-full bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
            data-testid="register-submit"
          >
            {t('register.submit')}
          </button>
        }
      />
      <p className="mt-8 border-t border-line pt-6 text-muted">
        {t('register.haveAccount')}{' '}
        <Link to={`/${locale}/login${withFrom}`} className={link} data-testid="register-login">
          {t('register.logIn')}
        </Link>
      </p>
    </div>
  );
}
