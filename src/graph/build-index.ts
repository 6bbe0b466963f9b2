import { diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { CHAIN_TYPES, type Entry } from './entry.ts';

/**
 * The message graph of a session's files, indexed for the walk.
 *
 * `progress` rows are not in it: each is an alias for its nearest non-progress ancestor, and every
 * `parent` in the index is already bridged (transcript-format §8.1 step 2).
 */
export interface GraphIndex {
  /** Non-progress entries in file order, one per uuid. */
  ordered: Entry[];
  byUuid: Map<string, Entry>;
  /** Lines whose uuid another line already holds (fork copies, rewritten lines): kept as references. */
  duplicates: Entry[];
  /**
   * Progress rows by uuid (the first copy of a uuid written twice); their `parent` is as written
   * (`extendPath` adds the rows appended live).
   */
  progress: Map<string, Entry>;
  /**
   * Resolves a uuid written in a link (`parentUuid`, `logicalParentUuid`, a checkpoint) through
   * progress rows: the uuid itself when it is no progress row, else its nearest non-progress ancestor
   * (`null` when that chain ends at a root).
   */
  alias(uuid: string): string | null;
}

/**
 * Builds the graph index from every uuid-bearing line of a session.
 *
 * - A uuid written twice in one file: the later line's content wins, the first line's position is kept
 *   (Claude Code's loader, 2.1.112); `DUPLICATE_UUID` (info).
 * - A uuid in several files (resume or fork copies): the copy in the earliest file is the entry; the
 *   others are listed in `duplicates`, with no diagnostic: that is how forks are written.
 *
 * @param entries every uuid-bearing line (progress rows included), in the session's file order;
 *   `parent` holds the raw `parentUuid`
 * @param onDiagnostic receives `DUPLICATE_UUID`
 * @returns the index
 */
export function buildIndex(entries: Entry[], onDiagnostic: OnDiagnostic): GraphIndex {
  // one `set` a row (a `has` before each cost as much again: 62,080 rows in a 200 MiB session); a uuid
  // written twice shows as a size that did not grow, and then the rows are taken again, the first copy
  // of each uuid kept, as for lines
  const progress = new Map<string, Entry>();
  let copies = false;
  for (const e of entries) {
    if (e.type !== 'progress') continue;
    const size = progress.size;
    if (progress.set(e.uuid, e).size === size) copies = true;
  }
  if (copies) {
    progress.clear();
    for (const e of entries) if (e.type === 'progress' && !progress.has(e.uuid)) progress.set(e.uuid, e);
  }
  const memo = new Map<string, string | null>();
  // the nearest non-progress ancestor of a progress row (`null` when the chain ends at a root); sets the
  // `via` of each row it passes to the progress row above it
  const above = (row: Entry): string | null => {
    const up = row.parent;
    const upper = up === null ? undefined : progress.get(up);
    row.via = upper;
    if (upper === undefined) return up; // the common case, one progress row under a real line (or a root)
    let known = memo.get(row.uuid);
    if (known !== undefined) return known;
    const seen: Entry[] = [row];
    let end: string | null = null;
    for (let cur = upper; ;) {
      known = memo.get(cur.uuid);
      if (known !== undefined) break;
      if (seen.length > progress.size) {
        known = null; // a progress cycle ends as a root
        break;
      }
      seen.push(cur);
      const next = cur.parent === null ? undefined : progress.get(cur.parent);
      cur.via = next;
      if (next === undefined) {
        end = cur.parent;
        break;
      }
      cur = next;
    }
    const result = known !== undefined ? known : end;
    for (const s of seen) memo.set(s.uuid, result);
    return result;
  };
  const alias = (uuid: string): string | null => {
    const row = progress.get(uuid);
    return row === undefined ? uuid : above(row);
  };

  const byUuid = new Map<string, Entry>();
  const duplicates: Entry[] = [];
  const ordered: Entry[] = [];
  const merges: Array<[merged: Entry, line: Entry]> = [];
  for (const e of entries) {
    if (e.type === 'progress') continue;
    const first = byUuid.get(e.uuid);
    if (first === undefined) {
      byUuid.set(e.uuid, e);
      e.pos = ordered.push(e) - 1;
    } else if (first.fsid === e.fsid) {
      // a row of a type this reader does not know never replaces a message (known-failures F13)
      const replaces = CHAIN_TYPES.has(e.type) || !CHAIN_TYPES.has(first.type);
      const what = replaces ? "this later line's content is used" : `the earlier ${first.type} line is kept`;
      onDiagnostic(
        diagnostic('DUPLICATE_UUID', `uuid also on line ${first.line}; ${what}`, {
          file: e.file,
          line: e.line,
          byteOffset: e.byteOffset,
          uuid: e.uuid,
        }),
      );
      if (replaces) {
        const merged = movedEntry(e, first.seq, first.pos);
        merges.push([merged, e]);
        byUuid.set(e.uuid, merged);
        ordered[first.pos] = merged;
        first.pos = -1;
        duplicates.push(first);
      } else {
        e.pos = -1;
        duplicates.push(e);
      }
    } else {
      e.pos = -1; // a live re-resolve may find a line that was first before an earlier file came in
      duplicates.push(e);
    }
  }
  if (progress.size > 0) bridgeParents(entries, progress, byUuid, above, merges);

  return { ordered, byUuid, duplicates, progress, alias };
}

/**
 * A copy of a line at another place (a later line's content at its uuid's first position). A literal of an
 * entry's members in `collectFiles`' order, not a spread: a spread's copy has a shape (V8 map) of its own, and
 * code meeting it is compiled again for it.
 */
function movedEntry(e: Entry, seq: number, pos: number): Entry {
  const { uuid, parent, via, type, subtype, isSidechain, messageId, t, fsid, file, line, byteOffset, fileSeq } = e;
  const record = e.record;
  return {
    uuid,
    parent,
    via,
    type,
    subtype,
    isSidechain,
    messageId,
    t,
    fsid,
    file,
    line,
    byteOffset,
    seq,
    fileSeq,
    pos,
    record,
  };
}

/**
 * Points every parent that names a progress row at that row's nearest non-progress ancestor, keeping
 * the row in `via` (on a live re-resolve, `via` is pointed at the copy the index now keeps).
 * A parent that is the line just before (no progress row) needs no lookup, unless some progress row
 * shares its uuid with a line: then every parent is looked up, so the result never depends on which
 * lines happen to be adjacent.
 */
function bridgeParents(
  entries: Entry[],
  progress: Map<string, Entry>,
  byUuid: Map<string, Entry>,
  above: (row: Entry) => string | null,
  merges: Array<[merged: Entry, line: Entry]>,
): void {
  // the smaller map's keys looked up in the other
  const [fewer, more]: [Map<string, Entry>, Map<string, Entry>] =
    progress.size <= byUuid.size ? [progress, byUuid] : [byUuid, progress];
  let shared = false;
  for (const uuid of fewer.keys()) {
    if (more.has(uuid)) {
      shared = true;
      break;
    }
  }
  let before: Entry | undefined;
  for (const e of entries) {
    const previous = before;
    before = e;
    if (e.type === 'progress' || e.parent === null) continue;
    if (e.via !== undefined) {
      // bridged by an earlier resolve (live): the row kept may since be another file's earlier copy
      e.via = progress.get(e.via.uuid) ?? e.via;
      above(e.via);
      continue;
    }
    if (!shared && previous !== undefined && previous.type !== 'progress' && previous.uuid === e.parent) continue;
    const row = progress.get(e.parent);
    if (row === undefined) continue;
    e.via = row;
    e.parent = above(row);
  }
  for (const [merged, line] of merges) {
    merged.parent = line.parent;
    merged.via = line.via;
  }
}
