import en from '../../locales/en.json' with { type: 'json' };
import zhCn from '../../locales/zh-cn.json' with { type: 'json' };
import zhHk from '../../locales/zh-hk.json' with { type: 'json' };
import { isLocale, type Locale } from '../../domain/locales.ts';
import { messageTable, type Messages, type MessagesRef } from '../../domain/message-table.ts';

export { MESSAGES_PATH } from '../../domain/message-table.ts';

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
