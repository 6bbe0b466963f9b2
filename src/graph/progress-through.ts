import type { GraphIndex } from './build-index.ts';
import { isCompactBoundary, type Entry } from './entry.ts';
import type { Checkpoint } from './pick-leaf.ts';
import type { ActivePath, View } from './resolve-active-path.ts';

/** The progress rows an active path runs through, and the one its last checkpoint names. */
export interface ProgressThrough {
  rows: Set<Entry>;
  /** The row the last checkpoint's `leafUuid` names when it resolves to the leaf (2.1.200+). */
  checkpointRow: Entry | undefined;
}

/**
 * Which progress rows the active path runs through (transcript-format §8.1: the graph bridges over
 * them): those a path line hangs on by its written `parentUuid` (`via`), a boundary by its
 * `logicalParentUuid` (`full` view), the leaf checkpoint by its `leafUuid`, and their progress
 * ancestors. Each is a record on the path (`onPath: true`).
 * @param index the graph index
 * @param path the active path
 * @param checkpoint the session's last checkpoint
 * @param view the view the path was resolved for
 * @returns the rows
 */
export function progressThrough(
  index: GraphIndex,
  path: ActivePath,
  checkpoint: Checkpoint | undefined,
  view: View,
): ProgressThrough {
  const rows = new Set<Entry>();
  const rowOf = (uuid: unknown): Entry | undefined => (typeof uuid === 'string' ? index.progress.get(uuid) : undefined);
  let checkpointRow: Entry | undefined;
  const leafUuid = checkpoint?.leafUuid;
  if (typeof leafUuid === 'string' && path.leaf !== undefined && index.alias(leafUuid) === path.leaf.uuid) {
    checkpointRow = rowOf(leafUuid);
    runThrough(rows, checkpointRow);
  }
  for (const entry of path.entries) {
    runThrough(rows, entry.via);
    if (view === 'full' && entry.parent === null && isCompactBoundary(entry))
      runThrough(rows, rowOf(entry.record['logicalParentUuid']));
  }
  return { rows, checkpointRow };
}

/**
 * Adds a progress row and its progress ancestors (`via`) to the rows run through.
 * @param rows the rows so far; updated
 * @param first the row a line hangs on
 * @param added receives each row that was not in `rows` yet
 */
export function runThrough(rows: Set<Entry>, first: Entry | undefined, added?: Entry[]): void {
  for (let row = first; row !== undefined && !rows.has(row); row = row.via) {
    rows.add(row);
    added?.push(row);
  }
}
