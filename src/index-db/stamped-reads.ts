import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { fileRows, watchFile, type FilePlan, type FileRows, type WatchedFile } from './file-rows.ts';
import { listingText } from './listings.ts';
import { stampFile } from './file-stamp.ts';
import { readStamped, stampsEqual, type StampedRead } from './stamped-rows.ts';
import { usageJson, usageText } from './usage-files.ts';

/** What `listings` and `usage_files` keep of a file, read beside its parse. */
export interface StampedReads {
  listing?: StampedRead;
  usage?: StampedRead;
}

/**
 * Parses a whole transcript into its rows (`fileRows`, a new `watchFile`) and reads what `listings` and `usage_files`
 * keep of it, so the writer stores them as they are (docs/index.md, "Building"): the listing when `romp ls` lists the
 * file (`listingText`), the usage from the parse's own records (`parsedUsage`), both kept when the file had the same
 * stamp after them as before the parse; else the usage read by the byte-level reader between two stamps of its own
 * (`readStamped`, `usageText`).
 * @param plan as for `fileRows`
 * @param listed whether `romp ls` lists the file (`listedFile`)
 * @returns its rows, with `stamped`: the reads that held (a file written meanwhile gives none: the refresh reads it
 * again)
 */
export async function parsedRows(plan: FilePlan, listed: boolean): Promise<FileRows> {
  const { path } = plan;
  const badUsage: Diagnostic[] = [];
  const entry = watchFile(path, (d) => badUsage.push(d));
  const before = await stampFile(path);
  const rows = await fileRows(entry, plan);
  if (before === undefined) return { ...rows, stamped: {} };
  const listingJson = listed ? await listingText(path) : undefined;
  const derived = parsedUsage(entry, badUsage, before.size);
  const after = await stampFile(path);
  if (after === undefined || !stampsEqual(before, after)) return { ...rows, stamped: {} };
  const usage =
    derived === undefined ? await readStamped(path, () => usageText(path)) : { stamp: before, text: derived };
  return {
    ...rows,
    stamped: {
      ...(listingJson === undefined ? {} : { listing: { stamp: before, text: listingJson } }),
      ...(usage === undefined ? {} : { usage }),
    },
  };
}

/**
 * What `usageText` gives of a file, taken from its parse instead of a second read: the parse's response groups
 * (`WatchedFile.usage`, by `takeResponse` over the same records in the same order), their `BAD_USAGE`, and the line
 * after the last (`SessionWatcher.linesRead`). Only where the two readers cannot differ: the parse's bytes gave no
 * diagnostic (a broken, glued, over-long or too-deep line, a number replaced, UTF-16, an unreadable file: the
 * byte-level reader diagnoses and decodes these by rules of its own), it read the `size` bytes stamped, and they end
 * with a newline (the parse holds a last line without one back; the byte-level reader reads it).
 * @param entry the file's state after its first `fileRows` (a new `watchFile`)
 * @param badUsage the `BAD_USAGE` of its records, in the order given
 * @param size the file's size when it was stamped, before the parse
 * @returns `usageText`'s JSON, or `undefined` to read the file for it
 */
export function parsedUsage(entry: WatchedFile, badUsage: Diagnostic[], size: number): string | undefined {
  const read = entry.watcher.linesRead(entry.path);
  if (entry.diagnostics.length > 0 || read === undefined || read.bytes !== size || read.pending !== 0) return undefined;
  return usageJson(entry.usage, badUsage, read.lines + 1);
}
