const DAY = 86_400_000;
const SLOT = 900_000;
/** Times whose UTC day the offset path takes (1972–2199): the ISO date there is `YYYY-MM-DD`, as `en-CA` writes it. */
const FROM = Date.UTC(1972, 0, 1);
const TO = Date.UTC(2200, 0, 1);

/**
 * The calendar day (`YYYY-MM-DD`) of a time in a zone, as usage reports bucket responses, with no
 * `Intl` call per response (issue 16). Per UTC day seen, the zone's offset is asked at the day's first
 * and last second: when both agree (every day but a transition's), the day of each time in it is the UTC
 * date of the time plus that offset. A UTC day holding a transition, and a time outside 1972–2199, go by
 * quarter hours instead: `Intl.DateTimeFormat` once per quarter hour of time seen (since 1980 every
 * zone's offset is a multiple of 15 minutes and changes only on such a boundary, so all times of one
 * quarter hour share their day). tzdb has no zone with two transitions within one UTC day. The offsets
 * of the machine's zone are `Date`'s (`getTimezoneOffset`, from the same ICU zone as `Intl`'s default),
 * so that `romp usage` in it makes no `Intl.DateTimeFormat` (its first costs 33–43 ms CPU, ICU's data);
 * a named zone's are read off `Intl.DateTimeFormat.formatToParts`.
 * @param timeZone an IANA zone, or undefined for the machine's
 * @returns the day of an epoch time (ms)
 */
export function dayFormatter(timeZone: string | undefined): (t: number) => string {
  let format: Intl.DateTimeFormat | undefined;
  const offsetAt = timeZone === undefined ? hostOffset : zoneOffset(timeZone);
  const offsets = new Map<number, number>(); // UTC day → its offset (NaN: a transition in it)
  const days = new Map<number, string>(); // local day → its date
  const slots = new Map<number, string>();
  const bySlot = (t: number): string => {
    const slot = Math.floor(t / SLOT);
    let day = slots.get(slot);
    if (day === undefined) {
      format ??= new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
      slots.set(slot, (day = format.format(slot * SLOT)));
    }
    return day;
  };
  return (t) => {
    if (!(t >= FROM && t < TO)) return bySlot(t);
    const utcDay = Math.floor(t / DAY);
    let offset = offsets.get(utcDay);
    if (offset === undefined) {
      const first = offsetAt(utcDay * DAY);
      offsets.set(utcDay, (offset = first === offsetAt(utcDay * DAY + DAY - 1000) ? first : NaN));
    }
    if (Number.isNaN(offset)) return bySlot(t);
    const local = Math.floor((t + offset) / DAY);
    let day = days.get(local);
    if (day === undefined) days.set(local, (day = new Date(local * DAY).toISOString().slice(0, 10)));
    return day;
  };
}

/** The machine zone's offset (ms) at a time. */
const hostOffset = (t: number): number => -new Date(t).getTimezoneOffset() * 60_000 || 0;

/** A zone's offset (ms) at a whole second: its wall clock read as UTC, less the time. */
function zoneOffset(timeZone: string): (t: number) => number {
  const clock = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return (t) => {
    const p = new Map(clock.formatToParts(t).map((x) => [x.type, Number(x.value)]));
    const wall = Date.UTC(
      p.get('year') ?? NaN,
      (p.get('month') ?? NaN) - 1,
      p.get('day') ?? NaN,
      p.get('hour') ?? NaN,
      p.get('minute') ?? NaN,
      p.get('second') ?? NaN,
    );
    return wall - t;
  };
}
