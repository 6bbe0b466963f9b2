import { basename } from 'node:path';
import type { Diagnostic, OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { findSubagents } from '../discover/find-subagents.ts';
import { readBranches, type Branch } from '../html/read-branches.ts';
import { SessionWatcher } from '../live/session-watcher.ts';
import type { Session, Turn } from '../model/types.ts';
import { responsePlaces, responseRows, sessionPlaces } from '../rows/response-rows.ts';
import type { SessionRows } from '../rows/row-types.ts';
import { sessionRows, type LinkedSubagent } from '../rows/session-rows.ts';
import type { StampedReads } from './stamped-reads.ts';
import { pointOf, restartOf } from './restart.ts';
import type { RowKeysByTurn } from './write-rows.ts';
import { collectResponses, countedResponses, takeResponse, type Response } from '../usage/count-usage.ts';

/**
 * One transcript followed through the one parser: its watcher, the diagnostics of everything it read, the
 * usage lines grouped from the parse's own records (the file is read once), and the rewound branches last
 * read back (by how many dead lines there were).
 */
export interface WatchedFile {
  path: string;
  watcher: SessionWatcher;
  /** The diagnostics of the bytes read (decoding), in the order read. */
  diagnostics: Diagnostic[];
  /** Those of bringing the session up to date: the last full resolve's, then those of the lines stepped since. */
  sessionDiagnostics: Diagnostic[];
  /** Responses by de-dup key (`takeResponse`), of every record the watcher decoded. */
  usage: Map<string, Response>;
  branches?: { dead: number; list: Branch[] };
}

/** What the index compares of a turn to know whether it changed. */
export interface TurnStamp {
  key: string;
  atoms: number;
  end: number;
  ended: boolean;
}

/** What to make of one transcript's parse. */
export interface FilePlan {
  path: string;
  /** The session's key; default its rompUuid. */
  key?: string;
  /** A subagent's transcript: no subagents of its own are looked for. */
  subagent: boolean;
  /** When the file is a subagent's: its parent's key and the spawning call (`null`: no call links it). */
  parent?: { key: string; tool_use_id: string | null };
  /** The turns the index holds under `key`: when the session keeps that key, only the turns that differ are rows. */
  old?: { key: string; turns: TurnStamp[] };
}

/** One transcript's rows, ready to be written. */
export interface FileRows {
  path: string;
  key: string;
  rows: SessionRows;
  /** Keys of the turns that are new, changed or gone; `undefined`: every turn (a session new to the index). */
  changed?: string[];
  links: LinkedSubagent[];
  /** The file's listing and usage, when the thread that parsed it made them beside the parse (`parsedRows`). */
  stamped?: StampedReads;
  /** Where a new process can read the file's next append from (`restarts.restart_json`); none: read it whole then. */
  restart?: string;
  /** Made from the file's last turn on (`tailRows`): the bytes read, and the keys of the rows the index holds of the
   * turns rewritten (`rows` has none of no turn: the index's are kept as they are). */
  tail?: { bytes: number; previous: RowKeysByTurn };
}

/**
 * Starts following a transcript: a `SessionWatcher` (full view) whose records are also grouped into
 * usage responses as they are decoded.
 * @param path the transcript
 * @param onUsageDiagnostic receives the `BAD_USAGE` of the records grouped (`takeResponse`); default: dropped
 * @returns the state to pass to `fileRows` now and after each append
 */
export function watchFile(path: string, onUsageDiagnostic: OnDiagnostic = () => {}): WatchedFile {
  const usage = new Map<string, Response>();
  const watcher = new SessionWatcher([path], {
    view: 'full',
    onRecord: (record, line, byteOffset) => takeResponse(record, path, line, byteOffset, usage, onUsageDiagnostic),
  });
  return { path, watcher, diagnostics: [], sessionDiagnostics: [], usage };
}

/**
 * Reads what was appended to a followed transcript (all of it the first time) and makes its rows
 * (`sessionRows`): with `plan.old` under the same key only the turns that differ (and the rows of no
 * turn), else all. Usage facts are `romp usage`'s responses of the file (rewound branches and in-file
 * sidechain lines included), counted from the records the parse decoded; a file replaced under the
 * watcher (`FILE_REPLACED`) is counted again from its bytes.
 * @param entry the file's state (`watchFile`), updated
 * @param plan key, parent, what the index holds
 * @returns the rows and the subagent transcripts linked
 */
export async function fileRows(entry: WatchedFile, plan: FilePlan): Promise<FileRows> {
  const update = await entry.watcher.update();
  // a full resolve gives the whole session's graph diagnostics again: they replace the last one's (as one parse of the
  // same bytes gives them once, after the bytes' own)
  const resolved = new Set(update.sessionDiagnostics);
  const bytes = update.diagnostics.filter((d) => !resolved.has(d));
  entry.diagnostics.push(...bytes);
  if (update.resolution === 'full') entry.sessionDiagnostics = [...update.sessionDiagnostics];
  else entry.sessionDiagnostics.push(...update.sessionDiagnostics);
  if (update.diagnostics.some((d) => d.code === 'FILE_REPLACED')) {
    entry.usage.clear();
    for (const [k, r] of await collectResponses([entry.path])) entry.usage.set(k, r);
  }
  const session = update.session;
  const key = plan.key ?? session.rompUuid;
  const links = plan.subagent ? [] : await linkedSubagents(session, key);
  const dead = session.records.reduce((n, r) => n + (r.onPath === false ? 1 : 0), 0);
  if (entry.branches?.dead !== dead) entry.branches = { dead, list: (await readBranches(session)).branches };
  const changed = plan.old?.key === key ? changedTurns(plan.old.turns, session.turns) : undefined;
  const rows = sessionRows(
    { ...session, rompUuid: key },
    {
      diagnostics: [...entry.diagnostics, ...entry.sessionDiagnostics],
      branches: entry.branches.list,
      subagents: links,
      ...(plan.parent === undefined ? {} : { parent: plan.parent }),
      ...(changed === undefined ? {} : { onlyTurns: changed }),
    },
  );
  // a response on the path keeps its turn (also one of a turn whose rows are not made: it is neither made nor written)
  const places = changed === undefined ? responsePlaces(rows.atoms) : sessionPlaces(session);
  const counted = countedResponses(entry.usage);
  const facts =
    changed === undefined
      ? counted
      : counted.filter((r) => {
          const turn = places.get(`${r.messageId}\u0000${r.requestId ?? ''}`)?.turn_key ?? null;
          return turn === null || changed.has(turn);
        });
  rows.usage_facts = responseRows(facts, () => key, places);
  const restart = plan.subagent
    ? undefined
    : restartOf(pointOf(entry.watcher), session, key, rows, entry.diagnostics.length + entry.sessionDiagnostics.length);
  return {
    path: entry.path,
    key,
    rows,
    ...(changed === undefined ? {} : { changed: [...changed] }),
    links,
    ...(restart === undefined ? {} : { restart }),
  };
}

/**
 * The subagent transcripts linked to a session's calls (`findSubagents`), each keyed `<session key>/<file name>`.
 * @param session the session
 * @param key its key
 * @returns the links, in tool-call order
 */
export async function linkedSubagents(session: Session, key: string): Promise<LinkedSubagent[]> {
  return (await findSubagents(session)).map((l) => ({ ...l, key: `${key}/${basename(l.path, '.jsonl')}` }));
}

/**
 * Keys of turns that are new, gone, or whose atoms, end or `ended` differ from what the index holds.
 * @param old the turns the index holds
 * @param turns the session's turns
 * @returns their keys
 */
export function changedTurns(old: readonly TurnStamp[], turns: readonly Turn[]): Set<string> {
  const was = new Map(old.map((t) => [t.key, t]));
  const changed = new Set<string>();
  for (const t of turns) {
    const o = was.get(t.id);
    if (o === undefined || o.atoms !== t.atoms.length || o.end !== t.end || o.ended !== t.ended) changed.add(t.id);
    was.delete(t.id);
  }
  for (const gone of was.keys()) changed.add(gone);
  return changed;
}
