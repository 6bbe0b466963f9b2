/**
 * The calendar day (`YYYY-MM-DD`) of a time in a zone, as usage reports bucket responses. Asks
 * `Intl.DateTimeFormat` once per quarter hour of time seen and keeps the answer: since 1980 every zone's offset is
 * a multiple of 15 minutes and changes only on such a boundary, so all times of one quarter hour share
 * their day. A report over a folder makes one call per quarter hour with activity, not one per response.
 * @param timeZone an IANA zone, or undefined for the machine's
 * @returns the day of an epoch time (ms)
 */
export function dayFormatter(timeZone: string | undefined): (t: number) => string {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const cache = new Map<number, string>();
  return (t) => {
    const slot = Math.floor(t / 900_000);
    let day = cache.get(slot);
    if (day === undefined) cache.set(slot, (day = format.format(slot * 900_000)));
    return day;
  };
}
