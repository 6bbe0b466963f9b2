/**
 * What `romp ls` lists of each transcript, kept in the index (`listings`, docs/index.md) with the stamp
 * of the bytes it was read from: `romp ls` takes a file's listing from there only when the file still
 * has that stamp, and reads any other file the usual way (`fileListing`).
 */
import { basename, dirname } from 'node:path';
import { fileListing, type FileListing } from '../discover/list-claude-sessions.ts';
import type { Database, SqlValue } from './database.ts';
import { stampFile, type FileStamp } from './file-stamp.ts';

const STAMP = ['dev', 'ino', 'size', 'mtime_ms', 'head_hash', 'tail_hash'] as const;

/**
 * Brings `listings` in step with the files, in the caller's transaction: a listing for every transcript
 * `romp ls` reads (`<project>/<name>.jsonl`: sessions and 2.0.x flat subagent files; not the nested
 * `subagents/` ones, which ls only names) whose listing is missing or was read from another stamp
 * than the file has now (a touched file counts: its mtime can be its last activity); listings of
 * files gone from `files` are removed. Each listing is stored with the stamp taken just before it was
 * read, and only when the file still has that stamp after: a file written meanwhile is left to the
 * next refresh (`romp ls` reads it the usual way until then).
 * @param db the index, inside a write transaction
 * @param stamps each file's stamp, as the refresh just took it
 * @returns how many listings were written
 */
export async function refreshListings(db: Database, stamps: ReadonlyMap<string, FileStamp>): Promise<number> {
  db.run('DELETE FROM listings WHERE path NOT IN (SELECT path FROM files)');
  const listed = new Map(db.all(`SELECT path, ${STAMP.join(', ')} FROM listings`).map((r) => [String(r['path']), r]));
  let written = 0;
  for (const row of db.all('SELECT path, project FROM files')) {
    const path = String(row['path']);
    const now = stamps.get(path);
    if (basename(dirname(path)) !== row['project'] || now === undefined || sameStamp(now, listed.get(path))) continue;
    const before = await stampFile(path);
    if (before === undefined) continue;
    let listing: FileListing;
    try {
      listing = await fileListing(path);
    } catch {
      continue; // unreadable now: romp ls reads it, and says so
    }
    const after = await stampFile(path);
    if (after === undefined || !sameStamp(after, before)) continue;
    db.run(
      `INSERT OR REPLACE INTO listings (path, ${STAMP.join(', ')}, listing_json) VALUES (?, ${STAMP.map(() => '?').join(', ')}, ?)`,
      [path, ...STAMP.map((c) => before[c] as SqlValue), JSON.stringify(listing)],
    );
    written++;
  }
  return written;
}

/** Whether a stamp is the one a row (a listing's, another stamp) holds. */
function sameStamp(stamp: FileStamp, row: Readonly<Record<string, unknown>> | FileStamp | undefined): boolean {
  return row !== undefined && STAMP.every((c) => stamp[c] === (row as Record<string, unknown>)[c]);
}

/**
 * The index's listings as `listClaudeSessions`' `stored`: a file's listing when the file has, now, the
 * stamp it was read from (device, inode, size, mtime, hashes of its first 4 KiB and last 64 bytes:
 * `stampFile`), else `undefined` (read it). One query, then a stamp per file asked for.
 * @param db the index (read-only is enough)
 * @returns the lookup
 */
export function storedListings(db: Database): (path: string) => Promise<FileListing | undefined> {
  const rows = new Map(db.all('SELECT * FROM listings').map((r) => [String(r['path']), r]));
  return async (path) => {
    const row = rows.get(path);
    if (row === undefined) return undefined;
    const stamp = await stampFile(path);
    if (stamp === undefined || !sameStamp(stamp, row)) return undefined;
    const listing = JSON.parse(String(row['listing_json'])) as FileListing;
    // JSON has no NaN: a time not known was written as null
    return { ...listing, first: listing.first ?? Number.NaN, last: listing.last ?? Number.NaN };
  };
}
