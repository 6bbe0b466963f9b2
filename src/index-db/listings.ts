/**
 * What `romp ls` lists of each transcript, kept in the index (`listings`, docs/index.md) with the stamp
 * of the bytes it was read from: `romp ls` takes a file's listing from there only when the file still
 * has that stamp, and reads any other file the usual way (`fileListing`).
 */
import { basename, dirname } from 'node:path';
import { fileListing, type FileListing } from '../discover/list-claude-sessions.ts';
import type { Database } from './database.ts';
import type { FileStamp } from './file-stamp.ts';
import { refreshStamped, storedText, type StampedTable } from './stamped-rows.ts';

const LISTINGS: StampedTable = { table: 'listings', column: 'listing_json' };

/**
 * Brings `listings` in step with the files, in the caller's transaction (`refreshStamped`): a listing for
 * every transcript `romp ls` reads (`<project>/<name>.jsonl`: sessions and 2.0.x flat subagent files; not
 * the nested `subagents/` ones, which ls only names) whose listing is missing or was read from another
 * stamp than the file has now (a touched file counts: its mtime can be its last activity); listings of
 * files gone from `files` are removed. A file written while it was read keeps none (`romp ls` reads it
 * the usual way until the next refresh).
 * @param db the index, inside a write transaction
 * @param stamps each file's stamp, as the refresh just took it
 * @param recorded files whose stamp is the one `files` holds (`refreshStamped`)
 * @returns how many listings were written
 */
export async function refreshListings(
  db: Database,
  stamps: ReadonlyMap<string, FileStamp>,
  recorded?: ReadonlySet<string>,
): Promise<number> {
  const paths = db
    .all('SELECT path, project FROM files')
    .filter((row) => basename(dirname(String(row['path']))) === row['project'])
    .map((row) => String(row['path']));
  return refreshStamped(
    db,
    LISTINGS,
    paths,
    stamps,
    async (path) => {
      try {
        return JSON.stringify(await fileListing(path));
      } catch {
        return undefined; // unreadable now: romp ls reads it, and says so
      }
    },
    recorded,
  );
}

/**
 * The index's listings as `listClaudeSessions`' `stored`: a file's listing when the file has, now, the
 * stamp it was read from (`storedText`), else `undefined` (read it).
 * @param db the index (read-only is enough)
 * @returns the lookup
 */
export function storedListings(db: Database): (path: string) => Promise<FileListing | undefined> {
  const stored = storedText(db, LISTINGS);
  return async (path) => {
    const text = await stored(path);
    return text === undefined ? undefined : parseListing(text);
  };
}

/** A `listing_json` text as a listing (JSON has no NaN: a time not known was written as null). */
function parseListing(text: string): FileListing {
  const listing = JSON.parse(text) as FileListing;
  return { ...listing, first: listing.first ?? Number.NaN, last: listing.last ?? Number.NaN };
}
