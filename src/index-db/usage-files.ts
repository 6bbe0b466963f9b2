/**
 * What `romp usage` reads of each transcript, kept in the index (`usage_files`, docs/index.md) with the
 * stamp of the bytes it was read from: the file's response groups before the cross-file merge
 * (`collectFileResponses`) and the diagnostics that reader gave. `romp usage` takes them from there only
 * while the file still has that stamp, and reads any other file the usual way.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { collectFileResponses, mergeResponse, type FileUsage, type Response } from '../usage/count-usage.ts';
import type { Database } from './database.ts';
import type { FileStamp } from './file-stamp.ts';
import { indexedPath, refreshStamped, storedText, type StampedRead, type StampedTable } from './stamped-rows.ts';

const USAGE_FILES: StampedTable = { table: 'usage_files', column: 'usage_json', store: storeUsage };

/** What a read of a file's usage gives (`usageText`): its groups as `[key, response]` pairs, in the order the reader
 * made them, and its diagnostics; `next`, the number of the line after the last one read (none for a UTF-16 file: read
 * whole again); `continued`: the read went on from where the stored part stopped (only the new bytes' groups). */
interface ReadUsage {
  groups: Array<[string, Response]>;
  diagnostics: Diagnostic[];
  next?: number;
  continued?: true;
}

/** `usage_json` of a `usage_files` row: only where the reader goes on (the groups are in `usage_parts`). */
interface UsageRow {
  next?: number;
}

/**
 * Brings `usage_files` in step with the files, in the caller's transaction (`refreshStamped`): every
 * transcript in `files` whose row is missing or was read from another stamp is read again with the
 * byte-level usage reader; a file that could not be read (`FILE_UNREADABLE`) or was written while it
 * was read keeps no row (`romp usage` reads it, and says so). A file that only grew gets one `usage_parts` row more,
 * the groups of its new bytes: the rows before are neither read nor written again.
 * @param db the index, inside a write transaction
 * @param stamps each file's stamp, as the refresh just took it
 * @param ready usage already read (`readStamped`, by the worker that parsed the file)
 * @param changed the files whose `files` rows the caller wrote (`refreshStamped`)
 * @returns how many rows were written
 */
export async function refreshUsageFiles(
  db: Database,
  stamps: ReadonlyMap<string, FileStamp>,
  ready?: ReadonlyMap<string, StampedRead>,
  changed?: ReadonlySet<string>,
): Promise<number> {
  return refreshStamped(db, USAGE_FILES, () => true, stamps, usageText, ready, changed);
}

/**
 * What a read of a file's usage gives: its response groups and diagnostics (`collectFileResponses`) as JSON.
 * @param path the transcript
 * @param prior the stored row's text and the size it was read from, when the file only grew since: the reader goes on
 * from where it stopped, with groups of its own (`continued`: folded into the stored ones by `countUsage`'s merge,
 * they give the same groups as a read of the whole file)
 * @returns the JSON, or `undefined` when the file could not be read (`FILE_UNREADABLE`)
 */
export async function usageText(path: string, prior?: { text: string; size: number }): Promise<string | undefined> {
  const next = prior === undefined ? undefined : (JSON.parse(prior.text) as UsageRow).next;
  const from = next === undefined ? undefined : { start: (prior as { size: number }).size, firstLine: next };
  const groups = new Map<string, Response>();
  const diagnostics: Diagnostic[] = [];
  const after = await collectFileResponses(path, groups, (d) => diagnostics.push(d), from);
  if (diagnostics.some((d) => d.code === 'FILE_UNREADABLE')) return undefined;
  return usageJson(groups, diagnostics, after, from !== undefined);
}

/**
 * A read of a file's usage as `usage_files` takes it (`usageText`'s output), from its groups in the order the reader
 * made them.
 * @param groups responses by de-dup key (`collectFileResponses`, or the parse's own records: `parsedUsage`)
 * @param diagnostics the reader's
 * @param next the number of the line after the last one read (`undefined`: read whole again next time)
 * @param continued the read went on from where the stored part stopped
 * @returns the JSON
 */
export function usageJson(
  groups: ReadonlyMap<string, Response>,
  diagnostics: Diagnostic[],
  next: number | undefined,
  continued = false,
): string {
  return JSON.stringify({
    groups: [...groups],
    diagnostics,
    ...(next === undefined ? {} : { next }),
    ...(continued ? { continued: true } : {}),
  } satisfies ReadUsage);
}

/** Stores a read (`usageText`): a continued one as the file's next `usage_parts` row, any other as its only one.
 * @returns the `usage_json` of its `usage_files` row */
function storeUsage(db: Database, path: string, text: string): string {
  const read = JSON.parse(text) as ReadUsage;
  let part = 0;
  // the part after the last (a count would step over the parts' JSON: 4.5 ms for a 600 MB session's, against a seek)
  if (read.continued === true)
    part = Number(db.all('SELECT max(part) + 1 AS n FROM usage_parts WHERE path = ?', [path])[0]?.['n'] ?? 0);
  else db.run('DELETE FROM usage_parts WHERE path = ?', [path]);
  db.run('INSERT INTO usage_parts (path, part, usage_json) VALUES (?, ?, ?)', [
    path,
    part,
    JSON.stringify({ groups: read.groups, diagnostics: read.diagnostics }),
  ]);
  return JSON.stringify((read.next === undefined ? {} : { next: read.next }) satisfies UsageRow);
}

/**
 * A file's usage as the index holds it, its parts folded (`mergeResponse`, `countUsage`'s rule): the groups and
 * diagnostics one read of the file's bytes gives, and the line the reader goes on from.
 * @param db the index
 * @param path the transcript
 * @param row its `usage_json`
 * @returns the groups (times not known `NaN`), diagnostics and next line
 */
export function storedParts(db: Database, path: string, row: string): FileUsage & UsageRow {
  const groups = new Map<string, Response>();
  const diagnostics: Diagnostic[] = [];
  for (const r of db.all('SELECT usage_json FROM usage_parts WHERE path = ? ORDER BY part', [path])) {
    const part = JSON.parse(String(r['usage_json'])) as ReadUsage;
    for (const [key, response] of part.groups) {
      // JSON has no NaN: a time not known was written as null
      response.t = (response.t as number | null) ?? Number.NaN;
      mergeResponse(groups, key, response);
    }
    diagnostics.push(...part.diagnostics);
  }
  const { next } = JSON.parse(row) as UsageRow;
  return { groups, diagnostics, ...(next === undefined ? {} : { next }) };
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
    const indexed = indexedPath(path);
    const { groups, diagnostics } = storedParts(db, indexed, text);
    if (indexed === path) return { groups, diagnostics };
    // the file named as the reader named it, as a read of it would name it
    for (const response of groups.values()) if (response.file === indexed) response.file = path;
    return { groups, diagnostics: diagnostics.map((d) => (d.file === indexed ? { ...d, file: path } : d)) };
  };
}
