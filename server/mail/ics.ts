/**
 * A calendar file (RFC 5545) of one event, written by hand: a few properties, escaped and folded
 * as the standard says, so every calendar (Apple, Google, Outlook) imports it. Times are in UTC.
 */
export interface CalendarEvent {
  /** Unique and stable for the event and the registrant: importing the file again updates it. */
  uid: string;
  start: Date;
  /** None: one hour after the start. */
  end?: Date | null;
  summary: string;
  description?: string;
  location?: string;
  url?: string;
  /** When the file was written. */
  stamp: Date;
}

/** `20261205T100000Z`. */
export function icsTime(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** A TEXT value: backslashes, semicolons, commas and line breaks escaped (RFC 5545 §3.3.11). */
export function icsText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * A content line folded at 75 octets (RFC 5545 §3.1): each further line starts with a space.
 * A character's UTF-8 bytes are never split.
 */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const character of line) {
    const size = encoder.encode(character).length;
    // The first line holds 75 octets; the others 74 after their leading space.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += character;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** The calendar file of one event, with CRLF line ends. */
export function eventCalendar(event: CalendarEvent, productId = '-//Tillpoint//News events//EN'): string {
  const end = event.end && event.end > event.start ? event.end : new Date(event.start.getTime() + 60 * 60 * 1000);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${productId}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${icsTime(event.stamp)}`,
    `DTSTART:${icsTime(event.start)}`,
    `DTEND:${icsTime(end)}`,
    `SUMMARY:${icsText(event.summary)}`,
    ...(event.description ? [`DESCRIPTION:${icsText(event.description)}`] : []),
    ...(event.location ? [`LOCATION:${icsText(event.location)}`] : []),
    ...(event.url ? [`URL:${event.url}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
