import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Session } from '../model/types.ts';
import { readChunks } from '../read/read-transcript.ts';
import type { CollectOptions } from './collect-files.ts';
import { SessionBuilder, type BuilderOptions } from './session-builder.ts';

/** Options of `parseSession`: how to read, which view, whose session, and romp's home. */
export interface ParseOptions extends CollectOptions, BuilderOptions {
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
 * ContentBlock` (seed, "The file adapter"): one `SessionBuilder` fed each whole file once: read
 * (`RecordDecoder`), graph (`buildIndex`, `resolveActivePath`), tree (`toAtom`, `buildTurns`), then
 * romp's own layer when `rompHome` is given.
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
  const on = (d: Diagnostic): void => {
    diagnostics.push(d);
  };
  const builder = new SessionBuilder(options);
  const paths = files.length > 0 ? files : await builder.home.files();
  // past `maxFiles`, a file is refused (TOO_MANY_FILES) before any is read
  const read = [...new Set(paths)].filter((path) => builder.addFile(path, on));
  for (const path of read) {
    if (await readChunks(path, (chunk) => builder.push(path, chunk, on), on, options.chunkBytes)) builder.end(path, on);
  }
  return { session: await builder.session(on), diagnostics };
}
