import { z } from '../zod.ts';
import { isDay } from '../validation/day.ts';

/*
 * Values that the back office's colour, map-point and date-range widgets write (decision 046): one
 * schema each, which the service validates with and the editor checks before it sends, and the
 * helpers that read what staff type or paste into the form.
 */

/** A schema's message: `validation.required` when nothing was given, else the field's own key. */
const needs = (key: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? 'validation.required' : key;

export const COLOUR = /^#[0-9a-f]{6}$/i;

/** A colour as the apps draw it: `#` and six hexadecimal digits, kept lower-case. */
export const colourSchema = z
  .string({ error: needs('validation.colour') })
  .trim()
  .regex(COLOUR, { error: 'validation.colour' })
  .transform((value) => value.toLowerCase());

/**
 * A colour as typed, made what the schema takes where the intent is plain: `1A6B4F` or `#1a6` gets
 * its `#` and six lower-case digits. Anything else comes back as typed, for the schema to refuse.
 */
export function typedColour(text: string): string {
  const trimmed = text.trim();
  const long = /^#?([0-9a-f]{6})$/i.exec(trimmed);
  if (long) return `#${(long[1] as string).toLowerCase()}`;
  const short = /^#?([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(trimmed);
  if (short)
    return `#${short
      .slice(1)
      .map((digit) => digit.repeat(2))
      .join('')
      .toLowerCase()}`;
  return trimmed;
}

export const MAP_POINT_PARTS = ['latitude', 'longitude', 'latitudeDelta', 'longitudeDelta'] as const;
export type MapPointPart = (typeof MAP_POINT_PARTS)[number];

/** A number within bounds, every problem under one message key (required when absent). */
function degrees(key: string, min: number, max: number, above = false) {
  const number = z.number({ error: needs(key) });
  return (above ? number.gt(min, { error: key }) : number.min(min, { error: key })).max(max, { error: key });
}

/**
 * Where an app's map opens (react-native-maps' region): the centre, and how many degrees of
 * latitude and longitude it shows around it.
 */
export const mapPointSchema = z
  .object({
    latitude: degrees('validation.latitude', -90, 90),
    longitude: degrees('validation.longitude', -180, 180),
    latitudeDelta: degrees('validation.latitudeSpan', 0, 180, true),
    longitudeDelta: degrees('validation.longitudeSpan', 0, 360, true),
  })
  .strict();
export type MapPoint = z.output<typeof mapPointSchema>;

const COORDINATE = String.raw`([+-]?\d{1,3}(?:\.\d+)?)\s*°?\s*([NSEW])?`;
const PAIR = new RegExp(String.raw`^\s*\(?\s*${COORDINATE}\s*(?:[,;/]\s*|\s+)${COORDINATE}\s*\)?\s*$`, 'i');

/**
 * A latitude and longitude pasted as one text, as maps copy them: `22.28, 114.16`,
 * `(22.28 114.16)`, `22.28° N, 114.16° E` (south and west are negative). Null when the text is not
 * two numbers; whether they are in range is the schema's to say.
 */
export function coordinatePair(text: string): { latitude: number; longitude: number } | null {
  const match = PAIR.exec(text);
  if (!match) return null;
  const [, latitude, latitudeSide, longitude, longitudeSide] = match as unknown as [
    string,
    string,
    string | undefined,
    string,
    string | undefined,
  ];
  const sideOf = (side: string | undefined) => side?.toUpperCase();
  const north = sideOf(latitudeSide);
  const east = sideOf(longitudeSide);
  // A hemisphere letter must suit its place: N or S first, E or W second.
  if ((north && !'NS'.includes(north)) || (east && !'EW'.includes(east))) return null;
  return {
    latitude: Number(latitude) * (north === 'S' ? -1 : 1),
    longitude: Number(longitude) * (east === 'W' ? -1 : 1),
  };
}

/**
 * The point on OpenStreetMap's own site, at a zoom that shows about the span given. A link, not
 * a map in the page: the back office loads no tiles from elsewhere (its CSP forbids them).
 */
export function openStreetMapLink(point: { latitude: number; longitude: number; longitudeDelta?: number }): string {
  const span = point.longitudeDelta;
  const zoom = span && span > 0 ? Math.min(19, Math.max(1, Math.round(Math.log2(360 / span)))) : 12;
  const latitude = Number(point.latitude.toFixed(5));
  const longitude = Number(point.longitude.toFixed(5));
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=${zoom}/${latitude}/${longitude}`;
}

export const DAY_RANGE_PARTS = ['from', 'to'] as const;
export type DayRangePart = (typeof DAY_RANGE_PARTS)[number];

/** Whether the text is a day of the calendar written YYYY-MM-DD (`2027-02-29` is not). */
const daySchema = z.string({ error: needs('validation.day') }).refine(isDay, { error: 'validation.day' });

/**
 * A span of whole days in Hong Kong (UTC+8), both ends included, written YYYY-MM-DD: a day means
 * the same to every reader, wherever their clock is. The last day is never before the first (asked
 * only of two real days: a wrong day has its own message).
 */
export const dayRangeSchema = z
  .object({ from: daySchema, to: daySchema })
  .strict()
  .refine((range) => !isDay(range.from) || !isDay(range.to) || range.to >= range.from, {
    error: 'validation.dayRangeOrder',
    path: ['to'],
  });
export type DayRange = z.output<typeof dayRangeSchema>;
