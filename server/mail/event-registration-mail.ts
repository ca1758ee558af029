import type { Definitions } from '../../domain/entities/index.ts';
import type { RecordOf } from '../../domain/entities/types.ts';
import { formatDateTime } from '../../domain/format.ts';
import { EVENT_TIME_ZONES, type EventLocation } from '../../domain/news/constants.ts';
import { type I18nText, type Locale, localized } from '../../domain/locales.ts';
import { translate } from '../i18n.ts';
import { eventCalendar } from './ics.ts';
import type { Mail } from './mailer.ts';

type News = RecordOf<Definitions['news']>;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A message with its placeholders and plurals filled in. */
function message(locale: Locale, key: string, values: Record<string, string> = {}): string {
  return translate(locale, key, values);
}

/** Rich text as plain lines: tags dropped, entities of the sanitiser's output read back. */
function plainOf(html: string): string {
  return html
    .replace(/<\/(p|h[2-4]|li|blockquote)>/g, '\n')
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface EventRegistrationMailInput {
  registration: { _id: string };
  news: News;
  registrant: { email: string; name: string; locale: Locale };
  brand: string;
  /** When the mail is written: the calendar file's stamp. */
  now: Date;
}

/**
 * The confirmation of a place at an event, in the registrant's language, with the event's
 * calendar file (`event.ics`) attached.
 */
export function eventRegistrationMail({
  registration,
  news,
  registrant,
  brand,
  now,
}: EventRegistrationMailInput): Mail {
  const { locale } = registrant;
  const title = localized((news.eventTitle ?? news.title) as I18nText, locale);
  const zone = EVENT_TIME_ZONES[(news.eventLocation ?? 'hk') as EventLocation];
  const start = news.eventStartDate ? new Date(news.eventStartDate) : new Date(news.date);
  const end = news.eventEndDate ? new Date(news.eventEndDate) : null;
  const place = news.eventLocation
    ? translate(locale, `resources.news.values.eventLocation.${news.eventLocation}`)
    : '';
  const where = [news.eventRegion, place].filter(Boolean).join(', ');
  const facts: [string, string][] = [
    [translate(locale, 'events.mail.starts'), formatDateTime(start, locale, zone)],
    ...(end
      ? ([[translate(locale, 'events.mail.ends'), formatDateTime(end, locale, zone)]] as [string, string][])
      : []),
    ...(where ? ([[translate(locale, 'events.mail.where'), where]] as [string, string][]) : []),
    ...(news.eventMapUrl ? ([[translate(locale, 'events.mail.map'), news.eventMapUrl]] as [string, string][]) : []),
    ...(news.eventJoinUrl ? ([[translate(locale, 'events.mail.join'), news.eventJoinUrl]] as [string, string][]) : []),
    ...(news.eventEmail ? ([[translate(locale, 'events.mail.contact'), news.eventEmail]] as [string, string][]) : []),
  ];
  const notes = news.eventNotes ? localized(news.eventNotes as I18nText, locale) : '';
  const subject = message(locale, 'events.mail.subject', { brand, title });
  const greeting = message(locale, 'events.mail.greeting', { name: registrant.name || registrant.email });
  const intro = message(locale, 'events.mail.intro', { title });
  const calendar = translate(locale, 'events.mail.calendar');
  const cancel = translate(locale, 'events.mail.cancel');
  const text = [
    greeting,
    '',
    intro,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    ...(notes ? ['', notes] : []),
    '',
    calendar,
    cancel,
  ].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    '<table cellpadding="4" style="border-collapse:collapse">',
    ...facts.map(
      ([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    ...(notes ? [`<p style="white-space:pre-wrap">${escapeHtml(notes)}</p>`] : []),
    `<p>${escapeHtml(calendar)}</p>`,
    `<p>${escapeHtml(cancel)}</p>`,
  ].join('\n');
  const description = [
    news.eventContent ? plainOf(localized(news.eventContent as I18nText, locale)) : '',
    notes,
    news.eventJoinUrl ?? '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const ics = eventCalendar({
    uid: `${registration._id}@${brand.toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'events'}`,
    start,
    end,
    summary: title,
    ...(description ? { description } : {}),
    ...(where ? { location: where } : {}),
    ...(news.eventJoinUrl ? { url: news.eventJoinUrl } : news.eventMapUrl ? { url: news.eventMapUrl } : {}),
    stamp: now,
  });
  return {
    to: registrant.email,
    subject,
    text,
    html,
    attachments: [{ filename: 'event.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: ics }],
  };
}
