import type { Session } from '../model/types.ts';
import type { SessionRows } from '../rows/row-types.ts';
import { sessionTotals, type SessionTotals } from '../rows/session-rows.ts';
import { factsByTurn } from '../rows/usage-fact-rows.ts';
import type { RestartPoint } from '../session/session-builder.ts';
import { rowKeysByTurn, type RowKeys } from './write-rows.ts';

/**
 * What a new process needs to read a file's append from its last turn on (`tailRows`; the `restarts` table, JSON):
 * where the last turn's first line is and what the lines before it say (`SessionBuilder.restartPoint`), the session
 * row's sums over the turns before it (`sessionTotals`), the keys of the rows the index holds of the last turn, which a
 * tail's write deletes by key, and the `message.id`s of the sidechain responses of no turn (rewound lines), whose
 * copy on the main chain in the tail `countUsage` would count instead (its rule 3). The rows of no turn stay as they
 * are: their keys are not kept (a restart of a session with many rewound lines was 219 KB, written at each append).
 */
export interface Restart {
  point: RestartPoint;
  totals: SessionTotals;
  last: RowKeys;
  looseSidechain: string[];
}

/** Why a file has no restart (`restarts.restart_json` in its place): its next append is read whole, and says so. */
export interface NoRestart {
  none: string;
}

/**
 * The builder's restart point, or why it has none (`SessionBuilder.restartPoint`'s words).
 * @param builder the builder (or its watcher) the rows were made with
 * @returns the point, or the reason
 */
export function pointOf(builder: {
  restartPoint(refused: (why: string) => void): RestartPoint | undefined;
}): RestartPoint | string {
  let why = 'no restart point';
  return builder.restartPoint((w) => (why = w)) ?? why;
}

/**
 * A file's restart (JSON), made beside its rows: only for a session without diagnostics (a tail's would be numbered
 * after them, and the graph's said again), whose usage facts are made turn by turn (`factsByTurn`: no two turns share
 * a response or an atom, no stream subagents), whose last turn's rows are among `rows`, and which the builder can
 * restart (`point`).
 * @param point the builder's restart point, or why it has none (`pointOf`)
 * @param session the session the rows were made of
 * @param key the session's key
 * @param rows its rows (all, or at least its last turn's and those of no turn)
 * @param diagnostics how many diagnostics the session's rows hold
 * @param options `before`: the totals of turns before `session`'s (a tail); `looseSidechain`: the restart's, when
 * `rows` has none of no turn (a tail's: the index's are kept)
 * @returns the JSON of the `Restart`, or of why the next append is to be read whole (`NoRestart`)
 */
export function restartOf(
  point: RestartPoint | string,
  session: Session,
  key: string,
  rows: SessionRows,
  diagnostics: number,
  options: { before?: SessionTotals; looseSidechain?: string[] } = {},
): string {
  const none = (why: string): string => JSON.stringify({ none: why } satisfies NoRestart);
  if (typeof point === 'string') return none(point);
  if (diagnostics > 0) return none('a session with diagnostics');
  const last = session.turns.at(-1);
  // the last turn's keys: there when `rows` holds that turn
  const own = last === undefined || point.turn !== last.id ? undefined : rowKeysByTurn(rows).get(last.id);
  if (last === undefined || own === undefined) return none('a last turn of no rows');
  const parts = factsByTurn(session, key);
  if (parts === undefined) return none('turns sharing a response');
  const looseSidechain = options.looseSidechain ?? [
    ...new Set(rows.usage_facts.filter((f) => f.turn_key === null && f.is_sidechain).map((f) => f.message_id)),
  ];
  const restart: Restart = {
    point,
    totals: sessionTotals(session.turns.slice(0, -1), parts.slice(0, -1).flat(), options.before),
    last: own,
    looseSidechain,
  };
  return JSON.stringify(restart);
}
