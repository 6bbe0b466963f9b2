/**
 * What `romp ls` lists of each transcript, kept in the index (`listings`, docs/index.md) with the stamp
 * of the bytes it was read from: `romp ls` takes a file's listing from there only when the file still
 * has that stamp, and reads any other file the usual way (`fileListing`).
 */
import { basename, dirname } from 'node:path';
import { continuedListing, fileListing, type FileListing } from '../discover/list-claude-sessions.ts';
import type { Database } from './database.ts';
import type { FileStamp } from './file-stamp.ts';
import { refreshStamped, storedText, type StampedRead, type StampedTable } from './stamped-rows.ts';

const LISTINGS: StampedTable = { table: 'listings', column: 'listing_json' };

/**
 * Brings `listings` in step with the files, in the caller's transaction (`refreshStamped`): a listing for
 * every transcript `romp ls` reads (`<project>/<name>.jsonl`: sessions and 2.0.x flat subagent files; not
 * the nested `subagents/` ones, which ls only names) whose listing is missing or was read from another
 * stamp than the file has now (a touched file counts: its mtime can be its last activity). A file written while it was
 * read keeps none (`romp ls` reads it the usual way until the next refresh).
 * @param db the index, inside a write transaction
 * @param stamps each file's stamp, as the refresh just took it
 * @param ready listings already read (`readStamped`, by the worker that parsed the file)
 * @param changed the files whose `files` rows the caller wrote (`refreshStamped`)
 * @returns how many listings were written
 */
export async function refreshListings(
  db: Database,
  stamps: ReadonlyMap<string, FileStamp>,
  ready?: ReadonlyMap<string, StampedRead>,
  changed?: ReadonlySet<string>,
): Promise<number> {
  return refreshStamped(db, LISTINGS, listedFile, stamps, listingText, ready, changed);
}

/**
 * Whether `romp ls` lists a transcript: one directly in its project folder (sessions, 2.0.x flat subagent files).
 * @param path the transcript
 * @param project its project folder's name
 */
export function listedFile(path: string, project: string): boolean {
  return basename(dirname(path)) === project;
}

/**
 * What `listings` keeps of a file: its listing as JSON.
 * @param path the transcript
 * @param prior the stored listing and the size it was read from, when the file only grew since: it is continued
 * over the new bytes (`continuedListing`) instead of read again whole
 * @returns the JSON, or `undefined` when the file cannot be read now (romp ls reads it, and says so)
 */
export async function listingText(path: string, prior?: { text: string; size: number }): Promise<string | undefined> {
  try {
    return JSON.stringify(
      prior === undefined
        ? await fileListing(path)
        : await continuedListing(path, parseListing(prior.text), prior.size),
    );
  } catch {
    return undefined;
  }
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
