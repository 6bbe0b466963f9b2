import type { BlockRow, SessionRows } from '../rows/row-types.ts';
import { blockIds } from './block-ids.ts';
import type { Database, SqlValue } from './database.ts';
import type { SearchQueue } from './search-queue.ts';
import { ROW_TABLES, type RowTable } from './schema.ts';

/** Tables whose rows belong to one turn (`turn_key`); rows with no turn are rewritten with the session. */
const BY_TURN: ReadonlySet<RowTable> = new Set(['atoms', 'blocks', 'tool_calls', 'usage_facts']);

/** A table of {@link BY_TURN}. */
type TurnTable = 'atoms' | 'blocks' | 'tool_calls' | 'usage_facts';

/** The keys of the rows a turn has in each table of {@link BY_TURN}. */
export type RowKeys = Record<TurnTable, string[]>;

/** The keys of a session's rows in the index by turn key (`null`: the rows of no turn), as they were last written. */
export type RowKeysByTurn = Map<string | null, RowKeys>;

/** What of a session `writeSessionRows` replaces. */
export interface WriteScope {
  /** Keys of the turns that changed (new, grown, ended or gone); default all. */
  changed?: ReadonlySet<string>;
  /** The index holds no row of the session (a file new to it): nothing is deleted first. */
  fresh?: boolean;
  /** With `changed`: the index already holds the session's blocks of no turn as they are in `rows` (rewound
   * lines' text, unchanged since the last write): they and their full-text entries are kept, not rewritten. */
  looseBlocksKept?: boolean;
  /** With `changed`: the keys of every row the index holds of the session, by turn (`rowKeysByTurn` of what was
   * written before, kept by the caller): the rows of the changed turns and of no turn are then deleted by their keys,
   * not found among all the session's rows. */
  previous?: ReadonlyMap<string | null, RowKeys>;
}

/**
 * Writes one session's rows, replacing what the index held for it: every row when `changed` is
 * `undefined`; else only the turns whose keys it names (and, in `atoms`, `blocks`, `tool_calls` and
 * `usage_facts`, their rows and the rows of no turn, whose `seq` counts from `OFF_TURN_SEQ`), with the
 * session, subagent and diagnostic rows (the blocks of no turn kept with `looseBlocksKept`). Keeps `blocks_fts` and
 * `blocks_trigram` in step through `search`: the blocks written are pending in it, the full-text entries of those
 * deleted are taken out. Run it inside the caller's transaction.
 * @param search the running transaction's queue of full-text entries, with its connection (the index)
 * @param rows `sessionRows`' output (one session)
 * @param scope the turns changed, whether the session is new to the index
 * @returns how many rows were written
 */
export function writeSessionRows(search: SearchQueue, rows: SessionRows, scope: WriteScope = {}): number {
  const { db } = search;
  const { changed, fresh = false } = scope;
  const key = rows.sessions[0]?.key as string;
  const keep = changed !== undefined && scope.looseBlocksKept === true;
  const touched = (turnKey: string | null, table?: RowTable): boolean =>
    changed === undefined || (turnKey === null ? !(keep && table === 'blocks') : changed.has(turnKey));
  const inTurns =
    changed === undefined ? '' : ` AND (turn_key IS NULL OR turn_key IN (SELECT value FROM json_each(?)))`;
  const inBlocks = keep ? ' AND turn_key IN (SELECT value FROM json_each(?))' : inTurns;
  const turnsParam: SqlValue[] = changed === undefined ? [] : [JSON.stringify([...changed])];
  const previous = changed === undefined ? undefined : scope.previous;
  if (fresh) {
    // a session new to the index: nothing to delete
  } else if (previous !== undefined) removeByKeys(search, key, previous, [...(changed as ReadonlySet<string>)], keep);
  else {
    search.unindex(`session_key = ?${inBlocks}`, [key, ...turnsParam]);
    for (const table of ROW_TABLES) {
      if (table === 'turns' && changed !== undefined)
        db.run('DELETE FROM turns WHERE session_key = ? AND key IN (SELECT value FROM json_each(?))', [
          key,
          ...turnsParam,
        ]);
      else
        db.run(
          `DELETE FROM ${table} WHERE ${table === 'sessions' ? 'key' : 'session_key'} = ?${table === 'blocks' ? inBlocks : BY_TURN.has(table) ? inTurns : ''}`,
          [key, ...(BY_TURN.has(table) ? turnsParam : [])],
        );
    }
  }
  let written = 0;
  for (const table of ROW_TABLES) {
    const list = rows[table] as unknown as Array<Record<string, SqlValue> & { turn_key?: string | null; key: string }>;
    let kept = list.filter((row) =>
      table === 'turns' ? touched(row.key) : !BY_TURN.has(table) || touched(row.turn_key ?? null, table),
    );
    if (table === 'blocks') {
      const times = new Map(rows.atoms.map((a) => [a.key, a.t]));
      const ids = blockIds(search, kept as unknown as BlockRow[], times, rows.sessions[0]?.first_t ?? 0);
      kept = kept.map((row, i) => ({ id: ids[i] as number, ...row }));
      search.add(ids);
    }
    insertRows(db, table, kept);
    written += kept.length;
  }
  return written;
}

/**
 * The keys of the rows written for each turn (`null`: the rows of no turn), as `WriteScope.previous` takes them at the
 * next write: of the turns `changed` names (every turn without it) and of no turn (blocks kept with `looseBlocksKept`
 * are the same as those in `rows`).
 * @param rows what was written (`sessionRows`' output, one session)
 * @param scope what `writeSessionRows` was given
 * @returns the keys by turn; with `changed`, only of the turns written (a gone turn has none)
 */
export function rowKeysByTurn(rows: SessionRows, scope: WriteScope = {}): RowKeysByTurn {
  const keys: RowKeysByTurn = new Map();
  const of = (turnKey: string | null): RowKeys => {
    let k = keys.get(turnKey);
    if (k === undefined) keys.set(turnKey, (k = { atoms: [], blocks: [], tool_calls: [], usage_facts: [] }));
    return k;
  };
  const { changed } = scope;
  const written = (turnKey: string | null): boolean =>
    changed === undefined || (turnKey === null ? true : changed.has(turnKey));
  for (const t of rows.turns) if (written(t.key)) of(t.key);
  of(null);
  for (const table of BY_TURN as ReadonlySet<TurnTable>)
    for (const row of rows[table] as ReadonlyArray<{ key: string; turn_key: string | null }>)
      if (written(row.turn_key)) of(row.turn_key)[table].push(row.key);
  return keys;
}

/**
 * The keys of the rows the index holds of a session, by turn (`null`: the rows of no turn), read from its tables (as
 * bytes, NULs kept).
 * @param db the index
 * @param key the session's key
 * @returns the keys by turn, as `rowKeysByTurn` gives them of the rows written
 */
export function readRowKeys(db: Database, key: string): RowKeysByTurn {
  // as bytes: libsql hands a text back cut at its first NUL, which a key from a transcript can hold (a uuid written
  // `\u0000`; a usage fact's key of before parser revision 5, `id\0requestId`, held one)
  const keys = (table: string, columns: string): Array<Record<string, SqlValue>> =>
    db
      .all(`SELECT CAST(key AS BLOB) AS key${columns} FROM ${table} WHERE session_key = ?`, [key])
      .map((r) => ({ ...r, key: Buffer.from(r['key'] as Uint8Array).toString('utf8') }));
  return rowKeysByTurn({
    turns: keys('turns', ''),
    ...Object.fromEntries([...BY_TURN].map((t) => [t, keys(t, ', turn_key')])),
  } as unknown as SessionRows);
}

/** Deletes the rows of the changed turns and of no turn (their blocks too unless `keepLooseBlocks`) by their keys, and
 * the session's own rows (session, subagents, diagnostics). */
function removeByKeys(
  search: SearchQueue,
  key: string,
  previous: ReadonlyMap<string | null, RowKeys>,
  changed: readonly string[],
  keepLooseBlocks: boolean,
): void {
  const gone = (table: TurnTable): string =>
    JSON.stringify(
      [...changed, null].flatMap((t) =>
        t === null && table === 'blocks' && keepLooseBlocks ? [] : (previous.get(t)?.[table] ?? []),
      ),
    );
  const blocks = gone('blocks');
  const { db } = search;
  search.unindex('session_key = ? AND key IN (SELECT value FROM json_each(?))', [key, blocks]);
  for (const table of ROW_TABLES) {
    if (table === 'sessions') db.run('DELETE FROM sessions WHERE key = ?', [key]);
    else if (table === 'turns' || BY_TURN.has(table))
      db.run(`DELETE FROM ${table} WHERE session_key = ? AND key IN (SELECT value FROM json_each(?))`, [
        key,
        table === 'turns' ? JSON.stringify(changed) : table === 'blocks' ? blocks : gone(table as TurnTable),
      ]);
    else db.run(`DELETE FROM ${table} WHERE session_key = ?`, [key]);
  }
}

/**
 * Removes a session's rows from every table and from the full-text indexes.
 * @param search the running transaction's queue of full-text entries, with its connection (the index)
 * @param key the session's key
 */
export function removeSessionRows(search: SearchQueue, key: string): void {
  search.unindex('session_key = ?', [key]);
  for (const table of ROW_TABLES)
    search.db.run(`DELETE FROM ${table} WHERE ${table === 'sessions' ? 'key' : 'session_key'} = ?`, [key]);
}

/** Rows per `INSERT` statement: one call into SQLite per batch, not per row (a third of the time). */
const BATCH_ROWS = 50;

/** The text of each batch's `INSERT` by table, columns and rows: one string per statement, so the connection's cache
 * of prepared statements finds it without hashing a new string of every batch. */
const INSERTS = new Map<string, string>();

/** Inserts rows (`INSERT OR IGNORE`), batched by their columns: a batch runs while rows have the first one's columns
 * (every row of a table has the same ones). */
function insertRows(db: Database, table: string, rows: ReadonlyArray<Record<string, SqlValue>>): void {
  let i = 0;
  while (i < rows.length) {
    const columns = Object.keys(rows[i] as Record<string, SqlValue>);
    const sameColumns = (row: Record<string, SqlValue>): boolean => {
      let n = 0;
      for (const c in row) if (columns[n++] !== c) return false;
      return n === columns.length;
    };
    let j = i + 1;
    while (j < rows.length && j - i < BATCH_ROWS && sameColumns(rows[j] as Record<string, SqlValue>)) j++;
    const signature = `${table}\u0000${j - i}\u0000${columns.join('\u0000')}`;
    let sql = INSERTS.get(signature);
    if (sql === undefined) {
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      sql = `INSERT OR IGNORE INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${Array(j - i)
        .fill(tuple)
        .join(', ')}`;
      INSERTS.set(signature, sql);
    }
    const params: SqlValue[] = [];
    for (let r = i; r < j; r++) {
      const row = rows[r] as Record<string, SqlValue>;
      for (const c of columns) params.push(row[c] as SqlValue);
    }
    db.run(sql, params);
    i = j;
  }
}
