import { createHash } from 'node:crypto';
import { isLocale, LOCALES, type Locale } from './locales.ts';

/*
 * The messages' table and the names of their files (decision 042). Both the pages' server
 * (app/i18n/messages.server.ts, which names the files) and the server's own process
 * (server/message-assets.ts, which serves them) build a table from the same locale files, so any
 * instance answers for any file a page names: the name is a function of the content. Only server
 * code loads this module (it hashes with `node:crypto`); the pages' browser code takes its types
 * only, and fetches the files.
 */

/** A language's messages: a tree of keys, each leaf a message. */
export type Messages = { [key: string]: string | Messages };

/** What a loader answers in place of messages: the address of their file. */
export interface MessagesRef {
  href: string;
}

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
