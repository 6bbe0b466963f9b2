import { closeSync, readSync } from 'node:fs';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Atom } from '../model/types.ts';
import { openRegularSync } from '../read/open-regular.ts';
import { responsePlaces, responseRows } from '../rows/response-rows.ts';
import { sessionRows, type LinkedSubagent } from '../rows/session-rows.ts';
import { factsByTurn } from '../rows/usage-fact-rows.ts';
import { SessionBuilder } from '../session/session-builder.ts';
import { countedResponses, takeResponse, type Response } from '../usage/count-usage.ts';
import type { Database } from './database.ts';
import { changedTurns, linkedSubagents, type FilePlan, type FileRows } from './file-rows.ts';
import { pointOf, restartOf, type NoRestart, type Restart } from './restart.ts';

/** What `tailRows` made, or why the file is to be read whole. */
export type TailRows = FileRows | { reason: string };

/** Record types whose lines the tail cannot place as a whole read would: they are read whole. */
const WHOLE_TYPES: ReadonlyMap<string, string> = new Map([
  ['summary', 'a summary title'],
  ['last-prompt', 'a checkpoint'],
]);

/** Bytes read at a time. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * The rows of an appended transcript, read from its last turn on (docs/index.md, "Freshness"): the bytes from the last
 * turn's first line to `size` are fed to a `SessionBuilder` told what precedes them (`BuilderBase`, from the file's
 * restart), and its turns become the rows of the turns from the last one on, numbered after those before
 * (`RowContext.before`); the session row sums the turns before (the restart's totals) and these; the rows of no turn
 * are the index's own, kept as they are (their atoms' `seq` is past any turn's: `OFF_TURN_SEQ`). These are the rows a
 * whole read gives only when nothing before the tail takes part in it, which is checked, and when anything is in doubt
 * the reason is given instead (the caller reads the file whole): a session of several files or a subagent's, a restart
 * missing or not of the turns the index holds, a diagnostic (the index's or the tail's: a line hanging on an older one,
 * a rewind, a compaction, a broken line), a `summary` title or a checkpoint in the tail, a rewound line, a response or
 * stream subagent of no turn, turns sharing a response, the tail's first turn not the index's last, one of that turn's
 * atoms not in the tail, a tail atom, response or tool call the index holds in an earlier turn, a tool result whose
 * call is before the tail, a subagent transcript linked before to another call.
 * @param db the index
 * @param path the transcript
 * @param size its size, as stamped
 * @param plan its key and the turns the index holds (`planOf`)
 * @param json its restart (`restarts.restart_json`), if any
 * @returns its rows (with `tail` and the next restart), or why not
 */
export async function tailRows(
  db: Database,
  path: string,
  size: number,
  plan: FilePlan,
  json: string | undefined,
): Promise<TailRows> {
  if (plan.subagent) return { reason: "a subagent's transcript" };
  if (json === undefined || plan.old === undefined) return { reason: 'no restart point' };
  const restart = JSON.parse(json) as Restart | NoRestart;
  if ('none' in restart) return { reason: `no restart point: ${restart.none}` };
  const { point, totals, last: own, looseSidechain } = restart;
  const key = plan.old.key;
  const held = plan.old.turns.find((t) => t.key === point.turn);
  if (held === undefined || plan.old.turns.length !== totals.turns + 1 || !Array.isArray(looseSidechain))
    return { reason: 'a restart point not of the turns indexed' };

  const usage = new Map<string, Response>();
  const builder = new SessionBuilder({
    view: 'full',
    base: point,
    onRecord: (record, line, byteOffset) => takeResponse(record, path, line, byteOffset, usage, () => {}),
  });
  const diagnostics: Diagnostic[] = [];
  const on = (d: Diagnostic): void => {
    diagnostics.push(d);
  };
  builder.addFile(path, on);
  const { fd } = openRegularSync(path);
  try {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(0, size - point.byteOffset)));
    for (let at = point.byteOffset; at < size;) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - at), at);
      if (n === 0) break;
      builder.push(path, buffer.subarray(0, n), on);
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  const session = await builder.session(on);
  if (diagnostics.length > 0) return { reason: `a diagnostic in the tail (${(diagnostics[0] as Diagnostic).code})` };
  for (const r of session.records) {
    const what =
      WHOLE_TYPES.get(r.type) ??
      (r.subtype === 'compact_boundary' || r.subtype === 'microcompact_boundary' ? 'a compaction' : undefined) ??
      (r.onPath === false && r.isSidechain !== true && (r.type === 'user' || r.type === 'assistant')
        ? 'a rewound line'
        : undefined);
    if (what !== undefined) return { reason: `${what} in the tail` };
  }
  if (Object.keys(session.subagents ?? {}).length > 0) return { reason: 'a stream subagent in the tail' };
  if (session.turns[0]?.id !== point.turn) return { reason: "the tail's first turn is not the last indexed" };
  if (factsByTurn(session, key) === undefined) return { reason: 'turns sharing a response' };
  const atoms = new Set(session.turns.flatMap((t) => t.atoms.map((a) => a.uuid)));
  if (own.atoms.some((uuid) => !atoms.has(uuid))) return { reason: 'an atom of the last turn not in the tail' };
  /** Whether the index holds one of these keys in a turn before the tail's (or in none). */
  const before = (table: string, keys: Iterable<string>): boolean =>
    db.all(
      `SELECT 1 FROM ${table} WHERE session_key = ? AND key IN (SELECT value FROM json_each(?)) AND (turn_key IS NULL OR turn_key <> ?) LIMIT 1`,
      [key, JSON.stringify([...keys]), point.turn],
    ).length > 0;
  if (before('atoms', atoms)) return { reason: 'a tail atom indexed before' };

  const calls = new Set(session.turns.flatMap((t) => t.atoms.flatMap(toolUseIds)));
  const tailLinks = await linkedSubagents(session, key);
  const indexed = db
    .all("SELECT key, subagent_key, path, linked_by FROM subagents WHERE session_key = ? AND linked_by <> 'stream'", [
      key,
    ])
    .map((r) => ({
      tool_use_id: String(r['key']),
      key: String(r['subagent_key']),
      path: String(r['path']),
      by: r['linked_by'] as LinkedSubagent['by'],
    }))
    .filter((l) => !calls.has(l.tool_use_id));
  const linkedBefore = new Set(indexed.map((l) => l.path));
  if (tailLinks.some((l) => linkedBefore.has(l.path))) return { reason: 'a subagent transcript linked before' };
  const rows = sessionRows(
    { ...session, rompUuid: key },
    { diagnostics: [], branches: [], subagents: [...indexed, ...tailLinks], before: totals },
  );
  if (rows.tool_calls.some((c) => c.use_key === null)) return { reason: 'a tool result whose call is before the tail' };
  if (
    before(
      'tool_calls',
      rows.tool_calls.map((c) => c.key),
    )
  )
    return { reason: 'a tool call id used before' };
  const facts = responseRows(countedResponses(usage), () => key, responsePlaces(rows.atoms));
  if (facts.some((f) => f.turn_key === null)) return { reason: 'a response of no turn in the tail' };
  if (
    before(
      'usage_facts',
      facts.map((f) => f.key),
    )
  )
    return { reason: 'a response begun before the tail' };

  // the rows of no turn stay as the index holds them; countUsage's rule 3: a sidechain copy among them of a main-chain
  // response the tail holds is not counted
  const copied = new Set(looseSidechain);
  if (facts.some((f) => !f.is_sidechain && copied.has(f.message_id)))
    return { reason: 'a sidechain copy of a tail response' };
  rows.usage_facts = facts;

  const next = restartOf(pointOf(builder), session, key, rows, 0, { before: totals, looseSidechain });
  return {
    path,
    key,
    rows,
    // the turns before the tail are as the index holds them
    changed: [
      ...changedTurns(
        plan.old.turns.filter((t) => t.key === point.turn),
        session.turns,
      ),
    ],
    links: tailLinks,
    restart: next,
    // the old rows of the turns rewritten are found by their keys; those of no turn are kept
    tail: {
      bytes: size - point.byteOffset,
      previous: new Map([
        [point.turn, own],
        [null, { atoms: [], blocks: [], tool_calls: [], usage_facts: [] }],
      ]),
    },
  };
}

/** The ids of an atom's `tool_use` blocks. */
function toolUseIds(atom: Atom): string[] {
  return (atom.message?.content ?? []).flatMap((b) => {
    const { type, id } = b as { type: string; id?: unknown };
    return type === 'tool_use' && typeof id === 'string' ? [id] : [];
  });
}
