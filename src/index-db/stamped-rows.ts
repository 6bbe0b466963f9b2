/**
 * Rows the index keeps per transcript with the stamp of the bytes they were read from (`listings`,
 * `usage_files`: docs/index.md): written by a refresh for a file whose row is missing or stale, taken by
 * a reader only while the file still has that stamp.
 */
import { isAbsolute, resolve } from 'node:path';
import type { Database, SqlValue } from './database.ts';
import { grewFrom, stampFile, statMatches, type FileStamp } from './file-stamp.ts';
import { jsonRows } from './json-rows.ts';
import { PARSER_VERSION } from './parser-version.ts';
import { SCHEMA_VERSION } from './schema.ts';

/** The stamp's columns a `stat` gives (`statMatches`), then its hashes (`stampFile`). */
const STAT_STAMP = ['dev', 'ino', 'size', 'mtime_ms'] as const;
const STAMP = [...STAT_STAMP, 'head_hash', 'tail_hash'] as const;

/** The columns of a stamped table: `path`, the stamp's, and one of what was read (`listing_json`, `usage_json`). */
export interface StampedTable {
  table: 'listings' | 'usage_files';
  column: 'listing_json' | 'usage_json';
  /** Stores what was read beside the row (in the caller's transaction) and gives the column's text; default: the text
   * read, as it is. */
  store?: (db: Database, path: string, text: string) => string;
}

/**
 * Brings a stamped table in step with the files, in the caller's transaction: for each file of `files` to keep a row
 * of (`keep`) whose row is missing or has another stamp than its `files` row (a touched file counts), found in SQLite
 * by one join, `read(path)` is stored with the stamp taken just before it read, and only when the file still has that
 * stamp after: a file written meanwhile is left to the next refresh. The rows of a file gone from `files` are removed
 * with it (`refreshIndex`). A refresh that leaves every row in step says so (`meta`: `in_step:TABLE`, with the schema
 * and parser versions), and the next one that knows which `files` rows it wrote (`changed`) joins only those: with
 * nothing changed, two joins over 5,001 files were 14 ms of a 100 ms refresh.
 * @param db the index, inside a write transaction
 * @param at the table and its value column
 * @param keep whether a file (its path, its project folder's name) has a row in the table
 * @param stamps each file's stamp, as the refresh just took it (the stamp its `files` row holds); a file without
 * one (under a folder that cannot be read, gone since the walk, unreadable) is left as it is
 * @param read what to store of a file (text), or `undefined` to store nothing (it could not be read); given the
 * stored text and the size it was read from when the file only grew since (`grewFrom`): the reader may then
 * read only the bytes after that size
 * @param ready reads already made (`readStamped`, in the worker that parsed the file): stored as they are
 * @param changed the files whose `files` rows the caller wrote since the last call (default: any may have changed)
 * @returns how many rows were written
 */
export async function refreshStamped(
  db: Database,
  { table, column, store }: StampedTable,
  keep: (path: string, project: string) => boolean,
  stamps: ReadonlyMap<string, FileStamp>,
  read: (path: string, prior?: { text: string; size: number }) => Promise<string | undefined>,
  ready: ReadonlyMap<string, StampedRead> = new Map(),
  changed?: ReadonlySet<string>,
): Promise<number> {
  const flag = `in_step:${table}`;
  const version = `${SCHEMA_VERSION} ${PARSER_VERSION}`;
  const wasInStep = db.all('SELECT value FROM meta WHERE key = ?', [flag])[0]?.['value'] === version;
  const only = changed !== undefined && wasInStep;
  // a file whose row has the stamp its `files` row holds is in step
  const check = jsonRows(
    db,
    ['f.path', 'f.project'],
    `FROM files f LEFT JOIN ${table} t ON t.path = f.path AND t.parser_version = ? AND ${STAMP.map((c) => `t.${c} = f.${c}`).join(' AND ')} WHERE t.path IS NULL${only ? ' AND f.path IN (SELECT value FROM json_each(?))' : ''}`,
    [PARSER_VERSION, ...(only ? [JSON.stringify([...changed])] : [])],
  )
    .filter(([path, project]) => keep(String(path), String(project)))
    .map(([path]) => String(path));
  const kept = new Map(
    db
      .all(
        `SELECT path, parser_version, ${STAMP.join(', ')} FROM ${table} WHERE path IN (SELECT value FROM json_each(?))`,
        [JSON.stringify(check)],
      )
      .map((r) => [String(r['path']), r]),
  );
  let written = 0;
  let inStep = true;
  for (const path of check) {
    const now = stamps.get(path);
    const row = kept.get(path);
    // a file not stamped now (under a folder that cannot be read) keeps its row, in step or not
    if (now === undefined) inStep = false;
    if (now === undefined || sameStamp(now, row)) continue;
    const got =
      ready.get(path) ??
      (await readStamped(path, async (before) => {
        // a row another romp read is read again whole, never continued
        const was =
          row === undefined || row['parser_version'] !== PARSER_VERSION
            ? undefined
            : (Object.fromEntries(STAMP.map((c) => [c, row[c]])) as unknown as FileStamp);
        const grew = was !== undefined && (await grewFrom(path, was, before));
        // the stored text only of a file that grew (the others' would be read for nothing)
        const text = grew ? db.all(`SELECT ${column} FROM ${table} WHERE path = ?`, [path])[0]?.[column] : undefined;
        return read(path, text === undefined ? undefined : { text: String(text), size: (was as FileStamp).size });
      }));
    // not read, or read from bytes written since the refresh stamped the file: in step with no `files` row
    if (got === undefined || !stampsEqual(got.stamp, now)) inStep = false;
    if (got === undefined) continue;
    db.run(
      `INSERT OR REPLACE INTO ${table} (path, ${STAMP.join(', ')}, ${column}, parser_version) VALUES (?, ${STAMP.map(() => '?').join(', ')}, ?, ?)`,
      [path, ...STAMP.map((c) => got.stamp[c] as SqlValue), store?.(db, path, got.text) ?? got.text, PARSER_VERSION],
    );
    written++;
  }
  if (inStep !== wasInStep)
    db.run(inStep ? 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)' : 'DELETE FROM meta WHERE key = ?', [
      flag,
      ...(inStep ? [version] : []),
    ]);
  return written;
}

/** What a reader made of a file, and the stamp the file had both before and after it read. */
export interface StampedRead {
  stamp: FileStamp;
  text: string;
}

/**
 * Reads something of a file between two stamps: kept only when the file had the same stamp after the read as
 * before (a file written meanwhile gives nothing: it is read again by the next refresh).
 * @param path the file
 * @param read what to keep of it (text), or `undefined` when it could not be read; given the stamp taken before
 * @returns the text and the stamp, or `undefined`
 */
export async function readStamped(
  path: string,
  read: (before: FileStamp) => Promise<string | undefined>,
): Promise<StampedRead | undefined> {
  const before = await stampFile(path);
  if (before === undefined) return undefined;
  const text = await read(before);
  const after = await stampFile(path);
  return text === undefined || after === undefined || !stampsEqual(before, after) ? undefined : { stamp: before, text };
}

/**
 * Whether two stamps of a file say the same bytes (device, inode, size, mtime, hashes of its first and last bytes):
 * what was read between them was read of those bytes.
 * @param before the stamp taken before a read
 * @param after the one taken after it
 */
export function stampsEqual(before: FileStamp, after: FileStamp): boolean {
  return STAMP.every((c) => after[c] === before[c]);
}

/** Whether a stored row holds this stamp and was read by this romp (`PARSER_VERSION`). */
function sameStamp(stamp: FileStamp, row: Readonly<Record<string, unknown>> | undefined): boolean {
  return row !== undefined && row['parser_version'] === PARSER_VERSION && STAMP.every((c) => stamp[c] === row[c]);
}

/**
 * A transcript's path as the index keeps it: absolute (`refreshIndex` walks the resolved folder), for a reader that
 * walks a folder named relative to here.
 * @param path the path as the reader has it
 * @returns the path of its rows
 */
export function indexedPath(path: string): string {
  return isAbsolute(path) ? path : resolve(path);
}

/**
 * A stamped table as a lookup: a file's stored text when the file has, now, the stamp it was read from, else
 * `undefined` (read the file). One query of what the `stat` path needs; then per file asked for, a `stat` when its
 * row's stamp is the one `files` records with a settled ctime (`statMatches`: the file is not opened), else a stamp
 * (device, inode, size, mtime, hashes of its first 4 KiB and last 64 bytes: `stampFile`) compared with its row read
 * again whole. (The hashes are left out of the one query: over 3,000 listings they were a sixth of `romp ls`'s CPU
 * time with the index, for the few files whose `stat` is not the recorded one.)
 * @param db the index (read-only is enough), open while the lookup is used
 * @param at the table and its value column
 * @returns the lookup
 */
export function storedText(
  db: Database,
  { table, column }: StampedTable,
): (path: string) => Promise<string | undefined> {
  const rows = new Map(
    db
      .all(
        `SELECT t.path, t.parser_version, ${STAT_STAMP.map((c) => `t.${c}`).join(', ')}, t.${column}, f.ctime_ms AS files_ctime_ms,
          coalesce(${STAMP.map((c) => `f.${c} = t.${c}`).join(' AND ')}, 0) AS as_files
          FROM ${table} t LEFT JOIN files f ON f.path = t.path`,
      )
      .map((r) => [String(r['path']), r]),
  );
  return async (path) => {
    const row = rows.get(indexedPath(path)); // the path asked for, under its stored name
    if (row === undefined || row['parser_version'] !== PARSER_VERSION) return undefined;
    const recorded = {
      dev: Number(row['dev']),
      ino: Number(row['ino']),
      size: Number(row['size']),
      mtime_ms: Number(row['mtime_ms']),
      ctime_ms: Number(row['files_ctime_ms'] ?? -1),
    };
    if (row['as_files'] === 1 && statMatches(path, recorded)) return String(row[column]);
    const stamp = await stampFile(path);
    if (stamp === undefined) return undefined;
    const whole = db.all(`SELECT * FROM ${table} WHERE path = ?`, [row['path'] as string])[0];
    return sameStamp(stamp, whole) ? String(whole?.[column]) : undefined;
  };
}
