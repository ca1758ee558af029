import type { Locale } from '../../domain/locales';

interface Report {
  key: string;
  url: string;
  locale: Locale;
}

const FLUSH_MS = 3000;
const queue = new Map<string, Report>();
const sent = new Set<string>();
let timer: ReturnType<typeof setTimeout> | undefined;

function flush() {
  timer = undefined;
  const batch = [...queue.values()];
  queue.clear();
  if (batch.length === 0) return;
  fetch('/api/missingTranslate', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(batch),
  }).catch((error: unknown) => console.warn('Could not report missing translations', error));
}

/**
 * In the development build, reports a message key a language lacks to the `missingTranslate`
 * service, batched every 3 s and once per key and language per page load. A production build
 * drops this code.
 */
export function reportMissing(key: string, locale: Locale): void {
  if (!import.meta.env.DEV || typeof window === 'undefined') return;
  const id = `${locale}:${key}`;
  if (sent.has(id)) return;
  sent.add(id);
  queue.set(id, { key, locale, url: window.location.pathname });
  timer ??= setTimeout(flush, FLUSH_MS);
}
