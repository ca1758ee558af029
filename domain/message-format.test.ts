import { describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import zhCn from '../locales/zh-cn.json' with { type: 'json' };
import zhHk from '../locales/zh-hk.json' with { type: 'json' };
import { formatMessage, placeholdersOf } from './message-format.ts';

type Tree = { [key: string]: string | Tree };
const catalogues: Record<string, Tree> = { en, 'zh-hk': zhHk, 'zh-cn': zhCn };

function* messagesOf(tree: Tree, prefix = ''): Generator<[string, string]> {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') yield [path, value];
    else yield* messagesOf(value, path);
  }
}

function messageAt(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

const DEVICES = '{count, plural, =0 {No devices} one {# device} other {# devices}}';

describe('formatMessage', () => {
  it('fills placeholders and leaves the ones not given as written', () => {
    expect(formatMessage('Order {number} for {name}', { number: 'TP-1' }, 'en')).toBe('Order TP-1 for {name}');
    expect(formatMessage('No values {here}', undefined, 'en')).toBe('No values {here}');
  });

  it('takes the English forms by the language’s rules, an exact form first', () => {
    expect(formatMessage(DEVICES, { count: 1 }, 'en')).toBe('1 device');
    expect(formatMessage(DEVICES, { count: 2 }, 'en')).toBe('2 devices');
    expect(formatMessage(DEVICES, { count: 0 }, 'en')).toBe('No devices');
    expect(formatMessage(DEVICES, { count: 1.5 }, 'en')).toBe('1.5 devices');
    expect(formatMessage(DEVICES, { count: 12000 }, 'en')).toBe('12,000 devices');
  });

  it('reads a number given as text, and takes the general form for a number already written out', () => {
    expect(formatMessage(DEVICES, { count: '1' }, 'en')).toBe('1 device');
    expect(formatMessage(DEVICES, { count: '1,000' }, 'en')).toBe('1,000 devices');
    expect(formatMessage(DEVICES, {}, 'en')).toBe(DEVICES);
  });

  it('has one form in Chinese, whatever the number', () => {
    const text = '{count, plural, other {# 部裝置}}';
    expect(formatMessage(text, { count: 1 }, 'zh-hk')).toBe('1 部裝置');
    expect(formatMessage(text, { count: 2 }, 'zh-cn')).toBe('2 部裝置');
  });

  it('fills the placeholders inside the chosen form', () => {
    const text = 'After your {months, plural, one {prepaid month} other {# prepaid months}}, {price} a month.';
    expect(formatMessage(text, { months: 1, price: 'HK$99' }, 'en')).toBe('After your prepaid month, HK$99 a month.');
    expect(formatMessage(text, { months: 3, price: 'HK$99' }, 'en')).toBe(
      'After your 3 prepaid months, HK$99 a month.',
    );
  });
});

describe('the messages', () => {
  it('are all well formed: every brace a placeholder or a plural with its general form', () => {
    const bad: string[] = [];
    for (const [locale, tree] of Object.entries(catalogues)) {
      for (const [key, text] of messagesOf(tree)) {
        const opened = [...text].filter((c) => c === '{').length;
        const closed = [...text].filter((c) => c === '}').length;
        if (opened !== closed) bad.push(`${locale} ${key}: unbalanced braces`);
        if (/\{\s*\w+\s*,\s*plural/.test(text) && !placeholdersOf(text).some((p) => p.plural))
          bad.push(`${locale} ${key}: a plural that does not read`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('say a count in words with the plural forms, never “(s)” or a bare number before a plural noun', () => {
    const countable =
      /\{\w+\}[ -](?:prepaid |working )?(?:devices|months|days|years|records|files|stores|add-ons|invoices|rows|services|minutes|megapixels|characters|items|places|users|posts)\b/;
    const bad = [...messagesOf(en)].filter(([, text]) => text.includes('(s)') || countable.test(text));
    expect(bad).toEqual([]);
  });

  it('have, in every language, the forms its plural rules need, and the count of the English one', () => {
    const missing: string[] = [];
    for (const [key, text] of messagesOf(en)) {
      const plurals = placeholdersOf(text).filter((p) => p.plural);
      for (const plural of plurals) {
        for (const [locale, tree] of Object.entries(catalogues)) {
          const own = messageAt(tree, key);
          if (own === undefined) continue;
          const mine = placeholdersOf(own).filter((p) => p.name === plural.name);
          if (mine.length === 0) missing.push(`${locale} ${key}: no {${plural.name}}`);
          const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
          for (const p of mine.filter((m) => m.plural)) {
            for (const category of categories) {
              if (!p.plural?.forms.has(category)) missing.push(`${locale} ${key}: no “${category}” form`);
            }
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('read the counter module’s slider at one device in the singular (the pricing page’s words)', () => {
    const text = messageAt(en, 'pricing.devices') ?? '';
    expect(formatMessage(text, { count: 1 }, 'en')).toBe('1 device');
    expect(formatMessage(text, { count: 4 }, 'en')).toBe('4 devices');
    expect(formatMessage(messageAt(en, 'uploader.refusedType') ?? '', { count: 1, names: 'a.exe' }, 'en')).toBe(
      '1 file was left out, as this uploader does not take their type: a.exe',
    );
  });
});
