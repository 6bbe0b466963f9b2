/** Two decimal digits at `i` of `s` as a number, or -1 when either is not a digit. */
function twoDigits(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >>> 0 > 9 || b >>> 0 > 9 ? -1 : a * 10 + b;
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return 30 + ((month + (month >> 3)) & 1);
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (month 1–12), after H. Hinnant's `days_from_civil`. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/**
 * A line's `timestamp` in epoch ms. Claude Code writes `Date.toISOString()` form
 * (`2026-02-09T06:00:27.262Z`), which is read here digit by digit, without `Date.parse` (this runs for
 * every line of a large file); any other string goes through `Date.parse`, and a number within a
 * Date's range is taken as ms.
 *
 * @param value the `timestamp` field
 * @returns epoch ms, or `NaN` when missing or not a date
 */
export function parseTimestamp(value: unknown): number {
  // a Date holds ±8.64e15 ms; beyond, no date can be printed
  if (typeof value === 'number') return Math.abs(value) <= 8.64e15 ? value + 0 : Number.NaN;
  if (typeof value !== 'string') return Number.NaN;
  if (value.length !== 24 || value.charCodeAt(23) !== 90 || value.charCodeAt(10) !== 84) return Date.parse(value);
  const century = twoDigits(value, 0);
  const yy = twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  const hours = twoDigits(value, 11);
  const minutes = twoDigits(value, 14);
  const seconds = twoDigits(value, 17);
  const centiseconds = twoDigits(value, 20);
  const ms = value.charCodeAt(22) - 48;
  const separators =
    value.charCodeAt(4) === 45 &&
    value.charCodeAt(7) === 45 &&
    value.charCodeAt(13) === 58 &&
    value.charCodeAt(16) === 58 &&
    value.charCodeAt(19) === 46;
  if (!separators || (century | yy | day | hours | minutes | seconds | centiseconds) < 0 || ms >>> 0 > 9)
    return Date.parse(value);
  const year = century * 100 + yy;
  // out-of-range fields (month 13, 24:00, February 30) are left to Date.parse to judge
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hours > 23 ||
    minutes > 59 ||
    seconds > 59
  )
    return Date.parse(value);
  const days = daysFromCivil(year, month, day);
  return ((days * 24 + hours) * 60 + minutes) * 60000 + seconds * 1000 + centiseconds * 10 + ms;
}
