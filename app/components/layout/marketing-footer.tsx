import { Link } from 'react-router';
import { useLocale } from '../../i18n/messages';
import { siteLinks, useShell, useSite } from '../../shell';
import { LanguageSelector } from './language-selector';
import { Logo } from './logo';
import { SocialLinks } from './social-links';

/** The footer's pages, where the header's menu leads when scripts are off (marketing-header.tsx). */
export const SITE_MAP_ID = 'site-map';

export function MarketingFooter() {
  const { t, locale } = useLocale();
  const { user } = useShell();
  const { site } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  const groups = [
    {
      title: t('footer.product'),
      items: [
        { to: links.restaurant, label: t('footer.restaurantPos') },
        { to: links.store, label: t('footer.storePos') },
        { to: links.payments, label: t('nav.payments') },
        { to: links.features, label: t('nav.features') },
        { to: links.useCases, label: t('nav.useCases') },
      ],
    },
    {
      title: t('footer.service'),
      items: [
        { to: links.pricing, label: t('nav.pricing') },
        { to: links.featureList, label: t('footer.featureList') },
        { to: links.results, label: t('footer.results') },
        { to: links.enquiry, label: t('footer.enquiry') },
        { to: links.blog, label: t('nav.blog') },
      ],
    },
    {
      title: t('footer.client'),
      items: [
        user ? { to: links.portal, label: t('nav.dashboard') } : { to: links.login, label: t('nav.login') },
        { to: links.pricing, label: t('footer.buildPlan') },
        { to: links.terms, label: t('footer.terms') },
        // A whole page load: the API reference's renderer starts from the page's own script (decision 058).
        { to: links.developers, label: t('footer.developers'), reloadDocument: true },
      ],
    },
  ];
  const year = new Date().getFullYear();
  return (
    // Below the sticky header when the menu's link (scripts off) scrolls to it.
    <footer id={SITE_MAP_ID} className="scroll-mt-[86px] bg-brand-950 text-brand-50" data-testid="site-footer">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-5 wide:max-w-[1800px]">
        <div className="lg:col-span-2">
          <Logo className="text-white" />
          <p className="mt-4 max-w-sm text-sm leading-6 text-brand-100">{t('footer.tagline')}</p>
          <SocialLinks className="mt-6 -ml-2" />
        </div>
        {groups.map((group) => (
          <nav key={group.title} aria-label={group.title}>
            <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{group.title}</h2>
            <ul className="mt-4 space-y-2.5 text-sm">
              {group.items.map((item) => (
                <li key={item.label}>
                  <Link
                    to={item.to}
                    className="footer-link"
                    reloadDocument={'reloadDocument' in item ? item.reloadDocument : undefined}
                  >
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 pb-24 text-sm text-brand-100 sm:px-6 md:flex-row md:items-center md:justify-between md:pr-24 md:pb-6 wide:max-w-[1800px]">
          <p>{t('footer.copyright', { year })}</p>
          <div className="flex flex-wrap items-center gap-4">
            <Link to={links.terms} className="hover:text-white hover:underline">
              {t('footer.terms')}
            </Link>
            <LanguageSelector className="text-brand-50" />
          </div>
        </div>
      </div>
    </footer>
  );
}
