import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Session } from '../model/types.ts';

import { postalResolver, readPostalLog } from '../romp-home/postal-log.ts';
import { listSessions, resolveSession } from '../romp-home/registry.ts';
import { readIdleSpans } from '../romp-home/state-log.ts';
import { insertIdle } from '../tree/insert-idle.ts';
import { buildSession, type BuildOptions } from './build-session.ts';
import { collectFiles, type CollectOptions } from './collect-files.ts';

/** Options of `parseSession`: how to read, which view, whose session, and romp's home. */
export interface ParseOptions extends CollectOptions, BuildOptions {
  /**
   * romp's home folder (docs/romp-home.md). When given: with `rompUuid` and no files, the files come
   * from the registry; the entry's name, dir and colour win; postal authors come from
   * `timeline/messages.jsonl`; idle atoms from `states/<sid>.jsonl` of every file.
   */
  rompHome?: string;
  /** The current time (epoch ms), for an idle span still open; default `Date.now()`. */
  now?: number;
}

/** A parsed session and every diagnostic met on the way, in the order met. */
export interface ParseResult {
  session: Session;
  diagnostics: Diagnostic[];
}

/**
 * Parses one session from its Claude Code transcript file(s) into `Session → Turn → Atom →
 * ContentBlock` (seed, "The file adapter"): read (`readTranscriptLines`), graph (`buildIndex`,
 * `resolveActivePath`), tree (`toAtom`, `buildTurns`), then romp's own layer when `rompHome` is given.
 *
 * ```ts
 * const { session, diagnostics } = await parseSession(['~/.claude/projects/p/<id>.jsonl']);
 * const same = await parseSession([], { rompUuid: 'R', rompHome: '~/.romp' }); // files from the registry
 * ```
 *
 * Never rejects for bad or missing input: unreadable files, broken lines and broken links are
 * diagnostics (see docs/diagnostics.md), and whatever can be read is parsed.
 *
 * @param files transcript paths: one session's main file, and its resume/fork files if any
 * @param options `view`, `rompUuid`, `rompHome`, `now`, `resolvePeer`, limits (`maxLineBytes`, `maxDepth`,
 *   `maxFiles`), `chunkBytes`
 * @returns the session and the diagnostics
 */
export async function parseSession(files: string[], options: ParseOptions = {}): Promise<ParseResult> {
  const diagnostics: Diagnostic[] = [];
  const onDiagnostic = (d: Diagnostic): void => {
    diagnostics.push(d);
  };
  const home = options.rompHome;
  // a damaged entry is reported once, by listSessions below
  const entry = home !== undefined && options.rompUuid !== undefined ? await resolveSession(home, options.rompUuid) : undefined;
  const paths = files.length > 0 ? files : (entry?.files.map((f) => f.path) ?? []);
  const collected = await collectFiles(paths, onDiagnostic, options);
  const build: BuildOptions = { ...options };
  if (home !== undefined) build.resolvePeer = postalResolver(await readPostalLog(home, onDiagnostic), await listSessions(home, onDiagnostic));
  let session = buildSession(collected, build, onDiagnostic);
  if (entry !== undefined) {
    session = { ...session, name: entry.name || session.name, dir: entry.dir || session.dir, color: entry.color || session.color };
  }
  if (home !== undefined) {
    const spans = (await Promise.all(session.files.map((f) => readIdleSpans(home, f.fsid, onDiagnostic)))).flat();
    session = insertIdle(session, spans, options.now ?? Date.now());
  }
  return { session, diagnostics };
}
