import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Makes a folder and the folders above it that are missing, as `mkdir -p` does, one level at a time:
 * Node 20's `mkdir(path, {recursive: true})` never returns under a file system that answers ENOENT to
 * every create (`/proc/nope`: a full CPU until killed), where this throws that ENOENT. The loop is
 * bounded by the path's depth. An existing folder is left as it is.
 * @param path the folder (relative to the working directory, or absolute)
 * @throws the system error of the first level that cannot be made (`ENOENT`, `EACCES`, `ENOTDIR`, …)
 */
export function makeDir(path: string): void {
  const missing: string[] = [];
  for (let p = resolve(path); ; p = dirname(p)) {
    if (statSync(p, { throwIfNoEntry: false }) !== undefined) break;
    missing.push(p);
    if (dirname(p) === p) break;
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
