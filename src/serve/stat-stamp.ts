import { stat } from 'node:fs/promises';

/**
 * What the viewer's caches are keyed by: each file's size and modification time (ms), in the order given; a
 * file that cannot be read stamps as `-` (so its coming back changes the stamp). A stat only, unlike the index's
 * `stampFile` (src/index-db/file-stamp.ts), which hashes bytes too.
 * @param paths the files (a session's transcript, then its subagents')
 * @returns `size:mtimeMs` per file, joined by `|`
 */
export async function statStamp(paths: readonly string[]): Promise<string> {
  const stamps = await Promise.all(
    paths.map((path) =>
      stat(path).then(
        (info) => `${info.size}:${info.mtimeMs}`,
        () => '-',
      ),
    ),
  );
  return stamps.join('|');
}
