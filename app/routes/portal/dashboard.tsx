import { useRouteLoaderData } from 'react-router';
import { useLocale } from '../../i18n/messages';
import { pageMeta } from '../../meta';
import type { Route } from './+types/dashboard';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'portal.title', index: false });
}

export default function Dashboard() {
  const { t } = useLocale();
  const data = useRouteLoaderData('routes/portal/layout') as { user: { name: string } };
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">{t('portal.heading')}</h1>
      <p className="mt-4 text-lg" data-testid="welcome">
        {t('portal.welcome', { name: data.user.name })}
      </p>
    </div>
  );
}
