import type { appTemplates } from '../../domain/entities/app-templates';
import type { RecordOf } from '../../domain/entities/types';
import { localized, type Locale } from '../../domain/locales';
import { CURRENCIES, CURRENCY_MULTIPLIER, isCurrency, type Money } from '../../domain/money';
import type { SiteSettings } from '../../domain/site';
import { socialAccounts } from '../components/layout/social-links';

/** A schema.org object, as JSON-LD. */
export type JsonLdObject = { '@context'?: 'https://schema.org'; '@type': string } & { [key: string]: unknown };

/** The brand's logo for search engines: a PNG, which every crawler reads (SVG is not accepted by all). */
export const LOGO_PATH = '/logo.png';

/** The company, for the home page: name, site, logo, social profiles and support contact. */
export function organization(site: SiteSettings, origin: string): JsonLdObject {
  const contact = { telephone: site.supportPhone, email: site.supportEmail };
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: site.brandName,
    url: `${origin}/`,
    logo: `${origin}${LOGO_PATH}`,
    sameAs: socialAccounts(site.brandSlug).map((account) => account.href),
    contactPoint: [
      {
        '@type': 'ContactPoint',
        contactType: 'customer support',
        ...Object.fromEntries(Object.entries(contact).filter(([, value]) => value)),
        areaServed: ['HK', 'SG'],
        availableLanguage: ['en', 'zh-Hant', 'zh-Hans'],
      },
    ],
  };
}

/**
 * An amount of minor units as the decimal string schema.org wants (`212500` HKD → `"2125.00"`),
 * with integers only: no float ever rounds a price.
 */
export function decimalPrice({ amount, currency }: Money): string {
  const whole = Math.trunc(Math.abs(amount) / CURRENCY_MULTIPLIER);
  const cents = Math.abs(amount) % CURRENCY_MULTIPLIER;
  const sign = amount < 0 ? '-' : '';
  // Currencies shown without decimals (JPY, VND) still store x100; their cents are always 0.
  return CURRENCIES[currency].decimals === 0 ? `${sign}${whole}` : `${sign}${whole}.${String(cents).padStart(2, '0')}`;
}

/** What a product offer says of a plan template (an offer without a description says none). */
export type PlanTemplate = Pick<RecordOf<typeof appTemplates>, 'name' | 'type' | 'monthPrice' | 'currency'> &
  Partial<Pick<RecordOf<typeof appTemplates>, 'description'>>;

/** What a product page says of itself. */
export interface ProductInfo {
  name: string;
  description?: string;
  /** The page's canonical URL. */
  url: string;
  image?: string;
}

/**
 * A schema.org Product with one Offer per priced plan, billed monthly. Enterprise plans (price on
 * request) and plans without a known currency have no price to offer, so they are left out.
 */
export function productWithOffers(
  templates: readonly PlanTemplate[],
  locale: Locale,
  product: ProductInfo,
): JsonLdObject {
  const offers = templates.flatMap((template) => {
    if (template.type === 'enterprise' || !isCurrency(template.currency)) return [];
    const price = decimalPrice({ amount: template.monthPrice, currency: template.currency });
    return [
      {
        '@type': 'Offer',
        name: localized(template.name, locale),
        ...(template.description ? { description: localized(template.description, locale) } : {}),
        url: product.url,
        price,
        priceCurrency: template.currency,
        availability: 'https://schema.org/InStock',
        priceSpecification: {
          '@type': 'UnitPriceSpecification',
          price,
          priceCurrency: template.currency,
          unitCode: 'MON',
          referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'MON' },
        },
      },
    ];
  });
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    ...(product.description ? { description: product.description } : {}),
    url: product.url,
    ...(product.image ? { image: product.image } : {}),
    offers,
  };
}

/**
 * JSON for inside a `<script>`: `<`, `>` and `&` escaped, so no text in the data (a blog title with
 * `</script>`) can end the element early.
 */
export function jsonLdText(data: JsonLdObject | readonly JsonLdObject[]): string {
  return JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
