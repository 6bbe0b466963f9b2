const ENTITIES: ReadonlyMap<string, string> = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&#39;'],
  ['\0', '\uFFFD'],
]);

/**
 * The one HTML escaper of romp's pages: transcript text made inert in element content and in quoted
 * attribute values (`&`, `<`, `>`, `"`, `'` become entities; NUL, which HTML parsers drop or replace,
 * becomes U+FFFD). Linear in the text.
 * @param text any text (transcript data, file paths, tool names)
 * @returns the escaped text
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\0]/g, (c) => ENTITIES.get(c) ?? c);
}
