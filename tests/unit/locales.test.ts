import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeholdersOf } from '../../domain/message-format.ts';
import en from '../../locales/en.json';
import zhCn from '../../locales/zh-cn.json';
import zhHk from '../../locales/zh-hk.json';

type Tree = { [key: string]: string | Tree };
const catalogues: Record<string, Tree> = { en, 'zh-hk': zhHk, 'zh-cn': zhCn };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(name, value);
    else for (const [inner, text] of flatten(value, name)) out.set(inner, text);
  }
  return out;
}
const flat = Object.fromEntries(Object.entries(catalogues).map(([locale, tree]) => [locale, flatten(tree)]));
/** The names a message fills in, plurals' included, each once (domain/message-format.ts). */
const placeholders = (text: string) => [...new Set(placeholdersOf(text).map((p) => p.name))].sort();

/** Every source file that may use a message key. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name.startsWith('+') ? [] : sources(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}
const code = ['app', 'server', 'domain']
  .flatMap((dir) => sources(dir))
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');
/** Keys written out whole in quotes, and prefixes of keys built at run time (`campaign.${name}`). */
const literalKeys = new Set([...code.matchAll(/['"`]([a-zA-Z][\w-]*(?:\.[\w-]+)+)['"`]/g)].map((m) => m[1] ?? ''));
const dynamicPrefixes = [...code.matchAll(/`([a-zA-Z][\w-]*(?:\.[\w-]+)*\.[\w-]*)\$\{/g)].map((m) => m[1] ?? '');
/** Top-level groups used as a whole: the error page imports its group from each file. */
const wholeGroups = [...code.matchAll(/import \{ (\w+)(?: as \w+)? \} from '[./]*locales\/en\.json'/g)].map(
  (m) => `${m[1]}.`,
);

describe('locale files', () => {
  it('have the same keys in en, zh-hk and zh-cn', () => {
    const keys = [...flat.en!.keys()].sort();
    expect([...flat['zh-hk']!.keys()].sort()).toEqual(keys);
    expect([...flat['zh-cn']!.keys()].sort()).toEqual(keys);
  });

  it('have no empty message and the same placeholders in every language', () => {
    for (const [key, text] of flat.en!) {
      for (const locale of ['en', 'zh-hk', 'zh-cn']) {
        const own = flat[locale]!.get(key) ?? '';
        expect(own.trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(own), `${locale} ${key}`).toEqual(placeholders(text));
      }
    }
  });

  it('are translated: Chinese messages are not left in English', () => {
    // Brand and product names may stay as they are (payment schemes such as Visa or PayNow, the
    // phones' systems iOS and Android); everything else has Chinese in it.
    const properNames = (key: string) =>
      key.startsWith('pay.method.') || key.startsWith('resources.appDevices.values.platform.');
    for (const locale of ['zh-hk', 'zh-cn']) {
      const english = [...flat[locale]!].filter(
        ([key, text]) =>
          !properNames(key) &&
          !/[\u3400-\u9fff]/.test(text.replace(/\{\w+\}/g, '')) &&
          /[a-z]{3}/i.test(text.replace(/\{\w+\}/g, '')),
      );
      expect(
        english.map(([key]) => key),
        locale,
      ).toEqual([]);
    }
  });

  it('write Traditional Chinese in zh-hk and Simplified in zh-cn', () => {
    // Common characters that exist in only one of the two scripts.
    const simplifiedOnly = /[们这说为时会个来对发后经过还没进开关动业务员页语设户钱单产现标击览载码录换统销约择选]/;
    const traditionalOnly = /[們這說為時會個來對發後經過還沒進開關動業務員頁語設戶錢單產現標擊覽載碼錄換統銷約擇選]/;
    const wrongInHk = [...flat['zh-hk']!]
      .filter(([, text]) => simplifiedOnly.test(text))
      .map(([key, text]) => `${key}: ${text}`);
    const wrongInCn = [...flat['zh-cn']!]
      .filter(([, text]) => traditionalOnly.test(text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(wrongInHk).toEqual([]);
    expect(wrongInCn).toEqual([]);
  });

  it('have no unused key', () => {
    const unused = [...flat.en!.keys()].filter(
      (key) =>
        !literalKeys.has(key) &&
        !dynamicPrefixes.some((prefix) => key.startsWith(prefix)) &&
        !wholeGroups.some((group) => key.startsWith(group)),
    );
    expect(unused).toEqual([]);
  });

  it('have every key the code asks for', () => {
    const groups = new Set([...flat.en!.keys()].map((key) => key.split('.')[0]));
    // A quoted dotted word whose first part is a message group is a message key.
    const asked = [...literalKeys].filter((key) => groups.has(key.split('.')[0]!) && !key.endsWith('.'));
    const missing = asked.filter(
      (key) => !flat.en!.has(key) && ![...flat.en!.keys()].some((known) => known.startsWith(`${key}.`)),
    );
    expect(missing).toEqual([]);
  });
});
