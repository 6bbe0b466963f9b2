import { fileListing, type FileListing } from '../discover/list-claude-sessions.ts';
import { statStamp } from './stat-stamp.ts';

/** Reads one file's listing (`fileListing`, or a stand-in in tests). */
export type ReadListing = (path: string) => Promise<FileListing>;

/**
 * The viewer's memory of what each transcript listed (`listClaudeSessions`' `stored` option), so that `GET /` with
 * nothing changed reads no file: a file's listing is read again only when its `statStamp` (device, inode, size,
 * mtime, ctime) differs from the one taken just before it was last read (a write during that read changes the stamp,
 * so it is read again next time). A file that is no longer listed is forgotten at the next listing's `forget`.
 * A flat `agent-*.jsonl` keeps its `parentSessionId`: the whole `FileListing` is kept, not the listed row.
 * @param read the listing reader (default `fileListing`; its errors, `NotTranscript` among them, pass through
 *   uncached)
 * @returns `stored` for `listClaudeSessions`, and `forget(paths)`, which drops every file not among `paths`
 */
export function listingCache(read: ReadListing = fileListing): {
  stored: (path: string) => Promise<FileListing>;
  forget: (listed: Iterable<string>) => void;
} {
  const kept = new Map<string, { stamp: string; listing: FileListing }>();
  return {
    stored: async (path) => {
      const stamp = await statStamp([path]);
      const hit = kept.get(path);
      if (hit?.stamp === stamp) return hit.listing;
      const listing = await read(path);
      kept.set(path, { stamp, listing });
      return listing;
    },
    forget: (listed) => {
      const keep = new Set(listed);
      for (const path of kept.keys()) if (!keep.has(path)) kept.delete(path);
    },
  };
}
