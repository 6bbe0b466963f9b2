import { isKnownTime } from '../model/time.ts';

/** A time printer of the CLI's one convention: local time (or `--timezone`), minutes, and the zone's name. */
export interface TimeFormat {
  /** `2026-03-01 11:00` in the zone; `time unknown` for `NaN`. */
  format(t: number): string;
  /** The zone the times are in, for a header: `Europe/Paris`, `UTC`. */
  zone: string;
}

/**
 * The CLI's one way to print a time: in the machine's zone unless `--timezone` names one, to the
 * minute, `YYYY-MM-DD HH:mm`, with the zone said once where the times are printed. A missing time
 * (`UNKNOWN_TIME`, `NaN`: no line gave one) reads `time unknown`, never 1970. `--json` output
 * keeps epoch ms and ISO strings instead.
 * @param timeZone an IANA zone (validated by the caller), or undefined for the machine's
 * @returns the printer
 */
export function timeFormat(timeZone?: string): TimeFormat {
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
      if (!isKnownTime(t) || !Number.isFinite(t)) return 'time unknown';
      const parts = new Map(format.formatToParts(t).map((p) => [p.type, p.value]));
      return `${parts.get('year')}-${parts.get('month')}-${parts.get('day')} ${parts.get('hour')}:${parts.get('minute')}`;
    },
    zone: format.resolvedOptions().timeZone,
  };
}
