/**
 * The largest of some numbers, at least `floor`, in a loop: `Math.max(...values)` passes every value as an argument,
 * and over about 120,000 of them (a `romp sql` result's rows, a turn's atoms) throws `RangeError: Maximum call stack
 * size exceeded`.
 * @param values the numbers (any count)
 * @param floor what an empty list gives, and the least result (default `-Infinity`)
 * @returns the largest, or `floor`
 */
export function maxOf(values: Iterable<number>, floor: number = Number.NEGATIVE_INFINITY): number {
  let max = floor;
  for (const v of values) if (v > max) max = v;
  return max;
}

/**
 * The smallest of some numbers, at most `ceiling`, in a loop (see {@link maxOf}).
 * @param values the numbers (any count)
 * @param ceiling what an empty list gives, and the greatest result (default `Infinity`)
 * @returns the smallest, or `ceiling`
 */
export function minOf(values: Iterable<number>, ceiling: number = Number.POSITIVE_INFINITY): number {
  let min = ceiling;
  for (const v of values) if (v < min) min = v;
  return min;
}
