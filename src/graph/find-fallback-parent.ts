import { diagnostic, type DiagnosticCode, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
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

/**
 * Reports a diagnostic of the graph stage at a line.
 * @param onDiagnostic receives it
 * @param code its code
 * @param message its text
 * @param at the line: file, line, byte offset and uuid
 */
export function reportAt(onDiagnostic: OnDiagnostic, code: DiagnosticCode, message: string, at: Entry): void {
  onDiagnostic(diagnostic(code, message, { file: at.file, line: at.line, byteOffset: at.byteOffset, uuid: at.uuid }));
}

/**
 * Where the walk goes on from a line whose parent was never written (a phantom): Claude Code's 5-second
 * timestamp fallback (`PHANTOM_PARENT`, info); else (`HISTORY_GAP`, warning) with `history` (the `full`
 * view) the previous line in file order, without it (the `context` view, as Claude Code's resume) nowhere.
 * The one decision for the whole walk (`resolveActivePath`) and for a line appended live (`extendPath`).
 * @param index the graph index
 * @param e the line
 * @param parent the uuid it names (its `parent`, or a relinked one)
 * @param visited entries already on the walk
 * @param history whether to go on at the previous line in file order
 * @param onDiagnostic receives the diagnostics above
 * @returns the stand-in parent, or `undefined` (the walk stops)
 */
export function phantomStandIn(
  index: GraphIndex,
  e: Entry,
  parent: string,
  visited: EntrySet,
  history: boolean,
  onDiagnostic: OnDiagnostic,
): Entry | undefined {
  // reached over progress rows (bridged): the row that names the missing parent is not this line
  const missing =
    e.via !== undefined && parent === e.parent
      ? `parent ${parent} (reached through progress row ${e.via.uuid}, this line's parent)`
      : `parent ${parent}`;
  const near = findTimeFallback(index, e, visited);
  if (near !== undefined) {
    const message = `${missing} was never written; bridged to ${near.uuid}, ${e.t - near.t} ms earlier`;
    reportAt(onDiagnostic, 'PHANTOM_PARENT', message, e);
    return near;
  }
  // the context view resumes what Claude Code resumes: its walk has no fallback beyond the 5 s one
  const stand = history ? findPreviousInFileOrder(index, e, visited) : undefined;
  reportAt(
    onDiagnostic,
    'HISTORY_GAP',
    stand !== undefined
      ? `${missing} was never written; continuing at the previous line in file order, ${stand.uuid}`
      : history
        ? `${missing} was never written; history before this line is missing`
        : `${missing} was never written; the resumed conversation starts at this line`,
    e,
  );
  return stand;
}
