import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Session } from '../model/types.ts';
import type { ReadOptions } from '../read/read-transcript.ts';
import { buildSession, type BuildOptions } from './build-session.ts';
import { collectFiles } from './collect-files.ts';

/** Options of `parseSession`: how to read, which view, whose session. */
export interface ParseOptions extends ReadOptions, BuildOptions {}

/** A parsed session and every diagnostic met on the way, in the order met. */
export interface ParseResult {
  session: Session;
  diagnostics: Diagnostic[];
}

/**
 * Parses one session from its Claude Code transcript file(s) into `Session → Turn → Atom →
 * ContentBlock` (seed, "The file adapter"): read (`readTranscriptLines`), graph (`buildIndex`,
 * `resolveActivePath`), tree (`toAtom`, `buildTurns`).
 *
 * ```ts
 * const { session, diagnostics } = await parseSession(['~/.claude/projects/p/<id>.jsonl']);
 * for (const turn of session.turns) console.log(turn.trigger?.uuid, turn.ended, turn.atoms.length);
 * ```
 *
 * Never rejects for bad or missing input: unreadable files, broken lines and broken links are
 * diagnostics (see docs/diagnostics.md), and whatever can be read is parsed.
 *
 * @param files transcript paths: one session's main file, and its resume/fork files if any
 * @param options `view` (`full` | `context`), `rompUuid`, `resolvePeer`, `maxLineBytes`, `chunkBytes`
 * @returns the session and the diagnostics
 */
export async function parseSession(files: string[], options: ParseOptions = {}): Promise<ParseResult> {
  const diagnostics: Diagnostic[] = [];
  const onDiagnostic = (d: Diagnostic): void => {
    diagnostics.push(d);
  };
  const collected = await collectFiles(files, onDiagnostic, options);
  return { session: buildSession(collected, options, onDiagnostic), diagnostics };
}
