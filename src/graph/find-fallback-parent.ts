import type { GraphIndex } from './build-index.ts';
import type { Entry } from './entry.ts';
import type { EntrySet } from './entry-set.ts';

/** Claude Code's window for bridging a phantom parent by time (transcript-format §8.1 step 6). */
export const PHANTOM_WINDOW_MS = 5000;

/**
 * How many lines back in file order a fallback looks. Bounds each search, so a file whose every
 * parent is missing (and whose clocks stand still or run backwards) still parses in linear time.
 */
export const FALLBACK_SCAN_LIMIT = 512;

/**
 * Claude Code's timestamp fallback for a parent that was never written: the closest line with the
 * same `isSidechain`, not already on the walk, written 0–5000 ms before `child` (looking back at most
 * `FALLBACK_SCAN_LIMIT` lines in file order).
 *
 * @param index the graph index
 * @param child the line whose parent is missing
 * @param visited entries already on the walk
 * @returns the stand-in parent, or `undefined`
 */
export function findTimeFallback(index: GraphIndex, child: Entry, visited: EntrySet): Entry | undefined {
  if (Number.isNaN(child.t)) return undefined;
  let best: Entry | undefined;
  for (let i = child.pos - 1; i >= 0 && i >= child.pos - FALLBACK_SCAN_LIMIT; i--) {
    const e = index.ordered[i];
    if (e === undefined) break;
    if (e.isSidechain !== child.isSidechain || visited.has(e) || Number.isNaN(e.t)) continue;
    const gap = child.t - e.t;
    if (gap > PHANTOM_WINDOW_MS * 4) break; // far enough back in file order: nothing closer remains
    if (gap >= 0 && gap <= PHANTOM_WINDOW_MS && (best === undefined || e.t > best.t)) best = e;
  }
  return best;
}

/**
 * The previous line in file order (within `FALLBACK_SCAN_LIMIT` lines) with the same `isSidechain` that
 * is not already on the walk: the
 * stand-in parent across a history gap (known-failures F9) and for a compaction whose
 * `logicalParentUuid` was never written (transcript-format §9, "full history").
 *
 * @param index the graph index
 * @param child the line to continue from
 * @param visited entries already on the walk
 * @returns the stand-in parent, or `undefined` at the start of the files
 */
export function findPreviousInFileOrder(index: GraphIndex, child: Entry, visited: EntrySet): Entry | undefined {
  for (let i = child.pos - 1; i >= 0 && i >= child.pos - FALLBACK_SCAN_LIMIT; i--) {
    const e = index.ordered[i];
    if (e !== undefined && e.isSidechain === child.isSidechain && !visited.has(e)) return e;
  }
  return undefined;
}
