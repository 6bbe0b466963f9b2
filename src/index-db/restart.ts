import type { Session } from '../model/types.ts';
import type { SessionRows } from '../rows/row-types.ts';
import { sessionTotals, type SessionTotals } from '../rows/session-rows.ts';
import { factsByTurn } from '../rows/usage-fact-rows.ts';
import type { RestartPoint } from '../session/session-builder.ts';
import { rowKeysByTurn, type RowKeys } from './write-rows.ts';

/**
 * What a new process needs to read a file's append from its last turn on (`tailRows`; the `restarts` table, JSON):
 * where the last turn's first line is and what the lines before it say (`SessionBuilder.restartPoint`), the session
 * row's sums over the turns before it (`sessionTotals`), and the keys of the rows the index holds of the last turn and
 * of no turn (`null`: rewound lines, their blocks and responses), which a tail's write deletes by key.
 */
export interface Restart {
  point: RestartPoint;
  totals: SessionTotals;
  keys: Array<[string | null, RowKeys]>;
}

/**
 * A file's restart (JSON), made beside its rows: only for a session without diagnostics (a tail's would be numbered
 * after them, and the graph's said again), whose usage facts are made turn by turn (`factsByTurn`: no two turns share
 * a response or an atom, no stream subagents), whose last turn's rows are among `rows`, and which the builder can
 * restart (`point`).
 * @param point the builder's restart point
 * @param session the session the rows were made of
 * @param key the session's key
 * @param rows its rows (all, or at least its last turn's and those of no turn)
 * @param diagnostics how many diagnostics the session's rows hold
 * @param options `before`: the totals of turns before `session`'s (a tail); `loose`: the keys of the rows of no turn,
 * when `rows` lacks the blocks of no turn (kept by the write)
 * @returns the JSON, or `undefined` when the next append is to be read whole
 */
export function restartOf(
  point: RestartPoint | undefined,
  session: Session,
  key: string,
  rows: SessionRows,
  diagnostics: number,
  options: { before?: SessionTotals; loose?: RowKeys } = {},
): string | undefined {
  const last = session.turns.at(-1);
  if (point === undefined || diagnostics > 0 || last === undefined || point.turn !== last.id) return undefined;
  if (!rows.turns.some((t) => t.key === last.id)) return undefined;
  const parts = factsByTurn(session, key);
  if (parts === undefined) return undefined;
  const keys = rowKeysByTurn(rows);
  const loose = options.loose ?? keys.get(null);
  const own = keys.get(last.id);
  if (loose === undefined || own === undefined) return undefined;
  const restart: Restart = {
    point,
    totals: sessionTotals(session.turns.slice(0, -1), parts.slice(0, -1).flat(), options.before),
    keys: [
      [last.id, own],
      [null, loose],
    ],
  };
  return JSON.stringify(restart);
}
