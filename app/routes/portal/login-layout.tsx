import { Outlet } from 'react-router';
import { LanguageSelector } from '../../components/layout/language-selector';
import { Logo } from '../../components/layout/logo';
import { ThemeToggle } from '../../components/layout/theme';
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
      <div className="flex flex-col">
        <header className="flex h-[86px] items-center justify-between px-4 sm:px-8">
          <Logo className="lg:invisible" />
          <ThemeToggle />
        </header>
        <main id="main" className="flex flex-1 items-center justify-center px-4 py-10 sm:px-8">
          <div className="w-full max-w-md">
            <Outlet />
          </div>
        </main>
        <footer className="flex justify-center px-4 py-6">
          <LanguageSelector />
        </footer>
      </div>
    </div>
  );
}
