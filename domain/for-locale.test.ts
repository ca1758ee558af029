import { describe, expect, it } from 'vitest';
import { forLocale, localized } from './locales.ts';

describe('forLocale', () => {
  const plan = {
    _id: 'p1',
    name: { en: 'Flexi', 'zh-hk': '靈活版', 'zh-cn': '灵活版' },
    description: { en: 'For growing shops' },
    monthPrice: 212500,
    tags: ['a', 'b'],
    createdAt: new Date('2026-01-01T00:00:00Z'),
    modules: [
      {
        id: { _id: 'kds', name: { en: 'Kitchen display', 'zh-hk': '廚房顯示系統', 'zh-cn': '厨房显示系统' } },
        count: 2,
      },
    ],
    messages: { home: { title: 'Home' } },
  };

  it('keeps only the language asked for, with English where it is missing', () => {
    const hk = forLocale(plan, 'zh-hk');
    expect(hk.name).toEqual({ 'zh-hk': '靈活版' });
    expect(hk.description).toEqual({ 'zh-hk': 'For growing shops' });
    expect(localized(hk.modules[0]!.id.name, 'zh-hk')).toBe('廚房顯示系統');
    expect(localized(forLocale(plan, 'en').name, 'en')).toBe('Flexi');
  });

  it('leaves everything else as it was', () => {
    const cn = forLocale(plan, 'zh-cn');
    expect(cn.monthPrice).toBe(212500);
    expect(cn.tags).toEqual(['a', 'b']);
    expect(cn.createdAt).toBe(plan.createdAt);
    expect(cn.modules[0]!.count).toBe(2);
    // Message catalogues are not translatable texts: their keys are not languages.
    expect(cn.messages).toEqual({ home: { title: 'Home' } });
    expect(forLocale(null, 'en')).toBeNull();
  });

  it('does not mistake an object with only some language keys and other data for a text', () => {
    const mixed = { en: 'x', count: 3 };
    expect(forLocale(mixed, 'zh-hk')).toEqual(mixed);
  });
});
