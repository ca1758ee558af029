import { describe, expect, it } from 'vitest';
import { eventCalendar, foldLine, icsText, icsTime } from './ics.ts';

describe('the calendar file of an event', () => {
  const event = {
    uid: 'news1-user1@tillpoint',
    start: new Date('2026-12-05T02:00:00Z'),
    end: new Date('2026-12-05T04:30:00Z'),
    summary: 'POS workshop; menus, payments',
    description: 'Bring your laptop.\nParking: B2',
    location: 'Kwun Tong, Hong Kong',
    url: 'https://example.test/join',
    stamp: new Date('2026-11-29T01:02:03.456Z'),
  };

  it('writes times in UTC without separators or milliseconds', () => {
    expect(icsTime(new Date('2026-12-05T02:00:00.999Z'))).toBe('20261205T020000Z');
  });

  it('escapes text as RFC 5545 says', () => {
    expect(icsText('a\\b;c,d\ne')).toBe('a\\\\b\\;c\\,d\\ne');
  });

  it('writes one event with CRLF line ends and every property', () => {
    const text = eventCalendar(event);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
    const lines = text.split('\r\n');
    expect(lines.slice(0, 6)).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      '-//Tillpoint//News events//EN'.replace(/^/, 'PRODID:'),
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'BEGIN:VEVENT',
    ]);
    expect(lines).toContain('UID:news1-user1@tillpoint');
    expect(lines).toContain('DTSTAMP:20261129T010203Z');
    expect(lines).toContain('DTSTART:20261205T020000Z');
    expect(lines).toContain('DTEND:20261205T043000Z');
    expect(lines).toContain('SUMMARY:POS workshop\\; menus\\, payments');
    expect(lines).toContain('DESCRIPTION:Bring your laptop.\\nParking: B2');
    expect(lines).toContain('LOCATION:Kwun Tong\\, Hong Kong');
    expect(lines.at(-3)).toBe('END:VEVENT');
    expect(lines.at(-2)).toBe('END:VCALENDAR');
  });

  it('lasts an hour when the end is missing or not after the start', () => {
    expect(eventCalendar({ ...event, end: null })).toContain('DTEND:20261205T030000Z');
    expect(eventCalendar({ ...event, end: event.start })).toContain('DTEND:20261205T030000Z');
  });

  it('folds long lines at 75 octets without splitting a character', () => {
    const long = `SUMMARY:${'工作坊'.repeat(20)}`;
    const folded = foldLine(long);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(1);
    for (const [index, part] of parts.entries()) {
      expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(75);
      if (index > 0) expect(part.startsWith(' ')).toBe(true);
    }
    expect(parts.map((part, index) => (index > 0 ? part.slice(1) : part)).join('')).toBe(long);
    expect(foldLine('SHORT:line')).toBe('SHORT:line');
  });
});
