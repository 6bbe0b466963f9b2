/** Characters a terminal shows two columns wide (CJK, Hangul, full-width forms, emoji). */
const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;

/**
 * Cuts a line to at most `width` terminal columns (wide characters count two), ending it with `…` when cut.
 * @param line a line without control characters (already `safeText`)
 * @param width the columns it may take
 * @returns the line, whole or cut
 */
export function fitWidth(line: string, width: number): string {
  const chars = [...line];
  const columns = (char: string): number => (WIDE.test(char) ? 2 : 1);
  if (chars.reduce((n, c) => n + columns(c), 0) <= width) return line;
  let used = 1;
  let out = '';
  for (const char of chars) {
    if (used + columns(char) > width) break;
    used += columns(char);
    out += char;
  }
  return `${out}…`;
}

/**
 * Lines cut to a terminal's width, as every printer of the CLI does on a terminal: each line at most
 * `columns - 1` columns (the last column left free, so no terminal wraps), ending with `…` when cut.
 * @param lines lines without control characters (already `safeText`)
 * @param columns the terminal's width (`process.stdout.columns`); undefined (not a terminal): kept whole
 * @returns the lines, whole or cut
 */
export function fitLines(lines: readonly string[], columns: number | undefined): string[] {
  return columns === undefined ? [...lines] : lines.map((line) => fitWidth(line, Math.max(10, columns - 1)));
}
