import { describe, expect, it } from 'vitest';
import type { SiteSettings } from '../../domain/site';
import { decimalPrice, jsonLdText, organization, productWithOffers, type PlanTemplate } from './structured-data';

const site: SiteSettings = {
  brandName: 'Tillpoint',
  brandSlug: 'tillpoint',
  gtmId: undefined,
  chatUrl: 'https://wa.me/85230012345',
  supportEmail: 'support@tillpoint.example',
  supportPhone: '+852 3001 2345',
  publicUrl: undefined,
};

describe('organization', () => {
  it('names the brand, its site, logo, social profiles and support contact', () => {
    const org = organization(site, 'https://tillpoint.example');
    expect(org).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Organization',
      name: 'Tillpoint',
      url: 'https://tillpoint.example/',
      logo: 'https://tillpoint.example/logo.png',
      contactPoint: [
        {
          '@type': 'ContactPoint',
          telephone: '+852 3001 2345',
          email: 'support@tillpoint.example',
          contactType: 'customer support',
        },
      ],
    });
    expect(org.sameAs).toContain('https://www.facebook.com/tillpoint');
    expect(org.sameAs).toHaveLength(4);
  });
});

describe('decimalPrice', () => {
  it('writes minor units as a decimal string without floating-point rounding', () => {
    expect(decimalPrice({ amount: 212500, currency: 'HKD' })).toBe('2125.00');
    expect(decimalPrice({ amount: 68801, currency: 'SGD' })).toBe('688.01');
    expect(decimalPrice({ amount: 5, currency: 'HKD' })).toBe('0.05');
    expect(decimalPrice({ amount: 0, currency: 'USD' })).toBe('0.00');
    expect(decimalPrice({ amount: 123456700, currency: 'JPY' })).toBe('1234567');
    expect(decimalPrice({ amount: -150, currency: 'HKD' })).toBe('-1.50');
  });
});

describe('productWithOffers', () => {
  const templates: PlanTemplate[] = [
    { name: { en: 'Restaurant Lite', 'zh-hk': '餐廳 Lite' }, type: 'lite', monthPrice: 68800, currency: 'HKD' },
    {
      name: { en: 'Restaurant Flexi' },
      description: { en: 'Everything' },
      type: 'flexi',
      monthPrice: 212500,
      currency: 'HKD',
    },
    { name: { en: 'Restaurant Flexi+' }, type: 'enterprise', monthPrice: 0, currency: 'HKD' },
  ];
  const product = { name: 'Tillpoint Restaurant', url: 'https://tillpoint.example/zh-hk/tillpointRestaurant' };

  it('offers each priced plan monthly, in the page language, and leaves out price-on-request plans', () => {
    const result = productWithOffers(templates, 'zh-hk', product);
    expect(result).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Tillpoint Restaurant',
      url: product.url,
    });
    const offers = result.offers as Record<string, unknown>[];
    expect(offers).toHaveLength(2);
    expect(offers[0]).toEqual({
      '@type': 'Offer',
      name: '餐廳 Lite',
      url: product.url,
      price: '688.00',
      priceCurrency: 'HKD',
      availability: 'https://schema.org/InStock',
      priceSpecification: {
        '@type': 'UnitPriceSpecification',
        price: '688.00',
        priceCurrency: 'HKD',
        unitCode: 'MON',
        referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'MON' },
      },
    });
    // English where the language has no text of its own.
    expect(offers[1]).toMatchObject({ name: 'Restaurant Flexi', description: 'Everything', price: '2125.00' });
  });
});

describe('jsonLdText', () => {
  it('cannot close its script element, whatever the text holds', () => {
    const text = jsonLdText({ '@type': 'Thing', name: '</script><script>alert(1)</script> & more' });
    expect(text).not.toMatch(/[<>&]/);
    expect(JSON.parse(text)).toEqual({ '@type': 'Thing', name: '</script><script>alert(1)</script> & more' });
  });
});
