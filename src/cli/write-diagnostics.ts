import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { CliIO } from './cli-io.ts';
import { formatCount } from '../text/format-count.ts';
import { outputWidth, wrapLines } from './fit-width.ts';
import { shownDiagnostic, STDIN } from './stdin-copy.ts';

export { STDIN } from './stdin-copy.ts';

/** How many diagnostics a command prints before it only counts the rest. */
export const DIAGNOSTICS_SHOWN = 20;

/**
 * Writes diagnostics to stderr, one line each (`file:line: severity CODE message`), the first
 * `limit` of them and then a count of the rest with where to see them all:
 * `… and 1,150 more; romp doctor FILE lists them all` (the file's name when all are of one file, not {@link STDIN}).
 * On a terminal (or with `COLUMNS`) a line longer than the width is wrapped between words (`wrapLines`).
 * @param io where to write (stderr)
 * @param diagnostics the diagnostics, in the order met
 * @param heading a line said before them (e.g. what they mean for the command's figures), or none
 * @param limit how many to print
 */
export function writeDiagnostics(
  io: CliIO,
  diagnostics: readonly Diagnostic[],
  heading?: string,
  limit: number = DIAGNOSTICS_SHOWN,
): void {
  if (diagnostics.length === 0) return;
  const lines = heading === undefined ? [] : [heading];
  const indent = heading === undefined ? '' : '  ';
  // the copy of `-` (standard input) is named as romp stream names its input
  const shown = diagnostics.map(shownDiagnostic);
  for (const d of shown.slice(0, limit)) lines.push(`${indent}${formatDiagnostic(d)}`);
  if (diagnostics.length > limit) {
    const files = [...new Set(shown.map((d) => d.file).filter((f): f is string => f !== undefined))];
    // `romp stream`'s standard input is no file romp doctor could be given again
    const where = files.length === 1 && files[0] !== STDIN ? files[0] : 'FILE';
    lines.push(`${indent}… and ${formatCount(diagnostics.length - limit)} more; romp doctor ${where} lists them all`);
  }
  for (const line of wrapLines(lines, outputWidth(io.stderr))) io.stderr.write(`${line}\n`);
}

/**
 * Diagnostics as a command's `--json` output holds them (its `diagnostics` field): the `Diagnostic`
 * objects (`{code, severity, message, file, line?, byteOffset?, uuid?}`), each file named as on stderr
 * (`<stdin>` for the copy of `-`), in the order met. All of them: stderr shows the first 20.
 * @param diagnostics the diagnostics
 * @returns the JSON value
 */
export function diagnosticsJson(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map(shownDiagnostic);
}
