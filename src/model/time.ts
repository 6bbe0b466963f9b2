/**
 * The `t` of an atom (and a turn) when no line of the session has a readable time: 0. Every such line
 * has its `BAD_TIMESTAMP`, so it is never silent, and no Claude Code transcript holds a 1970 time; the
 * model stays plain JSON (NaN would come back as `null`). Test it with `isKnownTime`; the CLI prints
 * `time unknown`, and a tool call's `duration_ms` is `null`.
 */
export const UNKNOWN_TIME = 0;

/**
 * Whether a `t` is a time read from a line, not `UNKNOWN_TIME` (nor NaN).
 * @param t epoch ms
 * @returns true for a real time
 */
export function isKnownTime(t: number): boolean {
  return t !== UNKNOWN_TIME && !Number.isNaN(t);
}

/**
 * Gives lines without a timestamp the previous line's time (the next one's at the start); when no line
 * has one, `UNKNOWN_TIME`. In place.
 * @param items atoms (or turn-end markers) in order
 */
export function fillTimes(items: ReadonlyArray<{ t: number }>): void {
  let known = items.find((i) => !Number.isNaN(i.t))?.t ?? UNKNOWN_TIME;
  for (const item of items) {
    if (Number.isNaN(item.t)) item.t = known;
    else known = item.t;
  }
}
