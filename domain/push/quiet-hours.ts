import { DEFAULT_TIME_ZONE } from '../format.ts';

/*
 * Quiet hours (issue 33): a scheduled push message never arrives between 22:00 and 08:00 on the
 * device's own clock, unless staff mark it urgent. A message due in those hours waits for the next
 * 08:00 in the device's time zone. Computed with the platform's time zone data (Intl), so daylight
 * saving time (Canada, the UK) is followed without a table of our own.
 */

/** The local hours in which nothing scheduled is delivered: from 22:00 until 08:00. */
export const QUIET_HOURS = { from: 22, until: 8 } as const;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** A formatter of wall-clock time in a time zone, or none when the zone is unknown to the platform. */
function clockIn(timeZone: string): Intl.DateTimeFormat | undefined {
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      return undefined;
    }
    formats.set(timeZone, format);
  }
  return format;
}

/** A time zone the platform knows: the device's own, else Hong Kong's (the product's home). */
export function knownTimeZone(timeZone: string | null | undefined): string {
  return timeZone && clockIn(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
}

function wallClock(at: Date, timeZone: string): WallClock {
  const parts = Object.fromEntries(
    (clockIn(timeZone) ?? (clockIn(DEFAULT_TIME_ZONE) as Intl.DateTimeFormat))
      .formatToParts(at)
      .filter((part) => part.type !== 'literal')
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<keyof WallClock, number>;
  return parts;
}

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
function offsetAt(at: Date, timeZone: string): number {
  const clock = wallClock(at, timeZone);
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant a wall-clock time in a zone stands for (the later offset across a change, checked twice). */
function instantOf(clock: Omit<WallClock, 'second' | 'minute'> & { minute?: number }, timeZone: string): Date {
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute ?? 0);
  let instant = asUtc - offsetAt(new Date(asUtc), timeZone);
  instant = asUtc - offsetAt(new Date(instant), timeZone);
  return new Date(instant);
}

/** Whether an instant falls in the quiet hours on a clock in the time zone. */
export function isQuiet(at: Date, timeZone: string): boolean {
  const { hour } = wallClock(at, knownTimeZone(timeZone));
  return hour >= QUIET_HOURS.from || hour < QUIET_HOURS.until;
}

/**
 * When a message due at `due` may reach a device in `timeZone`: at once when it is urgent or the
 * device's clock is outside the quiet hours, else at the next 08:00 on that clock.
 */
export function deliveryTime(due: Date, timeZone: string | null | undefined, urgent = false): Date {
  const zone = knownTimeZone(timeZone);
  if (urgent || !isQuiet(due, zone)) return due;
  const clock = wallClock(due, zone);
  // After 22:00 the next 08:00 is tomorrow's; before 08:00 it is today's.
  const day = new Date(Date.UTC(clock.year, clock.month - 1, clock.day + (clock.hour >= QUIET_HOURS.from ? 1 : 0)));
  return instantOf(
    { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: QUIET_HOURS.until },
    zone,
  );
}
