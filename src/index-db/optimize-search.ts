import type { Database } from './database.ts';

/** Files added or read again from the start by one refresh from which `optimizeSearch` follows it: a first build, or
 * a large part of the folder; an append or a few new sessions leave FTS5's own merging to it. */
export const OPTIMIZE_AFTER_FILES = 100;

/**
 * Merges each full-text index into one segment (FTS5 `optimize`). A build writes a segment whenever a rowid goes back
 * (each file's blocks, each run of blocks moved by `blockIds`), and a query reads every segment: over the bench's
 * folder, one-word search CPU p95 31 ms before, 15 ms after; two words 55 ms before, 18 ms after; the merge 3.6 s of
 * CPU (567 MB of transcripts). The pages it frees stay in the file, reused by later writes.
 * @param db the index, outside a transaction (each index merged in its own)
 */
export function optimizeSearch(db: Database): void {
  for (const fts of ['blocks_fts', 'blocks_trigram'])
    db.transaction(() => db.run(`INSERT INTO ${fts}(${fts}) VALUES ('optimize')`));
}
