/**
 * A token count as the API writes it: a whole number from 0 up to `Number.MAX_SAFE_INTEGER`. Anything
 * else (negative, fractional, a string, `1e300`, NaN) is no count: `countUsage` reports it as
 * `BAD_USAGE` and sums nothing for it.
 * @param value a `usage` field
 * @returns the count (tokens), or `undefined` when the value is not one
 */
export function tokenCount(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}
