import { describe, expect, it } from 'vitest';
import { issueMessage } from './issues.ts';
import {
  colourSchema,
  coordinatePair,
  dayRangeSchema,
  mapPointSchema,
  openStreetMapLink,
  typedColour,
} from './widget-values.ts';
import { isDay } from '../validation/day.ts';

/** The message key of each problem, by its path, as the service and the editor answer them. */
function problems(
  schema: { safeParse(value: unknown): { success: boolean; error?: { issues: Parameters<typeof issueMessage>[0][] } } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  const found: Record<string, string> = {};
  // The first problem of each path, as the service keeps it.
  for (const issue of result.error?.issues ?? [])
    found[issue.path.join('.') || '_'] ??= issueMessage(issue, value, (message) => message.startsWith('validation.'));
  return found;
}

const hongKong = { latitude: 22.28, longitude: 114.16, latitudeDelta: 0.3, longitudeDelta: 0.3 };

describe('a colour', () => {
  it('is # and six hexadecimal digits, kept lower-case', () => {
    expect(colourSchema.parse('#14625C')).toBe('#14625c');
    expect(colourSchema.parse(' #25978a ')).toBe('#25978a');
    for (const wrong of ['14625c', '#14625', '#14625cc', '#14625g', 'red', 'rgb(0,0,0)', ''])
      expect(problems(colourSchema, wrong), wrong).toEqual({ _: 'validation.colour' });
    expect(problems(colourSchema, undefined)).toEqual({ _: 'validation.required' });
    expect(problems(colourSchema, 42)).toEqual({ _: 'validation.colour' });
  });

  it('as typed gets its # and six lower-case digits where that is plainly meant', () => {
    expect(typedColour('1A6B4F')).toBe('#1a6b4f');
    expect(typedColour(' #1a6b4f ')).toBe('#1a6b4f');
    expect(typedColour('#1a6')).toBe('#11aa66');
    expect(typedColour('F0A')).toBe('#ff00aa');
    // Anything else stays as typed, for the schema to refuse with its message.
    expect(typedColour('#12345')).toBe('#12345');
    expect(typedColour('teal')).toBe('teal');
  });
});

describe('a map point', () => {
  it('takes a latitude of -90 to 90, a longitude of -180 to 180 and spans above 0', () => {
    expect(mapPointSchema.parse(hongKong)).toEqual(hongKong);
    expect(
      mapPointSchema.parse({ latitude: -90, longitude: 180, latitudeDelta: 180, longitudeDelta: 360 }),
    ).toBeTruthy();
    expect(problems(mapPointSchema, { ...hongKong, latitude: 90.01, longitude: -180.5 })).toEqual({
      latitude: 'validation.latitude',
      longitude: 'validation.longitude',
    });
    expect(problems(mapPointSchema, { ...hongKong, latitudeDelta: 0, longitudeDelta: -1 })).toEqual({
      latitudeDelta: 'validation.latitudeSpan',
      longitudeDelta: 'validation.longitudeSpan',
    });
    expect(problems(mapPointSchema, { ...hongKong, latitudeDelta: 181, longitudeDelta: 361 })).toEqual({
      latitudeDelta: 'validation.latitudeSpan',
      longitudeDelta: 'validation.longitudeSpan',
    });
  });

  it('names each part that is missing or not a number, and refuses parts it does not know', () => {
    expect(problems(mapPointSchema, { latitude: 22.28, longitude: '114.16a', latitudeDelta: Number.NaN })).toEqual({
      longitude: 'validation.longitude',
      latitudeDelta: 'validation.latitudeSpan',
      longitudeDelta: 'validation.required',
    });
    expect(problems(mapPointSchema, { ...hongKong, zoom: 3 })).toEqual({ _: 'validation.unknownField' });
    expect(problems(mapPointSchema, { ...hongKong, latitude: Number.POSITIVE_INFINITY })).toEqual({
      latitude: 'validation.latitude',
    });
  });

  it('reads a point pasted as one text, as maps copy it', () => {
    expect(coordinatePair('22.28, 114.16')).toEqual({ latitude: 22.28, longitude: 114.16 });
    expect(coordinatePair(' (22.2800,114.1600) ')).toEqual({ latitude: 22.28, longitude: 114.16 });
    expect(coordinatePair('49.2827 -123.1207')).toEqual({ latitude: 49.2827, longitude: -123.1207 });
    expect(coordinatePair('49.28; -123.12')).toEqual({ latitude: 49.28, longitude: -123.12 });
    expect(coordinatePair('22.28° N, 114.16° E')).toEqual({ latitude: 22.28, longitude: 114.16 });
    expect(coordinatePair('33.86° S, 151.21° E')).toEqual({ latitude: -33.86, longitude: 151.21 });
    expect(coordinatePair('49.28 N 123.12 W')).toEqual({ latitude: 49.28, longitude: -123.12 });
    // Out of range is still a pair: the schema says what is wrong with it.
    expect(coordinatePair('95, 200')).toEqual({ latitude: 95, longitude: 200 });
    for (const notPair of ['22.28', '22.28, 114.16, 3', 'Hong Kong', '22.28 E, 114.16 N', '', '22.28,', '1e3, 4'])
      expect(coordinatePair(notPair), notPair).toBeNull();
  });

  it('links to the point on OpenStreetMap at a zoom that shows about its span', () => {
    expect(openStreetMapLink(hongKong)).toBe(
      'https://www.openstreetmap.org/?mlat=22.28&mlon=114.16#map=10/22.28/114.16',
    );
    expect(openStreetMapLink({ latitude: 56.1304, longitude: -106.3468, longitudeDelta: 60 })).toBe(
      'https://www.openstreetmap.org/?mlat=56.1304&mlon=-106.3468#map=3/56.1304/-106.3468',
    );
    expect(openStreetMapLink({ latitude: 22.123456789, longitude: 114.1, longitudeDelta: 0.0001 })).toBe(
      'https://www.openstreetmap.org/?mlat=22.12346&mlon=114.1#map=19/22.12346/114.1',
    );
  });
});

describe('a range of days', () => {
  it('takes two calendar days, the last not before the first', () => {
    expect(dayRangeSchema.parse({ from: '2026-12-01', to: '2027-01-31' })).toEqual({
      from: '2026-12-01',
      to: '2027-01-31',
    });
    expect(dayRangeSchema.parse({ from: '2026-12-01', to: '2026-12-01' })).toBeTruthy();
    expect(problems(dayRangeSchema, { from: '2026-12-02', to: '2026-12-01' })).toEqual({
      to: 'validation.dayRangeOrder',
    });
    expect(problems(dayRangeSchema, { from: '2026-12-01' })).toEqual({ to: 'validation.required' });
    expect(problems(dayRangeSchema, { from: '2026-02-29', to: '01/03/2026' })).toEqual({
      from: 'validation.day',
      to: 'validation.day',
    });
    expect(problems(dayRangeSchema, { from: '2026-12-01', to: '2026-12-31', note: 'x' })).toEqual({
      _: 'validation.unknownField',
    });
  });

  it('knows the calendar: leap days, month lengths, the format', () => {
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('2027-02-29')).toBe(false);
    expect(isDay('2026-04-31')).toBe(false);
    expect(isDay('2026-13-01')).toBe(false);
    expect(isDay('2026-1-01')).toBe(false);
    expect(isDay('2026-01-01T00:00:00Z')).toBe(false);
  });
});
