import { use } from 'react';
import { useMatches, useRouteLoaderData } from 'react-router';
import { DEFAULT_LOCALE, type Locale } from '../../domain/locales';
import { formatMessage } from '../../domain/message-format';
import type { Messages, MessagesRef } from '../../domain/message-table';
import { reportMissing } from './missing';

export type Translate = (key: string, values?: Record<string, string | number>) => string;

function lookup(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export interface TranslatorOptions {
  locale?: Locale;
  /** Values every message may use, such as `{brand}`. */
  defaults?: Record<string, string>;
  /** Keys that fell back to English: reported in development, like keys missing altogether. */
  fallbacks?: readonly string[];
}

export function translator(messages: Messages, options: TranslatorOptions = {}): Translate {
  const fallbacks = new Set(options.fallbacks ?? []);
  return (key, values) => {
    const text = lookup(messages, key);
    if (text === undefined || fallbacks.has(key)) reportMissing(key, options.locale ?? DEFAULT_LOCALE);
    if (text === undefined) return key;
    return formatMessage(text, { ...options.defaults, ...values }, options.locale ?? DEFAULT_LOCALE);
  };
}

// A language's messages as loaders send them (decision 042): the address of a file of some of its
// groups, which the browser fetches once and keeps, instead of the messages themselves on every
// page. A loader may still answer plain messages (tests do). The types are shared with the server,
// which serves those files (domain/message-table.ts).
export type { Messages, MessagesRef } from '../../domain/message-table';

export type PageMessages = Messages | MessagesRef;

export function isMessagesRef(value: unknown): value is MessagesRef {
  return typeof value === 'object' && value !== null && typeof (value as { href?: unknown }).href === 'string';
}

/** What the locale layout's loader hands every page: its language and that language's messages only. */
export interface LocaleData {
  locale: Locale;
  messages: PageMessages;
  /** In development: the keys this language lacks (English shows in their place). */
  fallbacks?: string[];
}

interface RootData {
  site?: { brandName?: string };
}

type Resolver = (ref: MessagesRef) => Messages | undefined;

/** The server's table of messages (app/entry.server.tsx sets it): the server renders from memory and fetches nothing. */
let serverMessages: Resolver | undefined;

export function resolveMessagesOnServer(resolver: Resolver): void {
  serverMessages = resolver;
}

/** The browser's files of messages, by address: each fetched once, kept while the page is open. */
const files = new Map<string, { promise: Promise<Messages>; messages?: Messages }>();

/** Fetches a file of messages once; a failed fetch is forgotten, so the next render tries again. */
export function loadMessages(href: string): Promise<Messages> {
  let file = files.get(href);
  if (!file) {
    const entry: { promise: Promise<Messages>; messages?: Messages } = {
      promise: fetch(href, { credentials: 'same-origin' })
        .then((response) => {
          if (!response.ok) throw new Error(`Could not load the messages ${href}: ${response.status}`);
          return response.json() as Promise<Messages>;
        })
        .then(
          (messages) => {
            entry.messages = messages;
            return messages;
          },
          (error: unknown) => {
            files.delete(href);
            throw error;
          },
        ),
    };
    file = entry;
    files.set(href, file);
  }
  return file.promise;
}

/** Loads the files named by loaders' answers (before hydrating, and before a navigation shows its page). */
export function loadMessagesOf(datas: readonly unknown[]): Promise<unknown> {
  return Promise.all(messageHrefs(datas).map(loadMessages));
}

/** The addresses of the files of messages that the matched routes' loaders named. */
export function messageHrefs(datas: readonly unknown[]): string[] {
  return datas
    .map((data) => (data as { messages?: unknown } | null | undefined)?.messages)
    .filter(isMessagesRef)
    .map((ref) => ref.href);
}

/**
 * One loader's messages: plain ones as they are; a reference from the server's table, or in the
 * browser from its files, suspending (React's `use`) while its file loads when `suspend` is on.
 */
function messagesOf(value: unknown, suspend: boolean): Messages | undefined {
  if (!value || typeof value !== 'object') return undefined;
  if (!isMessagesRef(value)) return value as Messages;
  if (typeof document === 'undefined') {
    const messages = serverMessages?.(value);
    if (!messages) throw new Error(`No messages for ${value.href} on the server`);
    return messages;
  }
  const file = files.get(value.href);
  if (file?.messages) return file.messages;
  return suspend ? use(loadMessages(value.href)) : undefined;
}

/**
 * The groups of messages every matched route brought: the shell's and the page's own. Outside a
 * component's render (`suspend` off), a file the browser has yet to load is left out.
 */
export function mergeMessages(datas: readonly unknown[], suspend = false): Messages {
  const merged: Messages = {};
  for (const data of datas) {
    const messages = messagesOf((data as { messages?: unknown } | null | undefined)?.messages, suspend);
    if (messages) Object.assign(merged, messages);
  }
  return merged;
}

export function useLocale(): { locale: Locale; messages: Messages; t: Translate } {
  const data = useRouteLoaderData('routes/locale-layout') as LocaleData | undefined;
  const root = useRouteLoaderData('root') as RootData | undefined;
  const matches = useMatches();
  const locale = data?.locale ?? DEFAULT_LOCALE;
  // In the browser, a file of messages still loading suspends the page (its old page stays on screen).
  const messages = mergeMessages(
    matches.map((match) => match.loaderData),
    true,
  );
  const t = translator(messages, {
    locale,
    defaults: { brand: root?.site?.brandName ?? '' },
    fallbacks: data?.fallbacks,
  });
  return { locale, messages, t };
}
