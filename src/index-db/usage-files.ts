/**
 * What `romp usage` reads of each transcript, kept in the index (`usage_files`, docs/index.md) with the
 * stamp of the bytes it was read from: the file's response groups before the cross-file merge
 * (`collectFileResponses`) and the diagnostics that reader gave. `romp usage` takes them from there only
 * while the file still has that stamp, and reads any other file the usual way.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { collectFileResponses, type FileUsage, type Response } from '../usage/count-usage.ts';
import type { Database } from './database.ts';
import type { FileStamp } from './file-stamp.ts';
import { refreshStamped, storedText, type StampedRead, type StampedTable } from './stamped-rows.ts';

const USAGE_FILES: StampedTable = { table: 'usage_files', column: 'usage_json' };

/** `usage_json`: the groups as `[key, response]` pairs, in the order the reader made them, and its diagnostics;
 * `next`, the number of the line after the last one read (none for a UTF-16 file: read whole again). */
interface StoredUsage {
  groups: Array<[string, Response]>;
  diagnostics: Diagnostic[];
  next?: number;
}

/**
 * Brings `usage_files` in step with the files, in the caller's transaction (`refreshStamped`): every
 * transcript in `files` whose row is missing or was read from another stamp is read again with the
 * byte-level usage reader; a file that could not be read (`FILE_UNREADABLE`) or was written while it
 * was read keeps no row (`romp usage` reads it, and says so).
 * @param db the index, inside a write transaction
 * @param stamps each file's stamp, as the refresh just took it
 * @param ready usage already read (`readStamped`, by the worker that parsed the file)
 * @param recorded files whose stamp is the one `files` holds (`refreshStamped`)
 * @returns how many rows were written
 */
export async function refreshUsageFiles(
  db: Database,
  stamps: ReadonlyMap<string, FileStamp>,
  ready?: ReadonlyMap<string, StampedRead>,
  recorded?: ReadonlySet<string>,
): Promise<number> {
  const paths = db.all('SELECT path FROM files').map((row) => String(row['path']));
  return refreshStamped(db, USAGE_FILES, paths, stamps, usageText, ready, recorded);
}

/**
 * What `usage_files` keeps of a file: its response groups and diagnostics (`collectFileResponses`) as JSON.
 * @param path the transcript
 * @param prior the stored text and the size it was read from, when the file only grew since: the reader goes on
 * from where it stopped (the same JSON as a read of the whole file)
 * @returns the JSON, or `undefined` when the file could not be read (`FILE_UNREADABLE`)
 */
export async function usageText(path: string, prior?: { text: string; size: number }): Promise<string | undefined> {
  // a file that only grew: its groups and diagnostics so far, and the reader goes on from where it stopped
  const was = prior === undefined ? undefined : parseUsage(prior.text);
  const from = was?.next === undefined ? undefined : { start: (prior as { size: number }).size, firstLine: was.next };
  const groups = from === undefined ? new Map<string, Response>() : (was as FileUsage).groups;
  const diagnostics = from === undefined ? [] : (was as FileUsage).diagnostics;
  const next = await collectFileResponses(path, groups, (d) => diagnostics.push(d), from);
  if (diagnostics.some((d) => d.code === 'FILE_UNREADABLE')) return undefined;
  return JSON.stringify({
    groups: [...groups],
    diagnostics,
    ...(next === undefined ? {} : { next }),
  } satisfies StoredUsage);
}

/** A `usage_json` text as its groups (JSON has no NaN: a time not known was null), diagnostics and next line. */
function parseUsage(text: string): FileUsage & { next?: number } {
  const { groups, diagnostics, next } = JSON.parse(text) as StoredUsage;
  for (const [, r] of groups) r.t = (r.t as number | null) ?? Number.NaN;
  return { groups: new Map(groups), diagnostics, ...(next === undefined ? {} : { next }) };
}

/**
 * The index's usage rows as `countUsage`'s `stored`: a file's groups and diagnostics when the file has,
 * now, the stamp it was read from (`storedText`), else `undefined` (read it).
 * @param db the index (read-only is enough)
 * @returns the lookup
 */
export function storedUsage(db: Database): (path: string) => Promise<FileUsage | undefined> {
  const stored = storedText(db, USAGE_FILES);
  return async (path) => {
    const text = await stored(path);
    if (text === undefined) return undefined;
    const { groups, diagnostics } = parseUsage(text);
    return { groups, diagnostics };
  };
}
