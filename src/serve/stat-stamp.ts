import { stat } from 'node:fs/promises';

/**
 * What the viewer's caches are keyed by: each file's device, inode, size, modification and change times (ms), in the
 * order given, the stat `romp index` trusts a file by (`statMatches` in src/index-db/file-stamp.ts): a file
 * rewritten with its size and mtime set back has another ctime, one replaced by a rename another inode. A file that
 * cannot be read stamps as `-` (so its coming back changes the stamp). A stat only, unlike the index's `stampFile`
 * (src/index-db/file-stamp.ts), which hashes bytes too.
 * @param paths the files (a session's transcript, then its subagents')
 * @returns `dev:ino:size:mtimeMs:ctimeMs` per file, joined by `|`
 */
export async function statStamp(paths: readonly string[]): Promise<string> {
  const stamps = await Promise.all(
    paths.map((path) =>
      stat(path).then(
        (info) => `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`,
        () => '-',
      ),
    ),
  );
  return stamps.join('|');
}
