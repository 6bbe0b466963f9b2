import { structuredPatch } from 'diff';
import type { Atom } from '../model/types.ts';
import { escapeHtml } from './escape-html.ts';
import type { Hunk } from './read-patches.ts';
import { truncated } from './cap-text.ts';
import type { RenderContext } from './render-context.ts';

/** The most diff lines one edit shows. */
export const DIFF_LINES_CAP = 400;

type Input = Record<string, unknown>;
const str = (input: Input, key: string): string => (typeof input[key] === 'string' ? input[key] : '');

/**
 * The hunks of a file edit when Claude Code wrote none: jsdiff's `structuredPatch` (3 lines of
 * context) over an `Edit`'s `old_string` → `new_string`, each of a `MultiEdit`'s `edits`, or a
 * `Write`'s `''` → `content`. Line numbers count from the edited snippet, not the file.
 * @param name the tool's name
 * @param input the `tool_use` input
 * @returns the hunks, or `undefined` for another tool
 */
export function editHunks(name: string, input: unknown): Hunk[] | undefined {
  const fields = typeof input === 'object' && input !== null ? (input as Input) : {};
  const pairs: Array<[string, string]> =
    name === 'Edit'
      ? [[str(fields, 'old_string'), str(fields, 'new_string')]]
      : name === 'MultiEdit' && Array.isArray(fields['edits'])
        ? fields['edits']
            .filter((e): e is Input => typeof e === 'object' && e !== null)
            .map((e) => [str(e, 'old_string'), str(e, 'new_string')])
        : name === 'Write'
          ? [['', str(fields, 'content')]]
          : [];
  if (pairs.length === 0) return undefined;
  return pairs.flatMap(([before, after]) => structuredPatch('a', 'b', before, after, '', '', { context: 3 }).hunks);
}

/**
 * Hunks as an HTML table: a `@@ -a,b +c,d @@` row per hunk, then one row per line, classed `add`,
 * `del` or `ctx` (jsdiff's `\ No newline at end of file` left out). Past {@link DIFF_LINES_CAP} lines the rest is cut,
 * with a note (`HTML_TRUNCATED`).
 * @param hunks the hunks
 * @param atom the atom of the edit (for the diagnostic)
 * @param ctx where a cut is counted
 * @returns the HTML
 */
export function renderDiff(hunks: readonly Hunk[], atom: Pick<Atom, 'uuid' | 'fsid'>, ctx: RenderContext): string {
  const rows: string[] = [];
  const total = hunks.reduce((n, h) => n + h.lines.filter((l) => !l.startsWith('\\')).length, 0);
  let shown = 0;
  for (const hunk of hunks) {
    if (shown >= DIFF_LINES_CAP) break;
    rows.push(
      `<tr class="hunk"><td colspan="2">@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@</td></tr>`,
    );
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
      if (shown++ >= DIFF_LINES_CAP) break;
      const kind = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx';
      rows.push(
        `<tr class="${kind}"><td class="sign">${escapeHtml(line.slice(0, 1))}</td><td>${escapeHtml(line.slice(1))}</td></tr>`,
      );
    }
  }
  const note = total > DIFF_LINES_CAP ? truncated(`diff: showing ${DIFF_LINES_CAP} of ${total} lines`, atom, ctx) : '';
  return `<table class="diff">${rows.join('')}</table>${note}`;
}
