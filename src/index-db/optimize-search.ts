import type { Database } from './database.ts';

/** Files added or read again from the start by one refresh from which `optimizeSearch` follows it: a first build, or
 * a large part of the folder; an append or a few new sessions leave FTS5's own merging to it. */
export const OPTIMIZE_AFTER_FILES = 100;

/**
 * Merges each full-text index into one segment (FTS5 `optimize`). FTS5 writes a segment whenever a rowid goes back, at
 * the end of each `INSERT … SELECT` and at each commit, and a query reads every segment. When each file's entries were
 * made with it: over the bench's folder, one-word search CPU p95 31 ms before, 15 ms after; two words 55 ms before, 18
 * ms after; the merge 3.6 s of CPU (567 MB of transcripts). With the entries made before each commit in id order
 * (`SearchQueue`): 8 and 5 segments left, the merge 0.9 s, a part of a word's p95 4.1–5.8 ms before, 3.1–3.3 ms after,
 * one or two words within the noise (docs/index.md, "Schema"). The pages it frees stay in the file, reused by later
 * writes.
 * @param db the index, outside a transaction (each index merged in its own)
 */
export function optimizeSearch(db: Database): void {
  for (const fts of ['blocks_fts', 'blocks_trigram'])
    db.transaction(() => db.run(`INSERT INTO ${fts}(${fts}) VALUES ('optimize')`));
}
