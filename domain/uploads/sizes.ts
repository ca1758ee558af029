/** Units of a size, smallest first. */
const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** The point above which a size moves to the next unit (spec: sizes switch units above 512). */
export const UNIT_SWITCH = 512;

/**
 * A size in bytes in human units: the number stays at most 512 in its unit (513 bytes are
 * `0.5 KB`, 512 KB stay `512 KB`), with one decimal below 10 and none above. Units are the same
 * in every language (B, KB, MB, GB).
 */
export function formatBytes(bytes: number, locale = 'en'): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value > UNIT_SWITCH && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(
    value,
  );
  return `${number} ${UNITS[unit]}`;
}
