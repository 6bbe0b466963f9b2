const DAY = 86_400_000;
const SLOT = 900_000;
/** Times whose UTC day the per-day path takes (1972–2199). */
const FROM = Date.UTC(1972, 0, 1);
const TO = Date.UTC(2200, 0, 1);

/**
 * A zone's UTC offset at any time, with no `Intl` call per time (issue 16): what `romp usage` buckets days
 * by and the CLI's JSON prints times with (`isoTime`). Per UTC day seen, the offset is asked of `Intl` at
 * the day's first and last second: when both agree (every day but a transition's), it is the offset of
 * every time in the day. A UTC day holding a transition, and a time outside 1972–2199, go by quarter
 * hours instead: `Intl` once per quarter hour of time seen (since 1980 every zone's offset is a multiple
 * of 15 minutes and changes only on such a boundary). tzdb has no zone with two transitions within one
 * UTC day. Before 1972 an offset can hold seconds (local mean time: Kathmandu's `+05:41:16`): given as is.
 * The machine's zone is `Date`'s (`getTimezoneOffset`, from the same ICU zone as `Intl`'s default, exact
 * at every time), so that `romp usage` in it makes no `Intl.DateTimeFormat` (its first costs 33–43 ms
 * CPU, ICU's data).
 * @param timeZone an IANA zone, or undefined for the machine's
 * @returns the offset (ms, east of UTC positive: Paris in winter `3_600_000`) at an epoch time (ms)
 */
export function zoneOffset(timeZone: string | undefined): (t: number) => number {
  if (timeZone === undefined) return hostOffset;
  const clock = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    era: 'short',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  /** The offset at a whole second: the zone's wall clock read as UTC, less the time. */
  const offsetAt = (t: number): number => {
    const p = new Map<string, string>(clock.formatToParts(t).map((x) => [x.type, x.value]));
    const n = (type: string): number => Number(p.get(type));
    const wall = new Date(0);
    // setUTCFullYear, not Date.UTC: that reads years 0–99 as 1900–1999; before year 1, en-US counts years BC
    wall.setUTCFullYear(p.get('era') === 'BC' ? 1 - n('year') : n('year'), n('month') - 1, n('day'));
    wall.setUTCHours(n('hour'), n('minute'), n('second'));
    return wall.getTime() - t;
  };
  const days = new Map<number, number>(); // UTC day → its offset (NaN: a transition in it)
  const slots = new Map<number, number>();
  const bySlot = (t: number): number => {
    const slot = Math.floor(t / SLOT);
    let offset = slots.get(slot);
    if (offset === undefined) slots.set(slot, (offset = offsetAt(slot * SLOT)));
    return offset;
  };
  return (t) => {
    if (!(t >= FROM && t < TO)) return bySlot(t);
    const utcDay = Math.floor(t / DAY);
    let offset = days.get(utcDay);
    if (offset === undefined) {
      const first = offsetAt(utcDay * DAY);
      days.set(utcDay, (offset = first === offsetAt(utcDay * DAY + DAY - 1000) ? first : NaN));
    }
    return Number.isNaN(offset) ? bySlot(t) : offset;
  };
}

/** The machine zone's offset (ms) at a time (`|| 0`: never `-0`). */
const hostOffset = (t: number): number => -new Date(t).getTimezoneOffset() * 60_000 || 0;
