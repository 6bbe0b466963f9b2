import type { ParseResult } from '../session/parse-session.ts';
import { plural } from '../text/format-count.ts';
import { UserError } from './cli-io.ts';
import { shownPath, STDIN } from './stdin-copy.ts';

/**
 * Refuses a parse in which a file gave no record and some of its lines could not be read (blank lines are no
 * sign): a binary or `/etc/services` is not a session with diagnostics. Every command that reads a session
 * (`loadSession`, `romp export`, `romp html`) calls it, so that none prints an empty session for one.
 * @param parsed the session and the parse's diagnostics (`parseSession`)
 * @throws UserError `FILE: not a Claude Code transcript (0 of N lines readable; romp doctor FILE says why)`, with
 *   `<stdin>` and `romp doctor -` for standard input (`shownPath`)
 */
export function refuseNonTranscripts({ session, diagnostics }: ParseResult): void {
  const read = new Set<string>();
  for (const r of session.records) read.add(r.fsid);
  for (const turn of session.turns) for (const atom of turn.atoms) if (atom.fsid !== undefined) read.add(atom.fsid);
  for (const file of session.files) {
    if (read.has(file.fsid)) continue;
    const lines = new Set(
      diagnostics
        .filter((d) => d.file === file.path && d.line !== undefined && d.severity === 'error')
        .map((d) => d.line),
    );
    if (lines.size === 0) continue;
    const shown = shownPath(file.path);
    throw new UserError(
      `${shown}: not a Claude Code transcript (0 of ${plural(lines.size, 'line')} readable; romp doctor ${shown === STDIN ? '-' : shown} says why)`,
    );
  }
}
