import { formatNumber } from '../../../domain/format';
import type { Locale } from '../../../domain/locales';

/** Maps a value of `domain` onto `range` in a straight line (pixels of a chart). */
export function linearScale(
  [d0, d1]: readonly [number, number],
  [r0, r1]: readonly [number, number],
): (value: number) => number {
  const span = d1 - d0;
  return (value) => (span === 0 ? r0 : r0 + ((value - d0) / span) * (r1 - r0));
}

/** The smallest extent in whole `step`s that holds every value and zero, so bars start at zero. */
export function extentWithZero(values: readonly number[], step = 10): [number, number] {
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const low = Math.floor(min / step) * step;
  const high = Math.ceil(max / step) * step;
  return low === high ? [0, step] : [low === 0 ? 0 : low, high];
}

/** `+20%`, `−10%` (a true minus sign), `0%`, with the locale's digits and grouping. */
export function signedPercent(value: number, locale: Locale): string {
  const sign = value > 0 ? '+' : value < 0 ? '\u2212' : '';
  return `${sign}${formatNumber(Math.abs(value), locale)}%`;
}
