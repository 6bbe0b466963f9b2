/** A text with matches: the plain text and where each match is, as `[start, end)` offsets in UTF-16 code units. */
export interface MatchedText {
  text: string;
  matches: Array<[number, number]>;
}

/**
 * Takes the marks out of a text whose matches are between `open` and `close` (what SQLite's FTS5
 * `snippet()` gives), in one pass: the plain text, and each match's `[start, end)` in it (UTF-16
 * code units, as JavaScript's `slice` counts). A `close` without an `open` is dropped; an `open`
 * left unclosed runs to the end; an empty match is not kept.
 * @param marked the text with its marks
 * @param open the character that opens a match (one code unit)
 * @param close the character that closes one
 * @returns the text without the marks, and the matches, in order, never overlapping
 */
export function unmark(marked: string, open: string, close: string): MatchedText {
  const matches: Array<[number, number]> = [];
  let text = '';
  let start = -1;
  for (const char of marked) {
    if (char === open && start < 0) start = text.length;
    else if (char === close || char === open) {
      if (start >= 0 && text.length > start) matches.push([start, text.length]);
      start = char === open ? text.length : -1;
    } else text += char;
  }
  if (start >= 0 && text.length > start) matches.push([start, text.length]);
  return { text, matches };
}

/**
 * Puts marks back around the matches of a text, each piece of the text passed through `escape` first
 * (`safeText` for a terminal, `escapeHtml` for a page), so that a mark is never confused with the
 * text's own characters. Matches out of order, overlapping or outside the text are clamped to it.
 * @param matched the text and its matches (`unmark`, or a search hit's `snippet` and `matches`)
 * @param open what opens a match (`«`, `<mark>`, a colour code)
 * @param close what closes one
 * @param escape what makes a piece of the text safe where it goes (default: unchanged)
 * @returns the marked text
 */
export function markMatches(
  matched: MatchedText,
  open: string,
  close: string,
  escape: (piece: string) => string = (piece) => piece,
): string {
  const { text } = matched;
  let out = '';
  let at = 0;
  for (const [from, to] of matched.matches) {
    const start = Math.min(Math.max(from, at), text.length);
    const end = Math.min(Math.max(to, start), text.length);
    if (end === start) continue;
    out += `${escape(text.slice(at, start))}${open}${escape(text.slice(start, end))}${close}`;
    at = end;
  }
  return out + escape(text.slice(at));
}

/**
 * A matched text cut to at most `max` code units (plus an `…` at each end cut) around its first match, so a snippet
 * of one long token (a 200 KB line of one word: FTS5's snippet counts tokens, not characters) stays a line. The
 * window starts `max / 3` before the first match; matches are clipped to it and shifted; a cut never splits a
 * surrogate pair. Linear in the text.
 * @param matched the text and its matches (`unmark`)
 * @param max the most code units kept of the text
 * @returns the same object when the text fits, else the cut text and its matches
 */
export function clipMatched(matched: MatchedText, max: number): MatchedText {
  const { text, matches } = matched;
  if (text.length <= max) return matched;
  const first = matches[0]?.[0] ?? 0;
  let start = Math.max(0, Math.min(first - Math.floor(max / 3), text.length - max));
  let end = start + max;
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  if (isLowSurrogate(text.charCodeAt(end))) end--;
  const before = start > 0 ? '…' : '';
  const shift = before.length - start;
  const kept: Array<[number, number]> = [];
  for (const [a, b] of matches) {
    const from = Math.max(a, start);
    const to = Math.min(b, end);
    if (to > from) kept.push([from + shift, to + shift]);
  }
  return { text: `${before}${text.slice(start, end)}${end < text.length ? '…' : ''}`, matches: kept };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
