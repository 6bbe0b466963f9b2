import { safeText } from '../cli/safe-text.ts';

const ENTITIES: ReadonlyMap<string, string> = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&#39;'],
]);

/**
 * The one HTML escaper of romp's pages: transcript text made inert in element content and in quoted
 * attribute values (`&`, `<`, `>`, `"`, `'` become entities), and every control or invisible character
 * shown escaped by the terminal's rule (`safeText`, `keepLayout`: `\x1b`, `\u202e`, `\x00`; TAB, LF
 * and CR kept), so a title, a prompt or a tool's output cannot reorder the page's text or hide in it.
 * Linear in the text.
 * @param text any text (transcript data, file paths, tool names)
 * @returns the escaped text
 */
export function escapeHtml(text: string): string {
  return safeText(text, { keepLayout: true }).replace(/[&<>"']/g, (c) => ENTITIES.get(c) ?? c);
}
