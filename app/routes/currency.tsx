import { serialize } from 'cookie';
import { data, redirect } from 'react-router';
import { applyFeatures, DEFAULT_MARKET } from '../../domain/features';
import { currencyChoiceSchema } from '../../domain/forms/currency-choice';
import { isCurrency } from '../../domain/money';
import { safeReturnPath } from '../auth.server';
import { readAsSent } from '../components/forms/read-form';
import { serverContext } from '../context';
import type { Route } from './+types/currency';

export const CURRENCY_COOKIE = 'currency';

/** The visitor's currency choice (microsite selector): remembered for a year, among those the site offers. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const { currency, redirectTo } = await readAsSent(request, currencyChoiceSchema);
  const market = applyFeatures(DEFAULT_MARKET, await ctx.api.service('features').find({ provider: 'ssr' }));
  if (!isCurrency(currency) || !market.currencies.includes(currency)) {
    return data({ error: 'validation.invalid' }, { status: 400 });
  }
  const cookie = serialize(CURRENCY_COOKIE, currency, {
    path: '/',
    maxAge: 365 * 24 * 60 * 60,
    sameSite: 'lax',
    secure: ctx.secureCookies,
  });
  const back = safeReturnPath(redirectTo, params.lang, request.url);
  return redirect(back, { headers: { 'Set-Cookie': cookie } });
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/${params.lang}`);
}
