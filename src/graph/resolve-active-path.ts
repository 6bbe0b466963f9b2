import type { DiagnosticCode, OnDiagnostic } from '../diagnostics/diagnostic.ts';
import type { GraphIndex } from './build-index.ts';
import { isCompactBoundary, type Entry } from './entry.ts';
import { EntrySet } from './entry-set.ts';
import { findPreviousInFileOrder, phantomStandIn, reportAt } from './find-fallback-parent.ts';
import { pickLeaf, type Checkpoint } from './pick-leaf.ts';
import { recoverParallel } from './recover-parallel.ts';
import { relinkPreserved } from './relink-preserved.ts';

/**
 * Which history the path holds after a compaction (transcript-format §9):
 * - `full`: everything, each `compact_boundary` stitched to the history before it;
 * - `context`: what the model sees after resume: from the last boundary on, preserved messages relinked,
 *   and from the last history gap that no line within 5 s bridges.
 */
export type View = 'full' | 'context';

/** The active path: the lines of the conversation the user actually had, in conversation order. */
export interface ActivePath {
  /** Root → leaf; parallel tool results and sibling blocks put back after their response. */
  entries: Entry[];
  /** The line the walk started at (`undefined` for an empty or cleared session). */
  leaf: Entry | undefined;
  /** The members of `entries`. */
  onPath: EntrySet;
  /**
   * The `message.id` of each response that had lines put back after its last path line (a line of it
   * appended later moves them: the live watcher re-resolves then).
   */
  putBack: Set<string>;
  /**
   * Uuids the walk looked for and did not find (phantom parents, missing `logicalParentUuid`s): a line
   * appended later with one of them changes the walk (the live builder re-resolves then).
   */
  missing: Set<string>;
}

/**
 * The graph stage: resolves the active path of a session (seed, "The file adapter", step 2).
 *
 * Starts at the leaf (`pickLeaf`) and walks `parentUuid` to the root; rewound branches are never
 * reached, and a `/clear` (a root with `parentUuid: null`) stops the walk by itself. Along the way:
 * - a parent that was never written (a phantom) is bridged by Claude Code's 5-second timestamp
 *   fallback (`PHANTOM_PARENT`, info); else (`HISTORY_GAP`, warning) the `full` view goes on at the
 *   previous line in file order (history may be missing there; at the start of the files the walk
 *   stops), and the `context` view stops, as Claude Code's resume does (2.1.x: a Stop hook's progress
 *   rows naming a block that was never written end the resumed conversation there);
 * - a link back to a line already walked stops the walk (`CYCLE`);
 * - `full` view: a `compact_boundary` continues at its `logicalParentUuid`; where that was never
 *   written, at `compactMetadata.preservedSegment.tailUuid`, else at the previous non-sidechain line in
 *   file order (`COMPACT_PARENT_FALLBACK`, info), else it is the root (`COMPACT_PARENT_MISSING`);
 * - `context` view: the boundary is the root, after the preserved-messages relink (`relinkPreserved`).
 * Then the off-walk lines of parallel tool calls are put back (`recoverParallel`).
 *
 * @param index the graph index
 * @param checkpoints `last-prompt` leaf checkpoints in file order
 * @param view `full` or `context`
 * @param onDiagnostic receives the diagnostics above
 * @returns the active path
 */
export function resolveActivePath(
  index: GraphIndex,
  checkpoints: Checkpoint[],
  view: View,
  onDiagnostic: OnDiagnostic,
): ActivePath {
  const leaf = pickLeaf(index, checkpoints, onDiagnostic, view === 'full');
  const overrides = view === 'context' ? relinkPreserved(index, onDiagnostic) : new Map<string, string>();
  const visited = new EntrySet(index.ordered.length);
  const walked: Entry[] = [];
  const unfound = new Set<string>();
  const report = (code: DiagnosticCode, message: string, at: Entry): void => reportAt(onDiagnostic, code, message, at);

  const parentOf = (e: Entry): Entry | undefined => {
    const parent = (overrides.size === 0 ? undefined : overrides.get(e.uuid)) ?? e.parent;
    if (parent === null) return isCompactBoundary(e) && view === 'full' ? compactParent(e) : undefined;
    // most lines hang on the line before them: no lookup needed
    const previous = index.ordered[e.pos - 1];
    const found = previous !== undefined && previous.uuid === parent ? previous : index.byUuid.get(parent);
    if (found !== undefined) return found;
    unfound.add(parent);
    return phantomStandIn(index, e, parent, visited, view === 'full', onDiagnostic);
  };

  const compactParent = (boundary: Entry): Entry | undefined => {
    const record = boundary.record;
    const logical = record['logicalParentUuid'];
    const target = typeof logical === 'string' ? index.alias(logical) : null;
    const found = target === null ? undefined : index.byUuid.get(target);
    if (found !== undefined) return found;
    if (typeof logical === 'string') unfound.add(logical);
    const segment = (record['compactMetadata'] as { preservedSegment?: { tailUuid?: unknown } } | undefined)
      ?.preservedSegment;
    const tail = typeof segment?.tailUuid === 'string' ? index.byUuid.get(segment.tailUuid) : undefined;
    const stated =
      typeof logical === 'string' ? `logicalParentUuid ${logical} is not in the files` : 'no logicalParentUuid';
    if (tail !== undefined) {
      report('COMPACT_PARENT_FALLBACK', `${stated}; stitched to preservedSegment.tailUuid`, boundary);
      return tail;
    }
    const previous = findPreviousInFileOrder(index, boundary, visited);
    if (previous !== undefined) {
      report(
        'COMPACT_PARENT_FALLBACK',
        `${stated}; stitched to the previous line in file order, ${previous.uuid}`,
        boundary,
      );
      return previous;
    }
    report(
      'COMPACT_PARENT_MISSING',
      `${stated}, and nothing precedes the boundary: history before it is missing`,
      boundary,
    );
    return undefined;
  };

  for (let cur = leaf; cur !== undefined;) {
    visited.add(cur);
    walked.push(cur);
    const next = parentOf(cur);
    if (next !== undefined && visited.has(next)) {
      report('CYCLE', `parent link back to ${next.uuid}, already on the path; walk stopped`, cur);
      break;
    }
    cur = next;
  }
  const putBack = new Set<string>();
  return {
    entries: recoverParallel(walked.reverse(), index, visited, putBack),
    leaf,
    onPath: visited,
    putBack,
    missing: unfound,
  };
}
