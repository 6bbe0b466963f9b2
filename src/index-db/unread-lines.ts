import type { Database } from './database.ts';

/** A transcript some of whose lines the index could not read (an error diagnostic of a line: `INVALID_JSON`,
 * `NOT_AN_OBJECT`, `LINE_TOO_LONG`): its rows leave those lines out. */
export interface UnreadLines {
  path: string;
  /** The lines that could not be read. */
  lines: number;
  /** Their diagnostic codes, sorted, each once. */
  codes: string[];
}

/**
 * The files among `paths` whose lines the index could not read, from its `diagnostics` rows (docs/diagnostics.md):
 * what `romp index` names after reading them, so that no line is left out in silence.
 * @param db the index
 * @param paths the transcripts to look at (those a refresh read: `RefreshReport.read`)
 * @returns one entry per such file, by path
 */
export function unreadLines(db: Database, paths: readonly string[]): UnreadLines[] {
  if (paths.length === 0) return [];
  return db
    .all(
      `SELECT file, count(*) AS n, group_concat(DISTINCT code) AS codes FROM diagnostics
       WHERE severity = 'error' AND line IS NOT NULL AND file IN (SELECT value FROM json_each(?)) GROUP BY file ORDER BY file`,
      [JSON.stringify(paths)],
    )
    .map((r) => ({ path: String(r['file']), lines: Number(r['n']), codes: String(r['codes']).split(',').sort() }));
}
