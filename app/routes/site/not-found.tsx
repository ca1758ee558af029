import { data } from 'react-router';
import { useLocale } from '../../i18n/messages';
import { ErrorContent } from '../../components/layout/error-content';
import { pageMeta } from '../../meta';
import type { Route } from './+types/not-found';

/** Any path of a language that is not a page: a 404 inside the site's layout. */
export function loader() {
  return data({ notFound: true }, { status: 404 });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'errorPage.notFound', index: false });
}

export default function NotFound() {
  const { locale } = useLocale();
  return (
    <div className="px-4">
      <ErrorContent
        error={{ status: 404, statusText: 'Not Found', internal: false, data: null }}
        homeHref={`/${locale}`}
        locale={locale}
        title={false}
      />
    </div>
  );
}
