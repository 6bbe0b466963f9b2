/**
 * The characters a terminal acts on instead of showing: C0 controls (U+0000–U+001F: ESC, BEL, BS, CR,
 * LF, TAB, …), DEL (U+007F), C1 controls (U+0080–U+009F, e.g. U+009B, a one-byte CSI), and the bidi
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what is shown; and the
 * invisible marks that reorder or hide text without a control's effect (Trojan Source's lesser risks): the
 * Arabic letter mark (U+061C), the left-to-right and right-to-left marks (U+200E, U+200F), the zero-width space
 * (U+200B), the line and paragraph separators (U+2028, U+2029) and the byte-order mark (U+FEFF). The zero-width
 * joiner and non-joiner (U+200C, U+200D) pass: emoji sequences and Persian and Indic text need them.
 * One character class, so a match never backtracks.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** The same class without LF: for whole outputs whose lines the printer itself broke. */
const UNSAFE_KEEP_NEWLINES =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** The same class without TAB, LF and CR: for HTML text, where they are layout (the parser turns CR into LF). */
const UNSAFE_KEEP_LAYOUT =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** Options of {@link safeText}. */
export interface SafeTextOptions {
  /** Keep LF (U+000A) as is: for a text of several lines whose breaks are wanted. Default `false`. */
  keepNewlines?: boolean;
  /** Keep TAB, LF and CR (U+0009, U+000A, U+000D) as is: for the text of an HTML page (`escapeHtml`), where a
   * browser lays them out and acts on none. Default `false`. */
  keepLayout?: boolean;
}

function escape(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x20 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Makes text from a transcript, a stream or romp's home safe to print on a terminal: every character a
 * terminal would act on is shown escaped instead, `\x1b` for the C0 controls, `\u007f`, `\u009b`,
 * `\u202e` for DEL, the C1 controls and the bidi controls, `\u200f` for the invisible marks, so a crafted
 * transcript cannot set the window title, clear the screen, plant an OSC 8 hyperlink, reorder a line or hide a
 * character in it. Everything else passes unchanged.
 *
 * The `\uXXXX` form is also a JSON escape, so the function may run over JSON text too: JSON output
 * holds raw DEL, C1 and bidi characters only inside strings (`JSON.stringify` already escapes C0), where
 * the escape reads back as the same value.
 *
 * Linear in the text's length (one character class, no backtracking).
 *
 * @param text any string
 * The same rule makes a page's text safe (`escapeHtml`, `keepLayout`): a browser applies the bidi controls
 * and shows the C0 controls as boxes, so a page shows them escaped as the terminal does.
 *
 * @param options `keepNewlines` to keep LF, `keepLayout` to keep TAB, LF and CR
 * @returns the text with each unsafe character replaced by its escape
 */
export function safeText(text: string, options: SafeTextOptions = {}): string {
  const unsafe =
    options.keepLayout === true ? UNSAFE_KEEP_LAYOUT : options.keepNewlines === true ? UNSAFE_KEEP_NEWLINES : UNSAFE;
  return text.replace(unsafe, escape);
}
