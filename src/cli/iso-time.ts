import { isKnownTime } from '../model/time.ts';
import { zoneOffset } from '../usage/zone-offset.ts';

/** What `Date` can hold: ±8.64e15 ms around 1970. */
const MAX = 8.64e15;

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * How every `--json` of the CLI gives a time (issue 15): ISO 8601 with the offset of `--timezone` (else
 * the machine's zone) at that instant, to the millisecond: `2026-02-12T03:31:05.123+05:45` for
 * 2026-02-11T21:46:05.123Z in Asia/Kathmandu. The offset is always `±HH:MM`, `+00:00` for UTC (never
 * `Z`): one shape in every zone. A time no line gave (`UNKNOWN_TIME`, `NaN`, `null`) is `null`. An
 * offset that is not whole minutes (local mean time, before 1900) gives the time in UTC (`+00:00`), so the
 * instant stays exact. Offsets come from `zoneOffset`, as the days of `romp usage` do (the machine's
 * zone's from `Date`: no `Intl` at start-up, as `timeFormat`).
 * @param timeZone an IANA zone (validated by the caller), or undefined for the machine's
 * @returns the printer of an epoch time (ms)
 */
export function isoTime(timeZone?: string): (t: number | null) => string | null {
  const offset = zoneOffset(timeZone);
  return (t) => {
    if (t === null || !isKnownTime(t) || !(Math.abs(t) <= MAX)) return null;
    let ms = offset(t);
    if (ms % 60_000 !== 0 || !(Math.abs(t + ms) <= MAX)) ms = 0;
    const minutes = Math.abs(ms) / 60_000;
    const utc = new Date(t + ms).toISOString(); // the wall clock, written as if it were UTC
    return `${utc.slice(0, -1)}${ms < 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
  };
}

/**
 * A copy of a CLI JSON object with the named time fields (epoch ms) printed by `iso` (`isoTime`); a field
 * it lacks stays absent. The keys are romp's own field names, never transcript data.
 * @param value the object (a turn summary, a listing, a usage row, …)
 * @param keys its time fields
 * @param iso the printer
 * @returns the copy
 */
export function withIsoTimes<T extends object, K extends keyof T>(
  value: T,
  keys: readonly K[],
  iso: (t: number | null) => string | null,
): Omit<T, K> & { [P in K]: string | null } {
  const out: Record<PropertyKey, unknown> = { ...(value as Record<PropertyKey, unknown>) };
  for (const key of keys) if (key in value) out[key] = iso(value[key] as number | null);
  return out as Omit<T, K> & { [P in K]: string | null };
}
