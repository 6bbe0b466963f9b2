import type { Database, SqlValue } from './database.ts';

/**
 * Takes the blocks matching `where` out of both full-text indexes (external content: their text is given back).
 * @param db the index
 * @param where a condition on `blocks`
 * @param params its parameters
 */
export function unindexBlocks(db: Database, where: string, params: SqlValue[]): void {
  const ids = `SELECT id FROM blocks WHERE ${where}`;
  db.run(
    `INSERT INTO blocks_fts(blocks_fts, rowid, typed, assistant, tools) SELECT 'delete', id, typed, assistant, tools FROM blocks_search WHERE id IN (${ids})`,
    params,
  );
  db.run(
    `INSERT INTO blocks_trigram(blocks_trigram, rowid, trigram_text) SELECT 'delete', id, trigram_text FROM blocks_search WHERE id IN (${ids})`,
    params,
  );
}
