/**
 * A value as JSON that can sit inside a `<script type="application/json">` element: `<`, `>` and `&`
 * become `\u003c`, `\u003e`, `\u0026` (so neither `</script` nor `<!--` can appear), and U+2028 / U+2029
 * become `\u2028` / `\u2029`. `JSON.parse` of the element's text gives the value back.
 * @param value any JSON value
 * @returns the JSON text, safe for the element
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
