import { createHash } from 'node:crypto';
// Extensions and import attributes: the server's own process (server/message-assets.ts) imports
// this module too, without a bundler.
import en from '../../locales/en.json' with { type: 'json' };
import zhCn from '../../locales/zh-cn.json' with { type: 'json' };
import zhHk from '../../locales/zh-hk.json' with { type: 'json' };
import { isLocale, LOCALES, type Locale } from '../../domain/locales.ts';
import type { Messages, MessagesRef } from './messages.ts';

/** Where a language's message files are served: `/i18n/{locale}/{group}.{group}….{hash}.json`. */
export const MESSAGES_PATH = '/i18n/';

/** English underneath a language: what the language lacks shows in English, and is listed. */
function withFallback(base: Messages, own: Messages, prefix: string, fallbacks: string[]): Messages {
  const merged: Messages = {};
  for (const [key, value] of Object.entries(base)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const mine = own[key];
    if (typeof value === 'string') {
      if (typeof mine === 'string' && mine.trim()) merged[key] = mine;
      else {
        merged[key] = value;
        fallbacks.push(path);
      }
    } else {
      merged[key] = withFallback(value, typeof mine === 'object' ? mine : {}, path, fallbacks);
    }
  }
  return merged;
}

/** One file of messages: a language's groups, as JSON, under a name that changes with its content. */
export interface MessageFile {
  href: string;
  locale: Locale;
  groups: readonly string[];
  messages: Messages;
  json: string;
}

/**
 * The messages of each language, laid over English, and their files, each made once at first use.
 * The server's process builds its own table from the same files (server/message-assets.ts), so any
 * instance answers for any file a page names: the name is a function of the content.
 */
export function messageTable(catalogues: Record<Locale, Messages>) {
  const prepared = Object.fromEntries(
    LOCALES.map((locale) => {
      const fallbacks: string[] = [];
      const messages = locale === 'en' ? catalogues.en : withFallback(catalogues.en, catalogues[locale], '', fallbacks);
      return [locale, { messages, fallbacks }];
    }),
  ) as Record<Locale, { messages: Messages; fallbacks: string[] }>;
  const byGroups = new Map<string, MessageFile>();
  const byHref = new Map<string, MessageFile>();

  const plain = (locale: Locale, groups: readonly string[]): Messages => {
    const all = prepared[locale].messages;
    return Object.fromEntries(groups.filter((group) => group in all).map((group) => [group, all[group]!]));
  };

  const file = (locale: Locale, groups: readonly string[]): MessageFile => {
    const known = groups.filter((group) => group in prepared[locale].messages);
    const key = `${locale}/${known.join('.')}`;
    let found = byGroups.get(key);
    if (!found) {
      const messages = plain(locale, known);
      const json = JSON.stringify(messages);
      const hash = createHash('sha256').update(json).digest('base64url').slice(0, 12);
      found = { href: `${MESSAGES_PATH}${key}.${hash}.json`, locale, groups: known, messages, json };
      byGroups.set(key, found);
      byHref.set(found.href, found);
    }
    return found;
  };

  return {
    /** The groups asked for, of one language, as plain messages (for translating on the server). */
    plain,
    file,
    /** The file a page named, made again from its name when this process has not made it yet. */
    lookup(pathname: string): MessageFile | { error: string } {
      const made = byHref.get(pathname);
      if (made) return made;
      const match = /^\/i18n\/([^/]+)\/([A-Za-z0-9.]+)\.([\w-]{12})\.json$/.exec(pathname);
      if (!match) return { error: 'Not a messages file: expected /i18n/{language}/{groups}.{hash}.json' };
      const [, locale, names = '', hash] = match;
      if (!isLocale(locale)) return { error: `Unknown language: ${locale}` };
      const groups = names.split('.');
      const unknown = groups.filter((group) => !(group in prepared[locale].messages));
      if (unknown.length > 0) return { error: `Unknown message group: ${unknown.join(', ')}` };
      const current = file(locale, groups);
      if (current.href !== pathname)
        return { error: `These messages have changed since: ${hash} is not the current version, ${current.href} is` };
      return current;
    },
    fallbacks: (locale: Locale) => prepared[locale].fallbacks,
  };
}

const table = messageTable({ en, 'zh-hk': zhHk, 'zh-cn': zhCn });

/**
 * The messages a page needs, as a reference to their file (decision 042): only the page's own
 * language, with English where it has a gap, and only the groups asked for: the shell's, then each
 * page's own (`messageGroups`). The browser fetches each file once and keeps it; the server renders
 * from this table, and never fetches.
 */
export function messagesFor(locale: Locale, groups: readonly string[]): MessagesRef {
  return { href: table.file(locale, groups).href };
}

/** A page's own message groups, for its loader's answer. */
export function pageMessages(lang: string | undefined, groups: readonly string[]): MessagesRef {
  return messagesFor(isLocale(lang) ? lang : 'en', groups);
}

/** The same groups as plain messages, for a loader that translates on the server. */
export function plainMessages(lang: string | undefined, groups: readonly string[]): Messages {
  return table.plain(isLocale(lang) ? lang : 'en', groups);
}

/** The messages behind a reference this process handed out (the server's render reads them here). */
export function resolveMessagesRef(ref: MessagesRef): Messages | undefined {
  const found = table.lookup(ref.href);
  return 'error' in found ? undefined : found.messages;
}

/** The keys a language takes from English. */
export function fallbacksOf(locale: Locale): string[] {
  return table.fallbacks(locale);
}
