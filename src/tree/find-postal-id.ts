/**
 * The romp postal marker, whitespace tolerant: `<!-- romp-msg-id: ID -->`. The id stops at a `<`:
 * with `[^\s>]+` each `<!--romp-msg-id:` of a text without spaces ran to its end (quadratic).
 */
const POSTAL_MARKER = /<!--\s*romp-msg-id\s*:\s*([^\s<>]+)\s*-->/;

/**
 * Finds the romp postal marker (seed, "Postal detection") anywhere in a text.
 * @param text a user line's text
 * @returns the message id, or `undefined` when the text carries no marker
 */
export function findPostalId(text: string): string | undefined {
  if (!text.includes('romp-msg-id')) return undefined;
  return POSTAL_MARKER.exec(text)?.[1];
}

/**
 * A text without its romp postal markers (the same pattern as `findPostalId`, every occurrence).
 * @param text a user line's text
 * @returns the text with each `<!-- romp-msg-id: ID -->` removed
 */
export function withoutPostalMarker(text: string): string {
  if (!text.includes('romp-msg-id')) return text;
  return text.replace(new RegExp(POSTAL_MARKER.source, 'g'), '');
}
