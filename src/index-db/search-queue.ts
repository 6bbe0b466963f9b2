import type { Database, SqlValue } from './database.ts';

/** The full-text indexes, each with the columns of `blocks_search` it holds. */
const INDEXES = [
  { table: 'blocks_fts', columns: 'typed, assistant, tools' },
  { table: 'blocks_trigram', columns: 'trigram_text' },
] as const;

/**
 * The full-text entries of the blocks written in the running transaction, made just before it commits (`flush`), all at
 * once in id order: FTS5 writes its pending terms into a new segment whenever a rowid goes back (each file's first
 * block id is mostly below the one before's last) and at the end of each `INSERT … SELECT`, and merges segments later.
 * Every block row is, at any time, either in both full-text indexes under its id or pending here: a pending block moved
 * by `blockIds` or deleted needs no full-text delete (its entries were never made: deleting them from an
 * external-content FTS5 table corrupts it); a block of an earlier transaction does. One queue per write transaction; a
 * rollback drops it.
 */
export class SearchQueue {
  /** The connection, in its write transaction. */
  readonly db: Database;
  /** Ids (`blocks.id`) of the blocks written since the last flush, not yet in the full-text indexes. */
  private readonly pending = new Set<number>();

  constructor(db: Database) {
    this.db = db;
  }

  /**
   * Blocks just written (`blocks.id`): their entries are made at the next `flush`.
   * @param ids their ids
   */
  add(ids: Iterable<number>): void {
    for (const id of ids) this.pending.add(id);
  }

  /**
   * Takes the blocks matching `where` out of both full-text indexes, before their rows are deleted: those pending out
   * of the queue, the others' entries deleted (external content: their text is given back, from `blocks_search`).
   * @param where a condition on `blocks`
   * @param params its parameters
   */
  unindex(where: string, params: SqlValue[]): void {
    if (this.pending.size === 0) {
      unindexBlocks(this.db, `SELECT id FROM blocks WHERE ${where}`, params);
      return;
    }
    const indexed: number[] = [];
    for (const row of this.db.all(`SELECT id FROM blocks WHERE ${where} ORDER BY id`, params)) {
      const id = Number(row['id']);
      if (!this.pending.delete(id)) indexed.push(id);
    }
    if (indexed.length > 0) unindexBlocks(this.db, 'SELECT value FROM json_each(?)', [JSON.stringify(indexed)]);
  }

  /**
   * Blocks about to get new ids (`[old, new]`, each old id a block's, no new id another's after the move): a pending
   * one is pending under its new id, the others' entries are deleted under their old ids (call it before the rows'
   * `UPDATE`) and made again under the new at the next `flush`.
   * @param moves the old and new ids
   */
  move(moves: ReadonlyArray<readonly [number, number]>): void {
    // every old id out before any new one in: a new id may be another moved block's old one
    const indexed = moves.filter(([o]) => !this.pending.delete(o)).map(([o]) => o);
    if (indexed.length > 0) unindexBlocks(this.db, 'SELECT value FROM json_each(?)', [JSON.stringify(indexed)]);
    this.add(moves.map(([, n]) => n));
  }

  /** Makes the full-text entries of every pending block, in id order, and empties the queue: before each commit of the
   * transaction, and before anything reads the full-text indexes in it. */
  flush(): void {
    if (this.pending.size === 0) return;
    const ids = JSON.stringify([...this.pending].sort((a, b) => a - b));
    for (const { table, columns } of INDEXES)
      this.db.run(
        `INSERT INTO ${table}(rowid, ${columns}) SELECT id, ${columns} FROM blocks_search WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
        [ids],
      );
    this.pending.clear();
  }
}

/** Deletes the full-text entries of the blocks whose ids `ids` (a query) gives, in both indexes. */
function unindexBlocks(db: Database, ids: string, params: SqlValue[]): void {
  for (const { table, columns } of INDEXES)
    db.run(
      `INSERT INTO ${table}(${table}, rowid, ${columns}) SELECT 'delete', id, ${columns} FROM blocks_search WHERE id IN (${ids})`,
      params,
    );
}
