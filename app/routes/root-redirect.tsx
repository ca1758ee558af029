import { redirect } from 'react-router';
import { resolveLocale } from '../../domain/locale-detect';
import type { Route } from './+types/root-redirect';

function cookieValue(header: string | null, name: string): string | undefined {
  return header
    ?.split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];
}

/** `/` goes to the visitor's language: the language cookie, else the browser's languages, else English. */
export function loader({ request }: Route.LoaderArgs) {
  const locale = resolveLocale({
    cookie: cookieValue(request.headers.get('cookie'), 'i18n_redirected'),
    acceptLanguage: request.headers.get('accept-language'),
  });
  const url = new URL(request.url);
  return redirect(`/${locale}${url.search}`, { headers: { Vary: 'Cookie, Accept-Language' } });
}

export default function RootRedirect() {
  return null;
}
