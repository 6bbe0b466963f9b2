/**
 * An empty object for keys that come from transcript data (session ids, models, tool_use ids, message
 * types): it has no prototype, so `__proto__`, `constructor` or `toString` are keys like any other, never
 * `Object.prototype`'s members (a plain `{}` keyed by them changed every object of the host program or
 * read back a function). It serialises as JSON like a plain object; `Object.entries` lists it.
 * Read one with `obj[key]` as usual; copy one with `keyedCopy`.
 * @returns a new, empty object without a prototype
 */
export function keyed<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * A copy of a `keyed` object (or any object) with one key set, itself without a prototype.
 * @param from the object copied (not changed)
 * @param key the key to set
 * @param value its value
 * @returns the new object
 */
export function keyedCopy<T>(from: Readonly<Record<string, T>>, key: string, value: T): Record<string, T> {
  const copy = Object.assign(keyed<T>(), from);
  copy[key] = value;
  return copy;
}
