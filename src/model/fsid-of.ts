import { basename } from 'node:path';

/**
 * A transcript's fsid as its name gives it: the file name without `.jsonl` (Claude Code names a session's
 * file `<sessionId>.jsonl`); the session builder makes it unique within a session (`~N`).
 * @param path the transcript's path
 * @returns the fsid
 */
export function fsidOf(path: string): string {
  return basename(path).replace(/\.jsonl$/i, '');
}
