import type { OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { buildIndex, type GraphIndex } from '../graph/build-index.ts';
import { holdsToolResult, type Entry } from '../graph/entry.ts';
import { progressThrough, type ProgressThrough } from '../graph/progress-through.ts';
import { resolveActivePath, type ActivePath, type View } from '../graph/resolve-active-path.ts';
import type { OpenResponse } from '../graph/resolve-open-response.ts';
import type { Atom, RecordRef, Session, Turn } from '../model/types.ts';
import { fillTimes } from '../model/time.ts';
import { finishTurns, foldTurns, type TurnEndMarker, type TurnsState } from '../tree/build-turns.ts';
import type { ResolvePeer } from '../tree/derive-author.ts';
import { absorbedLine, pathItem } from '../tree/path-item.ts';
import type { AtomContext } from '../tree/to-atom.ts';
import type { Collected } from './collect-files.ts';
import { colorOf } from '../model/color-of.ts';
import { queuedPrompts, type QueuedPrompt, type QueueReplay } from './queued-prompts.ts';
import { holdShape } from '../model/hold-shape.ts';
import { inlineSidechains } from './inline-sidechains.ts';

/** Options of building a session from collected lines. */
export interface BuildOptions {
  /** `full` (default) or `context`: see `View`. */
  view?: View | undefined;
  /** The session's identity; default: the `sessionId` of the first record read. */
  rompUuid?: string | undefined;
  /** Looks up the sender of a postal message; default: none known (`peer: null`). */
  resolvePeer?: ResolvePeer;
}

/**
 * Builds the Session from what `collectFiles` read: graph (index, active path), atoms, order, turns.
 *
 * Order: the active path's (root → leaf, parallel lines put back after their response), which is the
 * order Claude Code's loader and the Agent SDK reader rebuild. The seed orders by timestamp; real files
 * disagree with their own chains (a caveat stamped after the command it precedes, a notification
 * 15 ms before the interrupt it follows), and sorting by time moved such lines into other turns, so
 * the chain wins. A line without a usable timestamp takes the previous atom's time.
 *
 * @param collected the session's lines
 * @param options view, rompUuid, postal lookup
 * @param onDiagnostic receives the graph stage's diagnostics
 * @returns the session
 */
export function buildSession(collected: Collected, options: BuildOptions, onDiagnostic: OnDiagnostic): Session {
  return buildSessionState(collected, options, onDiagnostic).session;
}

/** A built session with the graph and turn-builder state it came from, for the live builder to go on from. */
export interface SessionState {
  session: Session;
  index: GraphIndex;
  path: ActivePath;
  turns: TurnsState;
  /** The progress rows the path runs through. */
  through: ProgressThrough;
  /** The reference of each progress row, by its entry (marked on the path when the path comes to run through it). */
  progressRefs: ProgressRefs;
  /** No generated atom can move or be dropped by a line appended later (`QueuedPrompts.sealed`; true without any). */
  generatedSealed: boolean;
  /** The queue replay that generated them (none when the session had no queue operation). */
  replay: QueueReplay | undefined;
  /**
   * While generated atoms float at the end (their request not answered yet): the turn state before
   * them, the replay's count then, the leaf then, and the path lines since, with their items.
   */
  floating:
    | {
        base: TurnsState;
        from: number;
        leaf: Entry | undefined;
        tail: Array<{ entry: Entry; item: Atom | TurnEndMarker | undefined }>;
      }
    | undefined;
  /** Whether any atom had a time of its own (else all took 0, and a later time would change them). */
  timesKnown: boolean;
  rompUuid: string;
  /** The `summary` title of the path line nearest the leaf. */
  summary: string | undefined;
  collected: Collected;
  /** The `message.id`s of the path's assistant lines. */
  pathMids: Set<string>;
  /** Uuids a line names as its parent that are written after it, or never (`resolveOpenResponse`). */
  forward: Set<string>;
  /** Where the open response starts, with what the session was before it (set by the live builder). */
  open: OpenTurnStart | undefined;
}

/** The state before the open response's first line, to step its lines again from when they move. */
export interface OpenTurnStart {
  response: OpenResponse;
  turns: TurnsState;
  summary: string | undefined;
  dir: string;
  gitBranch: string | undefined;
  /** The queue replay's count of generated prompts then. */
  generated: number;
}

/**
 * `buildSession`, keeping the graph index, the active path and the turn builder's state.
 * @param collected the session's lines
 * @param options view, rompUuid, postal lookup
 * @param onDiagnostic receives the graph stage's diagnostics
 * @param seen the keys of queued prompts generated before the first line (`QueueBase.seen`: a builder fed from a base)
 * @returns the session and its state
 */
export function buildSessionState(
  collected: Collected,
  options: BuildOptions,
  onDiagnostic: OnDiagnostic,
  seen: readonly string[] = [],
): SessionState {
  const view = options.view ?? 'full';
  const index = buildIndex(collected.entries, onDiagnostic);
  const path = resolveActivePath(index, collected.checkpoints, view, onDiagnostic);
  const rompUuid = sessionUuid(collected, options);
  const ctx = { rompUuid, resolvePeer: options.resolvePeer ?? (() => null) };

  const records: RecordRef[] = [...collected.refs];
  const queued =
    collected.queue.length === 0
      ? { prompts: [], sealed: true, replay: undefined }
      : queuedPrompts(collected.queue, collected.entries, index, path.onPath, rompUuid, seen);
  const generated = queued.prompts;
  const through = progressThrough(index, path, collected.checkpoints[collected.checkpoints.length - 1], view);
  const { turns, finished, timesKnown, dir, gitBranch } = pathTurns(path.entries, ctx, generated, records);

  const progressRefs = offPathRecords(collected, index, path, through, records);
  const pathMids = new Set<string>();
  for (const e of path.entries) if (e.messageId !== undefined) pathMids.add(e.messageId);
  const forward = forwardParents(index);

  const leaf = path.leaf;
  const summary = summaryFor(path.entries, collected);
  const name = sessionName(collected, summary);
  const color = colorOf(rompUuid);
  const leafFsid = leaf?.fsid ?? collected.files[collected.files.length - 1]?.fsid ?? '';
  const files = collected.files;
  // one literal per shape (a spread member makes the members after it map transitions: see `refOf`)
  const session: Session =
    gitBranch === undefined
      ? { rompUuid, name, dir, color, leafFsid, turns: finished, files, records }
      : { rompUuid, name, dir, gitBranch, color, leafFsid, turns: finished, files, records };
  const sidechains = inlineSidechains(index.ordered, path.onPath, finished, ctx);
  return {
    session: sidechains === undefined ? session : { ...session, sidechains },
    index,
    path,
    turns,
    through,
    progressRefs,
    generatedSealed: queued.sealed,
    replay: queued.replay,
    floating: undefined,
    timesKnown,
    rompUuid,
    summary,
    collected,
    pathMids,
    forward,
    open: undefined,
  };
}

/** What `pathTurns` gives. */
interface PathTurns {
  /** The turn builder's state after the path's last item. */
  turns: TurnsState;
  /** The session's turns. */
  finished: Turn[];
  /** Whether any atom had a time of its own. */
  timesKnown: boolean;
  /** The `cwd` of the path line nearest the leaf that has one, or `""`. */
  dir: string;
  gitBranch: string | undefined;
}

/**
 * The tree stage over the active path: its items (atoms and turn ends) with the generated atoms among them
 * and every atom timed, folded into turns; the references of the path lines that give no atom; the path's
 * folder and branch. A function of its own, called once a session: it reads the records and the atoms,
 * whose shapes (V8 maps) `JSON.parse` and the atoms' optional members make anew each parse and the
 * collector drops after it, so the code compiled for them is thrown away then; compiled inside
 * `buildSessionState`, it took the whole function with it, to be compiled again (180 ms of V8's compiler
 * threads a corpus pass).
 * @param entries the active path
 * @param ctx the session's rompUuid and postal lookup
 * @param generated the generated atoms (queue replay)
 * @param records the session's references; updated
 * @returns the turns, whether any atom had a time of its own, the path's `cwd` and `gitBranch`
 */
function pathTurns(entries: Entry[], ctx: AtomContext, generated: QueuedPrompt[], records: RecordRef[]): PathTurns {
  // for each line a generated atom follows: how many path items come up to it
  const slot = new Map<Entry, number>(generated.map((g) => [g.after, 0]));
  const items: Array<Atom | TurnEndMarker> = [];
  const absorbed = new Set<string>();
  for (const entry of entries) {
    const item = pathItem(entry, ctx);
    if (item === undefined || item.type === 'turn_end') records.push(refOf(entry, true));
    if (item !== undefined) {
      items.push(item);
      if (item.type !== 'turn_end' && absorbedLine(entry)) absorbed.add(item.uuid);
    }
    if (slot.has(entry)) slot.set(entry, items.length);
  }
  placeGenerated(items, slot, generated, absorbed);
  const timesKnown = items.some((i) => !Number.isNaN(i.t));
  fillTimes(items);
  const turns = foldTurns(items, 'stop_reason', absorbed);
  return {
    turns,
    finished: finishTurns(turns, ctx.rompUuid),
    timesKnown,
    dir: lastString(entries, 'cwd') ?? '',
    gitBranch: lastString(entries, 'gitBranch'),
  };
}

/**
 * Adds the references of the lines off the path, of the progress rows and of the duplicates to the session's
 * references, then sorts them all in file order (file rank, then line).
 * @param collected the session's lines
 * @param index the graph index
 * @param path the active path
 * @param through the progress rows the path runs through
 * @param records the session's references so far; updated
 * @returns each progress row's reference
 */
function offPathRecords(
  collected: Collected,
  index: GraphIndex,
  path: ActivePath,
  through: ProgressThrough,
  records: RecordRef[],
): ProgressRefs {
  const progressRefs = new ProgressRefs();
  for (const e of index.ordered) if (!path.onPath.has(e)) records.push(refOf(e, false));
  for (const e of collected.entries) {
    if (e.type !== 'progress') continue;
    const ref = refOf(e, through.rows.has(e));
    records.push(ref);
    progressRefs.add(e, ref);
  }
  for (const e of index.duplicates) records.push(refOf(e, false));
  // file rank, then line: one numeric key each (a comparator looking ranks up would do it n log n times);
  // one file's records by line alone, with no key objects (the sort is stable either way)
  if (collected.files.length <= 1) records.sort((a, b) => a.line - b.line);
  else {
    const rank = new Map(collected.files.map((f, i) => [f.fsid, i]));
    const keyed = records.map((r) => ({ key: (rank.get(r.fsid) ?? 0) * 4294967296 + r.line, r }));
    keyed.sort((a, b) => a.key - b.key);
    for (let i = 0; i < keyed.length; i++) records[i] = (keyed[i] as { r: RecordRef }).r;
  }
  return progressRefs;
}

/**
 * Uuids a line names as its parent that are written after it, or never (`SessionState.forward`).
 * @param index the graph index
 * @returns the uuids
 */
function forwardParents(index: GraphIndex): Set<string> {
  const forward = new Set<string>();
  for (let i = 0; i < index.ordered.length; i++) {
    const e = index.ordered[i] as Entry;
    // a parent that is the line before is written before it: no lookup
    if (e.parent === null || (i > 0 && (index.ordered[i - 1] as Entry).uuid === e.parent)) continue;
    const parent = index.byUuid.get(e.parent);
    if (parent === undefined || parent.pos > e.pos) forward.add(e.parent);
  }
  return forward;
}

/**
 * The reference of each progress row, by its entry: kept as two lists and made a map only when a live
 * update first asks (`get`), so that a one-shot parse pays no hashing for them (62,080 rows in a 200 MiB
 * session: a `Map` of them cost 40–60 ms and 3 MB).
 */
export class ProgressRefs {
  readonly #rows: Entry[] = [];
  readonly #refs: RecordRef[] = [];
  #byRow: Map<Entry, RecordRef> | undefined;

  /**
   * Adds a row's reference.
   * @param row the progress row
   * @param ref its reference
   */
  add(row: Entry, ref: RecordRef): void {
    if (this.#byRow !== undefined) this.#byRow.set(row, ref);
    else {
      this.#rows.push(row);
      this.#refs.push(ref);
    }
  }

  /**
   * A row's reference.
   * @param row a progress row
   * @returns its reference, or `undefined` for a row never added
   */
  get(row: Entry): RecordRef | undefined {
    if (this.#byRow === undefined) {
      this.#byRow = new Map();
      for (let i = 0; i < this.#rows.length; i++) this.#byRow.set(this.#rows[i] as Entry, this.#refs[i] as RecordRef);
      this.#rows.length = 0;
      this.#refs.length = 0;
    }
    return this.#byRow.get(row);
  }
}

holdShape(new ProgressRefs());

/**
 * Puts generated atoms among the path's items, in place: each after the line it follows and the tool
 * results the path puts right after it (parallel results come back in path order, which file order need
 * not match); inserted from the last place to the first, so the places still to fill keep their counts,
 * and atoms sharing a place keep their order. Each is absorbed (never an opener).
 * @param items the path's items; updated
 * @param slot for each line a generated atom follows, how many items come up to it (a line not in it: the end)
 * @param generated the generated atoms
 * @param absorbed uuids of absorbed atoms; updated
 */
export function placeGenerated(
  items: Array<Atom | TurnEndMarker>,
  slot: ReadonlyMap<Entry, number>,
  generated: QueuedPrompt[],
  absorbed: Set<string>,
): void {
  const placed = generated.map(({ atom, after }) => {
    let at = slot.get(after) ?? items.length;
    while (at < items.length && isToolResult(items[at] as Atom | TurnEndMarker)) at++;
    return { at, atom };
  });
  for (const { at, atom } of placed.toReversed().sort((a, b) => b.at - a.at)) {
    items.splice(at, 0, atom);
    absorbed.add(atom.uuid);
  }
}

/**
 * The session's identity: the one given, else the `sessionId` of the first record read, else the first file's fsid.
 * @param collected the session's lines
 * @param options the `rompUuid` given
 * @returns the rompUuid
 */
export function sessionUuid(collected: Collected, options: BuildOptions): string {
  return options.rompUuid ?? collected.firstSessionId ?? collected.files[0]?.fsid ?? '';
}

/**
 * The session's name: its last custom title, else its last AI title, else the path's `summary` title.
 * @param collected the titles
 * @param summary the path's summary title
 * @returns the name, or `""`
 */
export function sessionName(collected: Collected, summary: string | undefined): string {
  return collected.customTitle?.text ?? collected.aiTitle?.text ?? summary ?? '';
}

/**
 * The reference kept for a uuid-bearing line that is not an atom.
 * @param e the line
 * @param onPath whether it lies on the active path
 * @returns the reference
 */
export function refOf(e: Entry, onPath: boolean): RecordRef {
  // one literal per shape, no member added later: a member added is a map transition that the collector
  // drops with the last such object, and code compiled for it is thrown away with it (recompiled each pass)
  const { fsid, line, byteOffset, type, uuid, subtype } = e;
  if (subtype === undefined) {
    return e.isSidechain
      ? { fsid, line, byteOffset, type, uuid, onPath, isSidechain: true }
      : { fsid, line, byteOffset, type, uuid, onPath };
  }
  return e.isSidechain
    ? { fsid, line, byteOffset, type, uuid, onPath, subtype, isSidechain: true }
    : { fsid, line, byteOffset, type, uuid, onPath, subtype };
}

function isToolResult(item: Atom | TurnEndMarker): boolean {
  return item.type === 'user' && holdsToolResult((item as Atom).message?.content);
}

/**
 * The `summary` title keyed by the path line nearest the leaf (Claude Code ≤2.1.20 titles).
 * @param path the active path
 * @param collected the summaries
 * @returns the title's text, or `undefined`
 */
export function summaryFor(path: Entry[], collected: Collected): string | undefined {
  if (collected.summaries.size === 0) return undefined;
  for (let i = path.length - 1; i >= 0; i--) {
    const title = collected.summaries.get(path[i]?.uuid ?? '');
    if (title !== undefined) return title.text;
  }
  return undefined;
}

/**
 * A string field (`cwd`, `gitBranch`) of the path line nearest the leaf that has it.
 * @param path the active path
 * @param field the record's field
 * @returns its value, or `undefined` when no line of the path has it
 */
export function lastString(path: Entry[], field: 'cwd' | 'gitBranch'): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const value = path[i]?.record[field];
    if (typeof value === 'string') return value;
  }
  return undefined;
}
