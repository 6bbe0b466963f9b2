/**
 * Splits text holding several JSON objects back to back (`{…}{…}`, as two concurrent appends leave
 * on one transcript line: transcript-format §17.1) into one string per top-level object.
 *
 * Strings and escapes are respected, so a `}{` inside a string value never splits. Whitespace between
 * objects is dropped. Text that is not a run of objects comes back as one piece, unchanged.
 *
 * @param text one line's text
 * @returns the pieces, in order; `[text]` when there is nothing to split
 */
export function splitGlued(text: string): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0 && c === 125) {
        pieces.push(text.slice(start, i + 1).trim());
        start = i + 1;
      }
    }
  }
  const rest = text.slice(start).trim();
  if (rest !== '') pieces.push(rest);
  return pieces.length > 1 ? pieces : [text];
}
