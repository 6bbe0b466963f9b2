import { UserError } from './cli-io.ts';
import { zoneOffset } from '../usage/zone-offset.ts';

/**
 * A `--since` / `--until` day, checked: `YYYYMMDD` or `YYYY-MM-DD`, returned as `YYYY-MM-DD`. A day the
 * calendar lacks (a 13th month, 30 February, which `Date` would roll over into the next month) is a
 * usage error, never a day the user did not mean.
 * @param option the option's name, for the message (`--since`)
 * @param value what was given
 * @returns the day, `YYYY-MM-DD`
 * @throws UserError (exit 2) when it is not a day
 */
export function dayOption(option: string, value: string): string {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
  const day = match === null ? '' : `${match[1]}-${match[2]}-${match[3]}`;
  const t = Date.parse(`${day}T00:00:00Z`);
  if (match === null || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== day)
    throw new UserError(`${option} ${value}: give a day as YYYY-MM-DD or YYYYMMDD`);
  return day;
}

/**
 * The first instant of a day in a zone (epoch ms): where `--since DAY` starts, and `--until DAY` ends at the next
 * day's. Found by bisection over the 30 hours around the day's UTC midnight on `zoneOffset`'s offsets, so a day of 23
 * or 25 hours, or one whose midnight a clock change skips (it starts at 01:00), starts where its first minute is.
 * @param day `YYYY-MM-DD` (`dayOption`)
 * @param timeZone an IANA zone, or undefined for the machine's
 * @returns epoch ms
 */
export function dayStartIn(day: string, timeZone: string | undefined): number {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  const offset = zoneOffset(timeZone);
  // the local day of an instant, as days since 1970-01-01
  const localDay = (t: number): number => Math.floor((t + offset(t)) / DAY);
  const wanted = Math.floor(midnight / DAY);
  let [low, high] = [midnight - 15 * HOUR, midnight + 15 * HOUR];
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (localDay(mid) >= wanted) high = mid;
    else low = mid;
  }
  return high;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
