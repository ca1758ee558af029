import { describe, expect, it } from 'vitest';
import { localeForTag, localeFromAcceptLanguage, resolveLocale } from './locale-detect.ts';

describe('localeForTag', () => {
  it.each([
    ['zh-TW', 'zh-hk'],
    ['zh-HK', 'zh-hk'],
    ['zh-MO', 'zh-hk'],
    ['zh-Hant', 'zh-hk'],
    ['zh-Hant-TW', 'zh-hk'],
    ['zh-Hant-HK', 'zh-hk'],
    ['zh', 'zh-cn'],
    ['zh-CN', 'zh-cn'],
    ['zh-SG', 'zh-cn'],
    ['zh-Hans', 'zh-cn'],
    ['zh-Hans-CN', 'zh-cn'],
    ['en', 'en'],
    ['en-US', 'en'],
    ['en-GB', 'en'],
    // The product's own codes, in any case.
    ['zh-hk', 'zh-hk'],
    ['zh-cn', 'zh-cn'],
    ['ZH-tw', 'zh-hk'],
  ])('maps %s to %s', (tag, locale) => {
    expect(localeForTag(tag)).toBe(locale);
  });

  it.each(['fr', 'fr-FR', 'ja', 'de-CH', '*', '', '   '])('has no locale for %j', (tag) => {
    expect(localeForTag(tag)).toBeNull();
  });

  it('ignores surrounding spaces', () => {
    expect(localeForTag('  zh-TW ')).toBe('zh-hk');
  });
});

describe('localeFromAcceptLanguage', () => {
  it('answers null for a missing or empty header', () => {
    expect(localeFromAcceptLanguage(undefined)).toBeNull();
    expect(localeFromAcceptLanguage(null)).toBeNull();
    expect(localeFromAcceptLanguage('')).toBeNull();
  });

  it.each([
    ['zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7', 'zh-hk'],
    ['zh-HK', 'zh-hk'],
    ['zh-Hant-HK,zh-Hant;q=0.9', 'zh-hk'],
    ['zh-CN,zh;q=0.9', 'zh-cn'],
    ['zh-SG', 'zh-cn'],
    ['zh-Hans', 'zh-cn'],
    ['zh', 'zh-cn'],
    ['en-US,en;q=0.9', 'en'],
  ])('reads %j as %s', (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });

  it('takes the highest quality first, whatever the order', () => {
    expect(localeFromAcceptLanguage('en;q=0.5, zh-TW;q=0.9')).toBe('zh-hk');
    expect(localeFromAcceptLanguage('zh-TW;q=0.4, zh-CN;q=0.6, en;q=0.5')).toBe('zh-cn');
  });

  it('keeps the header order between equal qualities (no q means 1)', () => {
    expect(localeFromAcceptLanguage('zh-CN, zh-TW')).toBe('zh-cn');
    expect(localeFromAcceptLanguage('zh-TW;q=1, zh-CN')).toBe('zh-hk');
    expect(localeFromAcceptLanguage('en;q=0.8, zh-HK;q=0.8')).toBe('en');
  });

  it('skips languages the site does not have', () => {
    expect(localeFromAcceptLanguage('fr-FR, de;q=0.9, zh-Hant;q=0.8, en;q=0.5')).toBe('zh-hk');
    expect(localeFromAcceptLanguage('ja, ko;q=0.9')).toBeNull();
  });

  it('never picks a language refused with q=0', () => {
    expect(localeFromAcceptLanguage('zh-TW;q=0, en;q=0.1')).toBe('en');
    expect(localeFromAcceptLanguage('zh-CN;q=0')).toBeNull();
  });

  it('tolerates spaces around tags and parameters', () => {
    expect(localeFromAcceptLanguage(' fr ;q=0.9 ,  zh-TW ; q=0.8 ')).toBe('zh-hk');
  });
});

describe('resolveLocale', () => {
  it('prefers the explicit locale, then the cookie, then Accept-Language, then English', () => {
    expect(resolveLocale({ explicit: 'zh-cn', cookie: 'zh-hk', acceptLanguage: 'en' })).toBe('zh-cn');
    expect(resolveLocale({ cookie: 'zh-hk', acceptLanguage: 'zh-CN' })).toBe('zh-hk');
    expect(resolveLocale({ acceptLanguage: 'zh-CN' })).toBe('zh-cn');
    expect(resolveLocale({})).toBe('en');
    expect(resolveLocale({ acceptLanguage: 'fr' })).toBe('en');
  });

  it('ignores values that are not product locales', () => {
    expect(resolveLocale({ explicit: 'fr', cookie: 'zh-TW', acceptLanguage: 'zh-TW' })).toBe('zh-hk');
    expect(resolveLocale({ explicit: ['zh-cn'], cookie: 42 })).toBe('en');
  });
});
