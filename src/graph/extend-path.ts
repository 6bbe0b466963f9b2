import type { Diagnostic, OnDiagnostic } from '../diagnostics/diagnostic.ts';
import type { GraphIndex } from './build-index.ts';
import { CHAIN_TYPES, hasToolResult, isCompactBoundary, type Entry } from './entry.ts';
import { applyCheckpoint, lastLine, type Checkpoint } from './pick-leaf.ts';
import { runThrough, type ProgressThrough } from './progress-through.ts';
import { EntrySet } from './entry-set.ts';
import { phantomStandIn } from './find-fallback-parent.ts';
import type { ActivePath, View } from './resolve-active-path.ts';
import { resolveOpenResponse, type OpenResponse } from './resolve-open-response.ts';

/** What `extendPath` did with the appended lines. */
export interface PathExtension {
  /** Lines put on the active path, in path order: each after the path's last line. */
  onPath: Entry[];
  /** Lines of a chain type (or with a `parentUuid`) left off it: sidechain lines, rows of unknown types. */
  offPath: Entry[];
  /** The progress rows appended. */
  progress: Entry[];
  /** Progress rows the path runs through now and did not before. */
  through: Entry[];
  /** What the walk would say of them: a line whose parent was never written (`phantomStandIn`). */
  diagnostics: Diagnostic[];
  /**
   * Set when the open response's part of the path was resolved again (`resolveOpenResponse`): the index
   * in `ActivePath.entries` from which the entries changed; `onPath` then holds the appended lines only.
   */
  from?: number;
}

/** What `extendPath` knows besides the path. */
export interface ExtendContext {
  /** The session's last checkpoint, when the appends brought one. */
  checkpoint?: Checkpoint | undefined;
  /** Where the open response starts on the path, when known. */
  open?: OpenResponse | undefined;
  /** Uuids that an earlier line names as its parent (see `resolveOpenResponse`). */
  forward?: ReadonlySet<string>;
  /** The view the path was resolved for (default `full`). */
  view?: View | undefined;
}

/**
 * The graph stage for lines appended to the session's last file (the live builder's open turn): adds
 * them to the index and, where the one-shot resolution (`buildIndex`, `resolveActivePath`) would put
 * them after the path's last line, to the path, in place. Covers every line a running session appends:
 * a line hanging on the leaf (directly or over progress rows, which are indexed and bridged as
 * `buildIndex` bridges them), a tool result of a parallel call (it hangs on an earlier `tool_use` line of
 * the open response, whose lines are in file order and walked from its first), a sidechain line or a row
 * of an unknown type (off the path), a `last-prompt` checkpoint that leaves the leaf where it is, a line
 * whose parent was never written when the walk's stand-in for it is the leaf (a Stop hook's
 * `stop_hook_summary` over progress rows naming a block that was never written: `HISTORY_GAP` in the
 * `full` view, which goes on at the previous line).
 *
 * A line of the open response that moves the lines put back after it (a call hanging on an earlier
 * call's result, a result of a call that had lines put back) resolves that response's part of the path
 * again (`resolveOpenResponse`), when `open` says where it starts.
 *
 * Returns `undefined` when the path really changes (a rewind, a compaction, a line that is the
 * phantom parent of a walked one, a duplicate uuid, a checkpoint that moves the leaf, a line hanging
 * beside the leaf): the caller then resolves the session again, from a new index (what this already
 * changed in `index` and `path` is dropped with them).
 *
 * @param index the graph index; extended in place
 * @param path the active path; extended in place
 * @param through the progress rows the path runs through; extended in place
 * @param added the appended uuid-bearing lines, in file order, with `seq` set
 * @param context the session's last checkpoint when the appends brought one, where the open response
 *   starts, the uuids named as parent by an earlier line, the view
 * @returns what became of the lines, or `undefined`
 */
export function extendPath(
  index: GraphIndex,
  path: ActivePath,
  through: ProgressThrough,
  added: Entry[],
  context: ExtendContext = {},
): PathExtension | undefined {
  const { checkpoint, open, forward = new Set<string>(), view = 'full' } = context;
  const leaf = path.leaf;
  if (leaf === undefined || lastLine(index.ordered) !== leaf) return undefined;
  const out: PathExtension = { onPath: [], offPath: [], progress: [], through: [], diagnostics: [] };
  /**
   * A line moved lines put back, or lines put back follow the leaf (a line after it would go before
   * them): the rest are indexed only, and the open response resolved again.
   */
  let moved = path.entries.at(-1) !== leaf;
  if (moved && open === undefined) return undefined;
  for (const e of added) {
    if (index.progress.has(e.uuid) || index.byUuid.has(e.uuid) || path.missing.has(e.uuid)) return undefined;
    if (e.type === 'progress') {
      index.progress.set(e.uuid, e);
      out.progress.push(e);
      continue;
    }
    // bridged over progress rows as `buildIndex` bridges
    const row = e.parent === null ? undefined : index.progress.get(e.parent);
    if (row !== undefined) {
      e.via = row;
      e.parent = index.alias(row.uuid);
    }
    e.pos = index.ordered.push(e) - 1;
    index.byUuid.set(e.uuid, e);
    if (moved) continue;
    const tip = path.leaf as Entry;
    if (!CHAIN_TYPES.has(e.type) || (e.isSidechain && !tip.isSidechain)) {
      out.offPath.push(e); // never the leaf; a line hanging on it later is no extension
      continue;
    }
    if (isCompactBoundary(e) || e.isSidechain !== tip.isSidechain) return undefined;
    const extends_ =
      e.parent === tip.uuid || standIn(index, path, e, view, out.diagnostics) === tip
        ? e.messageId === undefined || !path.putBack.has(e.messageId)
        : parallelResult(index, path, e);
    if (!extends_) {
      if (open === undefined) return undefined;
      moved = true;
      continue;
    }
    path.entries.push(e);
    path.onPath.add(e);
    path.leaf = e;
    out.onPath.push(e);
    runThrough(through.rows, e.via, out.through);
  }
  if (moved) {
    if (
      open === undefined ||
      checkpoint !== undefined ||
      out.offPath.length > 0 ||
      !resolveOpenResponse(index, path, open, forward)
    )
      return undefined;
    out.onPath = added.filter((e) => e.type !== 'progress');
    out.from = open.at;
    for (const e of out.onPath) runThrough(through.rows, e.via, out.through);
    return out;
  }
  if (checkpoint !== undefined) {
    if (through.checkpointRow !== undefined) return undefined; // what it ran through may be dropped
    let said = false;
    const quiet: OnDiagnostic = () => {
      said = true;
    };
    if (applyCheckpoint(index, checkpoint, path.leaf, quiet) !== path.leaf || said) return undefined;
    const leafUuid = checkpoint.leafUuid;
    if (typeof leafUuid === 'string' && index.alias(leafUuid) === path.leaf?.uuid) {
      through.checkpointRow = index.progress.get(leafUuid);
      runThrough(through.rows, through.checkpointRow, out.through);
    }
  }
  return out;
}

/**
 * The line the walk goes on at from a line whose parent was never written (`phantomStandIn`: within
 * 5 s, else in the `full` view the previous line in file order), its diagnostic kept in `said` and its
 * parent in `path.missing` (a line written later with that uuid changes the walk); `undefined` for a
 * line whose parent is written, or a root.
 */
function standIn(index: GraphIndex, path: ActivePath, e: Entry, view: View, said: Diagnostic[]): Entry | undefined {
  if (e.parent === null || index.byUuid.has(e.parent)) return undefined;
  path.missing.add(e.parent);
  return phantomStandIn(index, e, e.parent, new EntrySet(), view === 'full', (d) => said.push(d));
}

/**
 * Whether a tool result hanging on an earlier line of the open response goes after the path's last
 * line, as `recoverParallel` would put it: the response's lines (its first assistant line on, with the
 * tool results among them) are in file order, the result hangs on one of its assistant lines, and the
 * walk from there up to the response's first line passes exactly its first lines. Then the walk from
 * the result keeps those, every other line of the response is put back after them in file order, as now,
 * and the result is last; the response is one that had lines put back.
 */
function parallelResult(index: GraphIndex, path: ActivePath, e: Entry): boolean {
  const parent = e.parent === null ? undefined : index.byUuid.get(e.parent);
  if (
    parent === undefined ||
    parent.type !== 'assistant' ||
    parent.messageId === undefined ||
    !hasToolResult(e) ||
    !path.onPath.has(parent)
  )
    return false;
  const mid = parent.messageId;
  const entries = path.entries;
  let start = entries.length;
  while (start > 0) {
    const x = entries[start - 1] as Entry;
    if (!((x.type === 'assistant' && x.messageId === mid) || hasToolResult(x))) break;
    start--;
  }
  while (start < entries.length && (entries[start] as Entry).messageId !== mid) start++;
  const group = entries.slice(start);
  for (let i = 1; i < group.length; i++) if ((group[i] as Entry).pos <= (group[i - 1] as Entry).pos) return false;
  const members = new Set(group);
  if (!members.has(parent)) return false;
  const chain: Entry[] = [];
  for (
    let cur: Entry | undefined = parent;
    cur !== undefined && members.has(cur);
    cur = cur.parent === null ? undefined : index.byUuid.get(cur.parent)
  ) {
    chain.push(cur);
    if (chain.length > group.length) return false;
  }
  chain.reverse();
  for (let i = 0; i < chain.length; i++) if (chain[i] !== group[i]) return false;
  if (chain.length < group.length) path.putBack.add(mid);
  return true;
}
