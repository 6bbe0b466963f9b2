import { safeText } from './safe-text.ts';

/** Characters a terminal shows two columns wide (CJK, Hangul, full-width forms, emoji). */
const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;

/** An SGR sequence (a colour or style code romp adds itself): no column on a terminal, never cut inside. */
const SGR = /\u001b\[[0-9;]*m/y;

/**
 * Cuts a line to at most `width` terminal columns (wide characters count two, romp's own colour codes
 * none and are never cut inside), ending it with `…` when cut (and a reset when it held a colour code).
 * @param line a line without control characters (already `safeText`) but SGR colour codes
 * @param width the columns it may take (`Infinity`: the line whole)
 * @returns the line, whole or cut
 */
export function fitWidth(line: string, width: number): string {
  if (textWidth(line) <= width) return line;
  const pieces: string[] = [];
  for (let i = 0; i < line.length;) {
    SGR.lastIndex = i;
    const piece = (line.charCodeAt(i) === 0x1b ? SGR.exec(line)?.[0] : undefined) ?? charAt(line, i);
    pieces.push(piece);
    i += piece.length;
  }
  const columns = (piece: string): number => (piece.startsWith('\u001b') ? 0 : WIDE.test(piece) ? 2 : 1);
  let used = 1;
  let out = '';
  for (const piece of pieces) {
    if (used + columns(piece) > width) break;
    used += columns(piece);
    out += piece;
  }
  return `${out}…${out.includes('\u001b') ? '\u001b[0m' : ''}`;
}

/**
 * The columns a line takes on a terminal: wide characters (`WIDE`) two, romp's own colour codes none, every
 * other code point one.
 * @param line a line without control characters (already `safeText`) but SGR colour codes
 * @returns its width in columns
 */
export function textWidth(line: string): number {
  let width = 0;
  for (let i = 0; i < line.length;) {
    SGR.lastIndex = i;
    const sgr = line.charCodeAt(i) === 0x1b ? SGR.exec(line)?.[0] : undefined;
    if (sgr !== undefined) {
      i += sgr.length;
      continue;
    }
    const point = charAt(line, i);
    width += point.length === 1 && line.charCodeAt(i) < 0x1100 ? 1 : WIDE.test(point) ? 2 : 1;
    i += point.length;
  }
  return width;
}

/**
 * A text cut to `width` characters keeping its end (`…/app/server`): how a path is shortened, its last folders
 * being what tells it apart. The cut never starts inside a `safeText` escape or a surrogate pair: after it instead,
 * the text kept one to five characters shorter.
 * @param text the text (already `safeText`)
 * @param width the characters it may take (at least 2)
 * @returns the text, whole or `…` and its end
 */
export function keepEnd(text: string, width: number): string {
  if (text.length <= width) return text;
  // never from inside a `safeText` escape (it would read as plain `x1b[31m`) or a surrogate pair: from after it
  const from = escapeSplitAt(text, text.length - width + 1)?.end ?? text.length - width + 1;
  const code = text.charCodeAt(from);
  return `…${text.slice(code >= 0xdc00 && code <= 0xdfff ? from + 1 : from)}`;
}

/** Where a word too long for `room` is cut: at `room`, or before it so that neither a `safeText` escape
 * (`\x1b`, `\u202e`) nor a surrogate pair is split (an escape longer than the room is kept whole). */
function cutAt(word: string, room: number): number {
  const split = escapeSplitAt(word, room);
  const at = split === undefined ? room : split.start > 0 ? split.start : split.end;
  const code = word.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff && at > 1 ? at - 1 : at;
}

/** The `safeText` escape (`\x1b`, `\u202e`) a cut of `text` at `at` would split: where it starts and ends; else
 * undefined. */
function escapeSplitAt(text: string, at: number): { start: number; end: number } | undefined {
  const start = text.lastIndexOf('\\', at - 1);
  const escape = start < 0 || start <= at - 6 ? undefined : ESCAPE.exec(text.slice(start, start + 6))?.[0];
  return escape !== undefined && start + escape.length > at ? { start, end: start + escape.length } : undefined;
}

/** A `safeText` escape at the start of a text. */
const ESCAPE = /^\\(?:x[0-9a-f]{2}|u[0-9a-f]{4})/;

function charAt(text: string, i: number): string {
  return String.fromCodePoint(text.codePointAt(i) as number);
}

/**
 * The width every printer of the CLI fits its lines to, decided here once: `COLUMNS` when it is set to a
 * positive integer (POSIX: the user's chosen width, over the terminal's), else the terminal's width when
 * stdout is one (Node gives a pipe's or a file's stream no `columns`), else none: in a pipe or a file the
 * lines are kept whole, as ccusage, `gh`, `glab`, `git log` and `ls -l` keep them, for `grep` and `cut`
 * to read (a pipe has no width; `COLUMNS=100 romp ls | less` asks for one).
 * @param out stdout (its `columns`, set on a terminal)
 * @param env where `COLUMNS` is read (default `process.env`)
 * @returns the width in columns, or undefined: keep lines whole
 */
export function outputWidth(
  out: { columns?: number | undefined },
  env: Readonly<Record<string, string | undefined>> = process.env,
): number | undefined {
  const asked = env['COLUMNS'];
  if (asked !== undefined && /^[1-9]\d{0,4}$/.test(asked.trim())) return Number(asked.trim());
  return typeof out.columns === 'number' && out.columns > 0 ? out.columns : undefined;
}

/**
 * Lines cut to the output's width (`outputWidth`), as every printer of the CLI cuts them: each line at
 * most `columns - 1` columns (the last column left free, so no terminal wraps), ending with `…` when cut.
 * @param lines lines without control characters (already `safeText`)
 * @param columns the width (`outputWidth(io.stdout)`); undefined (a pipe, no `COLUMNS`): kept whole
 * @returns the lines, whole or cut
 */
export function fitLines(lines: readonly string[], columns: number | undefined): string[] {
  return columns === undefined ? [...lines] : lines.map((line) => fitWidth(line, Math.max(10, columns - 1)));
}

/**
 * A multi-line text cut to the output's width: `fitLines` on each of its lines, a final newline kept.
 * @param text lines joined with `\n` (already `safeText`)
 * @param columns the width (`outputWidth(io.stdout)`); undefined: unchanged
 * @returns the text, its lines whole or cut
 */
export function fitText(text: string, columns: number | undefined): string {
  return columns === undefined ? text : fitLines(text.split('\n'), columns).join('\n');
}

/**
 * Words wrapped to `width` columns, each line made safe (`safeText` on each word, so an escape is measured
 * as printed); a word longer than the width is cut into pieces; each `\n` starts a new line.
 * @param text the text (from a transcript or romp's own)
 * @param width the columns a line may take (at least 1)
 * @param rest the columns of every line after the first (default `width`; at least 1)
 * @returns the lines, no trailing empty ones
 */
export function wrapWords(text: string, width: number, rest: number = width): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/[ \t]+/)) {
      let piece = safeText(word);
      while (piece.length > 0) {
        const room = out.length === 0 ? width : rest;
        if (line === '') {
          const at = cutAt(piece, room);
          line = piece.slice(0, at);
          piece = piece.slice(at);
        } else if (line.length + 1 + piece.length <= room) {
          line += ` ${piece}`;
          piece = '';
        } else {
          out.push(line);
          line = '';
        }
      }
    }
    out.push(line);
  }
  while (out.length > 1 && out.at(-1) === '') out.pop();
  return out;
}

/**
 * Prose lines wrapped to the output's width, as `usage`'s notes and `resume-check`'s report print them: a line
 * longer than `columns - 1` is broken between words, its continuation lines indented two columns past the
 * line's own leading spaces. Without a width (a pipe) the lines are kept whole. A newline inside a line is escaped
 * (`\x0a`), as every other control character, whether or not there is a width.
 * @param lines lines of prose (any text: made safe here)
 * @param columns the width (`outputWidth(io.stdout)`); undefined: each line whole, made safe
 * @returns the lines
 */
export function wrapLines(lines: readonly string[], columns: number | undefined): string[] {
  if (columns === undefined) return lines.map((line) => safeText(line));
  return lines.flatMap((line) => {
    const indent = (/^ */.exec(line) as RegExpExecArray)[0];
    const width = Math.max(10, columns - 1 - indent.length);
    // made safe first: a newline inside a line (a file named with one) is escaped, not a break that forges a line
    return wrapWords(safeText(line.slice(indent.length)), width, width - 2).map(
      (l, i) => `${indent}${i === 0 ? '' : '  '}${l}`,
    );
  });
}

/**
 * The widths columns get when together they must fit `room`: the narrow ones keep theirs, the wide ones share the
 * rest evenly (the largest level `L` with `sum(min(width, L)) <= room`, at least 1 each), as a table printer
 * cuts its widest cells first.
 * @param widths each column's natural width, in terminal columns
 * @param room the columns they may take together
 * @returns each column's width, none wider than its natural width
 */
export function shareWidth(widths: readonly number[], room: number): number[] {
  if (widths.reduce((n, w) => n + w, 0) <= room) return [...widths];
  const sorted = [...widths].sort((a, b) => a - b);
  let left = room;
  let level = 1;
  for (const [i, w] of sorted.entries()) {
    const even = Math.floor(left / (sorted.length - i));
    if (w > even) {
      level = Math.max(1, even);
      break;
    }
    left -= w;
  }
  return widths.map((w) => Math.min(w, level));
}
