import type { Entry } from '../graph/entry.ts';
import type { RawRecord } from '../read/parse-line.ts';

/** A linear transcript made from a session's `full` view, and what a loader should give back. */
export interface LinearFork {
  /** The new file's lines, in order. */
  lines: RawRecord[];
  /** The uuids of the user and assistant lines a loader returns (meta lines left out), in order. */
  expected: string[];
}

/**
 * A new transcript that holds the whole `full` view as one chain, for `romp resume-check --write-fork`:
 * the path's `user` and `assistant` lines in conversation order (parallel tool lines where the path put
 * them back), each hung on the line before it (`parentUuid`), the first on `null`, all under
 * `sessionId` and `isSidechain: false`, as a fork copies (transcript-format §13). Compact boundaries and
 * compact summaries are left out: the history they stand for is there in full, so a loader that starts
 * at the last boundary sees everything. The lines keep their uuids and content (`toolUseResult`, which
 * the model never reads, is not kept). Pure: the source files are never touched.
 * @param path the `full` view's active path entries
 * @param sessionId the new session's id
 * @returns the lines and the uuids a loader should give back
 */
export function linearFork(path: readonly Entry[], sessionId: string): LinearFork {
  const lines: RawRecord[] = [];
  const expected: string[] = [];
  let parent: string | null = null;
  for (const e of path) {
    if ((e.type !== 'user' && e.type !== 'assistant') || e.record['isCompactSummary'] === true) continue;
    const { logicalParentUuid: _logical, toolUseResult: _result, ...rest } = e.record;
    lines.push({ ...rest, parentUuid: parent, isSidechain: false, sessionId });
    if (e.record['isMeta'] !== true) expected.push(e.uuid);
    parent = e.uuid;
  }
  return { lines, expected };
}
