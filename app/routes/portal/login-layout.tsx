import { Outlet } from 'react-router';
import { FormColumn } from '../../components/layout/form-column';
import { Logo } from '../../components/layout/logo';
import { useLocale } from '../../i18n/messages';
import { useSite } from '../../shell';

/** The login layout: split screen, the brand on a gradient panel beside the form. */
export default function LoginLayout() {
  const { t } = useLocale();
  const { site } = useSite();
  const points = [t('loginLayout.point1'), t('loginLayout.point2'), t('loginLayout.point3')];
  return (
    <div className="grid min-h-screen lg:grid-cols-2">
      <aside
        className="relative hidden overflow-hidden bg-gradient-to-br from-brand-950 via-brand-800 to-brand-600 p-12 text-white lg:flex lg:flex-col"
        data-testid="brand-panel"
      >
        <Logo className="text-white" />
        <div className="my-auto max-w-md">
          <p className="text-4xl leading-tight font-bold">{t('loginLayout.headline', { brand: site.brandName })}</p>
          <ul className="mt-8 space-y-3 text-lg text-brand-50">
            {points.map((point) => (
              <li key={point} className="flex gap-3">
                <span aria-hidden="true" className="mt-2.5 h-2 w-2 shrink-0 rounded-full bg-accent-400" />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -right-24 -bottom-24 h-96 w-96 rounded-full bg-accent-400/20 blur-3xl"
        />
      </aside>
      <FormColumn>
        <Outlet />
      </FormColumn>
    </div>
  );
}
