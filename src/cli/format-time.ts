import { isKnownTime } from '../model/time.ts';

/** A time printer of the CLI's one convention: local time (or `--timezone`), minutes, and the zone's name. */
export interface TimeFormat {
  /** `2026-03-01 11:00` in the zone; `time unknown` for `NaN`. */
  format(t: number): string;
  /** The zone the times are in, for a header: `Europe/Paris`, `UTC`, `UTC+09:00`, `UTC+01:00/+02:00`. */
  zone: string;
}

/**
 * The CLI's one way to print a time: in the machine's zone unless `--timezone` names one, to the
 * minute, `YYYY-MM-DD HH:mm`, with the zone said once where the times are printed. A missing time
 * (`UNKNOWN_TIME`, `NaN`: no line gave one) reads `time unknown`, never 1970. `--json` output
 * gives ISO strings with the zone's offset instead (`isoTime`).
 *
 * The machine's zone is read with `Date`'s local fields, not `Intl` (whose first formatter costs
 * ~10–20 ms of CPU at start-up): it is labelled by its UTC offset (`UTC`, `UTC+09:00`, or
 * `UTC+01:00/+02:00` for a zone with summer time, winter offset first). A named zone goes through
 * `Intl.DateTimeFormat`, labelled by its IANA name as given (`zoneLabel`).
 * @param timeZone an IANA zone (validated by the caller), or undefined for the machine's
 * @returns the printer
 */
export function timeFormat(timeZone?: string): TimeFormat {
  if (timeZone === undefined)
    return { format: (t) => (printable(t) ? localTime(new Date(t)) : UNKNOWN), zone: localZone() };
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return {
    format: (t) => {
      if (!printable(t)) return UNKNOWN;
      const parts = new Map(format.formatToParts(t).map((p) => [p.type, p.value]));
      return `${parts.get('year')}-${parts.get('month')}-${parts.get('day')} ${parts.get('hour')}:${parts.get('minute')}`;
    },
    zone: zoneLabel(timeZone, format.resolvedOptions().timeZone),
  };
}

const UNKNOWN = 'time unknown';

/** A named zone's label: the name as `Intl` spells it (`utc` → `UTC`), but the user's own name when `Intl` resolves it
 * to another (Node 20's ICU gives `Asia/Calcutta` for `Asia/Kolkata`, `Europe/Kiev` for `Europe/Kyiv`). */
function zoneLabel(given: string, resolved: string): string {
  return given.toLowerCase() === resolved.toLowerCase() ? resolved : given;
}

const printable = (t: number): boolean => isKnownTime(t) && Number.isFinite(t);

const two = (n: number): string => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm` in the machine's zone. */
function localTime(d: Date): string {
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The machine's zone as its UTC offsets this year: `UTC`, `UTC+09:00`, `UTC-05:00/-04:00`. */
function localZone(): string {
  const year = new Date().getFullYear();
  // getTimezoneOffset is minutes *behind* UTC: Paris in winter is -60
  const offsets = [...new Set([0, 6].map((month) => -new Date(year, month, 1).getTimezoneOffset()))].sort(
    (a, b) => a - b,
  );
  const offset = (minutes: number): string =>
    `${minutes < 0 ? '-' : '+'}${two(Math.floor(Math.abs(minutes) / 60))}:${two(Math.abs(minutes) % 60)}`;
  if (offsets.length === 1 && offsets[0] === 0) return 'UTC';
  return `UTC${offsets.map(offset).join('/')}`;
}
