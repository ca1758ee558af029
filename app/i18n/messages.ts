import { useMatches, useRouteLoaderData } from 'react-router';
import { DEFAULT_LOCALE, type Locale } from '../../domain/locales';
import { reportMissing } from './missing';

export type Messages = { [key: string]: string | Messages };
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
    const all = { ...options.defaults, ...values };
    return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in all ? String(all[name]) : match));
  };
}

/** What the locale layout's loader hands every page: its language and that language's messages only. */
export interface LocaleData {
  locale: Locale;
  messages: Messages;
  /** In development: the keys this language lacks (English shows in their place). */
  fallbacks?: string[];
}

interface RootData {
  site?: { brandName?: string };
}

/** The groups of messages every matched route brought: the shell's and the page's own. */
export function mergeMessages(datas: readonly unknown[]): Messages {
  const merged: Messages = {};
  for (const data of datas) {
    const messages = (data as { messages?: unknown } | null | undefined)?.messages;
    if (messages && typeof messages === 'object') Object.assign(merged, messages as Messages);
  }
  return merged;
}

export function useLocale(): LocaleData & { t: Translate } {
  const data = useRouteLoaderData('routes/locale-layout') as LocaleData | undefined;
  const root = useRouteLoaderData('root') as RootData | undefined;
  const matches = useMatches();
  const locale = data?.locale ?? DEFAULT_LOCALE;
  const messages = mergeMessages(matches.map((match) => match.loaderData));
  const t = translator(messages, { locale, defaults: { brand: root?.site?.brandName ?? '' }, fallbacks: data?.fallbacks });
  return { locale, messages, t };
}
