import { describe, expect, it } from 'vitest';
import { inLocale, siteLinks, unprefixed } from './shell';
import { readFlash } from './feedback.server';

describe('paths across languages', () => {
  it('strips the language prefix', () => {
    expect(unprefixed('/zh-hk/pricing')).toBe('/pricing');
    expect(unprefixed('/en')).toBe('');
    expect(unprefixed('/en/')).toBe('/');
    expect(unprefixed('/zh-cn/blogs/pos-tips')).toBe('/blogs/pos-tips');
    expect(unprefixed('/pricing')).toBe('/pricing');
    expect(unprefixed('/')).toBe('');
  });

  it('finds the same page in another language', () => {
    expect(inLocale('/en/usecase/restaurant', 'zh-hk')).toBe('/zh-hk/usecase/restaurant');
    expect(inLocale('/zh-cn', 'en')).toBe('/en');
  });

  it('builds the product routes from the brand slug', () => {
    const links = siteLinks('zh-hk', 'tillpoint');
    expect(links.payments).toBe('/zh-hk/tillpointPay');
    expect(links.restaurant).toBe('/zh-hk/tillpointRestaurant');
    expect(links.store).toBe('/zh-hk/tillpointStore');
    expect(links.enquiry).toBe('/zh-hk/enquiryForm');
  });
});

describe('flash messages', () => {
  it('reads a well-formed flash and ignores anything else', () => {
    const cookie = (value: unknown) => `a=1; flash=${encodeURIComponent(JSON.stringify(value))}`;
    expect(readFlash(cookie({ type: 'success', key: 'feedback.signedOut' }))).toEqual({
      type: 'success',
      key: 'feedback.signedOut',
    });
    expect(readFlash(cookie({ type: 'info', key: 'feedback.signedOut' }))).toBeNull();
    expect(readFlash(cookie({ type: 'error', key: '<script>' }))).toBeNull();
    expect(readFlash('flash=%7Bbroken')).toBeNull();
    expect(readFlash(null)).toBeNull();
  });
});
