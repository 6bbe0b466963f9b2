import { listingText } from './listings.ts';
import { readStamped, type StampedRead } from './stamped-rows.ts';
import { usageText } from './usage-files.ts';

/** What `listings` and `usage_files` keep of a file, read by the worker thread that parsed it. */
export interface StampedReads {
  listing?: StampedRead;
  usage?: StampedRead;
}

/**
 * Reads a file's listing (when `romp ls` lists it) and its usage as the refresh would store them (`listingText`,
 * `usageText`, each between two equal stamps: `readStamped`), so that a worker does it beside the parse instead of
 * the writer thread after it (docs/index.md, "Building").
 * @param path the transcript
 * @param listed whether `romp ls` lists it (`listedFile`)
 * @returns the reads that held (a file written meanwhile gives none: the refresh reads it again)
 */
export async function stampedReads(path: string, listed: boolean): Promise<StampedReads> {
  const listing = listed ? await readStamped(path, () => listingText(path)) : undefined;
  const usage = await readStamped(path, () => usageText(path));
  return { ...(listing === undefined ? {} : { listing }), ...(usage === undefined ? {} : { usage }) };
}
