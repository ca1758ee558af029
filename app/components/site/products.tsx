import { Link } from 'react-router';
import { useLocale } from '../../i18n/messages';
import { siteLinks, useSite } from '../../shell';

const PRODUCTS = [
  { key: 'restaurant', link: 'restaurant', accent: 'bg-brand-600' },
  { key: 'store', link: 'store', accent: 'bg-accent-500' },
  { key: 'pay', link: 'payments', accent: 'bg-brand-800' },
] as const;

/** Restaurant POS, store POS and payments, each linking to its page. */
export function Products() {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  return (
    <ul className="grid gap-6 md:grid-cols-3" data-testid="products">
      {PRODUCTS.map((product) => (
        <li key={product.key} className="flex flex-col rounded-2xl border border-line bg-raised p-6 shadow-sm">
          <span aria-hidden="true" className={`h-1.5 w-12 rounded-full ${product.accent}`} />
          <h3 className="mt-5 text-2xl font-semibold">{t(`home.products.${product.key}.title`)}</h3>
          <p className="mt-3 flex-1 text-muted">{t(`home.products.${product.key}.text`)}</p>
          <Link to={links[product.link]} className="mt-6 text-action">
            {t('home.products.more')}
            <span className="sr-only">: {t(`home.products.${product.key}.title`)}</span> →
          </Link>
        </li>
      ))}
    </ul>
  );
}
