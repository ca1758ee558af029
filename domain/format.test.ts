import { describe, expect, it } from 'vitest';
import { clipText, formatDate, formatDay, formatIsoDate, formatMoney, formatNumber } from './format.ts';
import { CURRENCIES, type CurrencyCode } from './money.ts';
import { LOCALES } from './locales.ts';

const INTL_LOCALE = { en: 'en-HK', 'zh-hk': 'zh-HK', 'zh-cn': 'zh-CN' } as const;

/** Amounts across the digits that matter: zero, cents, every grouping boundary, halves, negatives. */
const AMOUNTS = [
  0, 1, 5, 49, 50, 99, 100, 101, 150, 999, 1_000, 9_999, 10_000, 12_345, 68_800, 99_950, 99_999, 100_000, 123_456,
  212_500, 999_999, 1_000_000, 1_234_567, 99_999_999, 100_000_000, 123_456_789_012, -1, -150, -212_500, -1_234_567,
];

describe('formatMoney', () => {
  it('shows whole Hong Kong dollars without decimals', () => {
    expect(formatMoney({ currency: 'HKD', amount: 212_500 }, 'en')).toBe('HK$2,125');
    expect(formatMoney({ currency: 'HKD', amount: 68_800 }, 'en')).toBe('HK$688');
    expect(formatMoney({ currency: 'HKD', amount: 0 }, 'en')).toBe('HK$0');
  });

  it('shows both decimals when there are cents', () => {
    expect(formatMoney({ currency: 'HKD', amount: 12_345 }, 'en')).toBe('HK$123.45');
    expect(formatMoney({ currency: 'HKD', amount: 12_340 }, 'en')).toBe('HK$123.40');
    expect(formatMoney({ currency: 'HKD', amount: 1_234_567 }, 'en')).toBe('HK$12,345.67');
  });

  it('formats the same way on the Chinese pages', () => {
    for (const locale of ['zh-hk', 'zh-cn'] as const) {
      expect(formatMoney({ currency: 'HKD', amount: 212_500 }, locale)).toBe('HK$2,125');
      expect(formatMoney({ currency: 'HKD', amount: 1_234_567 }, locale)).toBe('HK$12,345.67');
      expect(formatMoney({ currency: 'SGD', amount: 9_990 }, locale)).toBe('S$99.90');
    }
  });

  it("uses each currency's own symbol", () => {
    expect(formatMoney({ currency: 'SGD', amount: 9_990 }, 'en')).toBe('S$99.90');
    expect(formatMoney({ currency: 'MYR', amount: 128_800 }, 'en')).toBe('RM1,288');
    expect(formatMoney({ currency: 'MYR', amount: 128_850 }, 'zh-cn')).toBe('RM1,288.50');
    expect(formatMoney({ currency: 'USD', amount: 1_999 }, 'en')).toBe('US$19.99');
  });

  it('never shows decimals for yen (amounts are still stored x100)', () => {
    expect(formatMoney({ currency: 'JPY', amount: 150_000 }, 'en')).toBe('¥1,500');
    expect(formatMoney({ currency: 'JPY', amount: 123_456 }, 'zh-hk')).toBe('¥1,235');
    expect(formatMoney({ currency: 'JPY', amount: 150_000 }, 'zh-cn')).not.toContain('.');
  });
});

describe('formatMoney against Intl', () => {
  it('writes every amount, currency and language exactly as Intl.NumberFormat would', () => {
    for (const locale of LOCALES) {
      for (const code of Object.keys(CURRENCIES) as CurrencyCode[]) {
        const { symbol, decimals } = CURRENCIES[code];
        for (const amount of AMOUNTS) {
          const value = amount / 100;
          const intl = new Intl.NumberFormat(INTL_LOCALE[locale], {
            minimumFractionDigits: Number.isInteger(value) ? 0 : decimals,
            maximumFractionDigits: decimals,
            roundingMode: 'halfExpand',
            // A negative amount that rounds to zero shows as zero, not -0.
            signDisplay: 'negative',
          }).format(value);
          expect(formatMoney({ currency: code, amount }, locale), `${amount} ${code} ${locale}`).toBe(
            `${symbol}${intl}`,
          );
        }
      }
    }
  });

  it('writes whole counts as Intl.NumberFormat would, and leaves fractions to it', () => {
    for (const locale of LOCALES) {
      for (const value of [...AMOUNTS, 2.5, 0.125, -3.75, 1100.5]) {
        expect(formatNumber(value, locale), `${value} ${locale}`).toBe(
          new Intl.NumberFormat(INTL_LOCALE[locale]).format(value),
        );
      }
    }
  });
});

describe('dates and numbers', () => {
  // 16:30 UTC on 21 November is already 22 November in Hong Kong.
  const lateEvening = new Date('2026-11-21T16:30:00Z');

  it('shows dates in Hong Kong time, in each language', () => {
    expect(formatDate(lateEvening, 'en')).toBe('22 November 2026');
    expect(formatDate(lateEvening, 'zh-hk')).toBe('2026年11月22日');
    expect(formatDate(lateEvening, 'zh-cn')).toBe('2026年11月22日');
    expect(formatDate(lateEvening, 'en', 'UTC')).toBe('21 November 2026');
  });

  it('writes a Hong Kong calendar day out as that day', () => {
    expect(formatDay('2026-02-28', 'en')).toBe('28 February 2026');
    expect(formatDay('2026-02-28', 'zh-hk')).toBe('2026年2月28日');
  });

  it('writes the short form as YYYY-MM-DD', () => {
    expect(formatIsoDate(lateEvening)).toBe('2026-11-22');
    expect(formatIsoDate('2026-01-05T00:00:00+08:00')).toBe('2026-01-05');
    // From the parts, whatever a locale's short form is in the engine (the day after, in Hong Kong).
    expect(formatIsoDate('1990-05-16T16:00:00Z')).toBe('1990-05-17');
    expect(formatIsoDate('0999-03-01T12:00:00Z', 'UTC')).toBe('0999-03-01');
  });

  it('groups thousands', () => {
    expect(formatNumber(1100, 'en')).toBe('1,100');
    expect(formatNumber(1234567, 'zh-hk')).toBe('1,234,567');
  });
});

describe('clipText', () => {
  it('keeps a short text whole, and cuts a long one at whole characters with an ellipsis', () => {
    expect(clipText('  Short  ', 10)).toBe('Short');
    expect(clipText('Ten chars!', 10)).toBe('Ten chars!');
    expect(clipText('Eleven char', 10)).toBe('Eleven ch…');
    expect(clipText('Two words and more', 10)).toBe('Two words…');
    // Characters outside the basic plane count once, and are never split.
    expect(clipText('😀😀😀😀', 3)).toBe('😀😀…');
  });
});
