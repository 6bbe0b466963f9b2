import { zoneOffset } from './zone-offset.ts';

const DAY = 86_400_000;
const SLOT = 900_000;
/** Times whose UTC day the offset path takes (1972–2199): the ISO date there is `YYYY-MM-DD`, as `en-CA` writes it. */
const FROM = Date.UTC(1972, 0, 1);
const TO = Date.UTC(2200, 0, 1);

/**
 * The calendar day (`YYYY-MM-DD`) of a time in a zone, as usage reports bucket responses, with no
 * `Intl` call per response (issue 16): the UTC date of the time plus the zone's offset then
 * (`zoneOffset`: `Date`'s for the machine's zone, so that `romp usage` in it makes no
 * `Intl.DateTimeFormat`; a named zone's asked of `Intl` once per UTC day seen, per quarter hour on a
 * transition's day; the CLI's JSON times, `isoTime`, use the same). A time outside 1972–2199 goes by
 * quarter hours instead: `Intl.DateTimeFormat` (`en-CA`) once per quarter hour of time seen (since 1980
 * every zone's offset is a multiple of 15 minutes and changes only on such a boundary, so all times of one
 * quarter hour share their day).
 * @param timeZone an IANA zone, or undefined for the machine's
 * @returns the day of an epoch time (ms)
 */
export function dayFormatter(timeZone: string | undefined): (t: number) => string {
  let format: Intl.DateTimeFormat | undefined;
  const offset = zoneOffset(timeZone);
  const days = new Map<number, string>(); // local day → its date
  const slots = new Map<number, string>();
  return (t) => {
    if (!(t >= FROM && t < TO)) {
      const slot = Math.floor(t / SLOT);
      let day = slots.get(slot);
      if (day === undefined) {
        format ??= new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
        slots.set(slot, (day = format.format(slot * SLOT)));
      }
      return day;
    }
    const local = Math.floor((t + offset(t)) / DAY);
    let day = days.get(local);
    if (day === undefined) days.set(local, (day = new Date(local * DAY).toISOString().slice(0, 10)));
    return day;
  };
}
