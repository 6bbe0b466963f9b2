const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22];

/**
 * A line's `timestamp` in epoch ms. Claude Code writes `Date.toISOString()` form
 * (`2026-02-09T06:00:27.262Z`), which is read here without `Date.parse` (the hot path of a large file);
 * any other string goes through `Date.parse`, a number within a Date's range is taken as ms.
 *
 * @param value the `timestamp` field
 * @returns epoch ms, or `NaN` when missing or not a date
 */
export function parseTimestamp(value: unknown): number {
  // a Date holds ±8.64e15 ms; beyond, no date can be printed
  if (typeof value === 'number') return Math.abs(value) <= 8.64e15 ? value + 0 : Number.NaN;
  if (typeof value !== 'string') return Number.NaN;
  if (value.length !== 24 || value.charCodeAt(23) !== 90 || value.charCodeAt(10) !== 84) return Date.parse(value);
  for (const i of DIGITS) if (value.charCodeAt(i) - 48 > 9 || value.charCodeAt(i) < 48) return Date.parse(value);
  const n = (from: number, to: number): number => {
    let x = 0;
    for (let i = from; i < to; i++) x = x * 10 + value.charCodeAt(i) - 48;
    return x;
  };
  const [month, day, hours, minutes, seconds] = [n(5, 7), n(8, 10), n(11, 13), n(14, 16), n(17, 19)];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hours > 23 || minutes > 59 || seconds > 59) return Date.parse(value);
  return Date.UTC(n(0, 4), month - 1, day, hours, minutes, seconds, n(20, 23));
}
