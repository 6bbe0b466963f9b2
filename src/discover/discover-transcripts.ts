import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { errorReason } from '../diagnostics/error-reason.ts';

/** A transcript found in a projects folder. */
export interface DiscoveredFile {
  /** The project folder's name (as listed, a link's own name when the folder is a link). */
  project: string;
  /** The path as listed under the projects folder (links are not resolved in it). */
  path: string;
  /** The names from the project folder down to the file: `["s1.jsonl"]`, `["s1", "subagents", "agent-a.jsonl"]`. */
  parts: string[];
}

/** An entry that looks like a transcript or a folder of them and was left out, with why. */
export interface SkippedEntry {
  path: string;
  /** `not a regular file (a FIFO)`, `link leading out of the projects folder`, `dangling or looping link`, `cannot
   * read: …` (a folder). */
  reason: string;
}

/** What `discoverTranscripts` found. */
export interface Discovery {
  /** Every `*.jsonl` regular file, project by project, in name order. */
  files: DiscoveredFile[];
  skipped: SkippedEntry[];
}

/**
 * Finds every transcript (`*.jsonl`) in Claude Code's projects folder: `<project>/<id>.jsonl`, flat
 * `<project>/agent-*.jsonl` (2.0.x), and any depth below (`<project>/<id>/subagents/**`), the one
 * walk `romp ls` and `romp usage` share. Only regular files are taken, never opened here. A symlink
 * (to a project folder, a folder or a transcript) is followed only when its real path is inside the
 * projects folder's; one leading out of it (a `*.jsonl` link to `/etc/passwd`), a dangling or looping
 * link, a link into a folder that holds it, and a `*.jsonl` that is a FIFO, socket or device are
 * `skipped`, with the reason. A file reached through a link and by its own name is listed under both
 * (usage counts each response once anyway); a folder link is followed once. A folder that cannot be
 * read is `skipped` (`cannot read: permission denied (EACCES)`), one gone since it was listed is not.
 * @param root the projects folder
 * @param project only this project folder (by name)
 * @returns the files and the skipped entries; none when `root` cannot be resolved (`checkProjectsFolder` says why)
 */
export async function discoverTranscripts(root: string, project?: string): Promise<Discovery> {
  const found: Discovery = { files: [], skipped: [] };
  const realRoot = await realpath(root).catch(() => undefined);
  if (realRoot === undefined) return found;
  const inside = (real: string): boolean =>
    real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
  // a folder link is followed once, and never into a folder being walked (a loop)
  const linked = new Set<string>();
  const walk = async (dir: string, ancestors: string[], parts: string[]): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).then(byName, (error: NodeJS.ErrnoException) => {
      // a folder gone since it was listed has nothing to skip; one that cannot be read hides its sessions: say so
      if (error.code !== 'ENOENT') found.skipped.push({ path: dir, reason: `cannot read: ${errorReason(error)}` });
      return [];
    });
    // below the top, `dir` is a `join`'s: a name read from it joins as it is (5,001 `join`s cost more than the walk)
    const top = parts.length === 0;
    const below = parts.slice(1);
    for (const entry of entries) {
      if (top && project !== undefined && entry.name !== project) continue;
      const path = top ? join(dir, entry.name) : `${dir}${sep}${entry.name}`;
      const transcript = entry.name.endsWith('.jsonl');
      let kind: Kind = kindOf(entry);
      if (kind === 'file') {
        if (transcript && !top) found.files.push({ project: parts[0] as string, path, parts: [...below, entry.name] });
        continue;
      }
      let real = join(ancestors.at(-1) as string, entry.name);
      if (entry.isSymbolicLink()) {
        const target = await realpath(path).catch(() => undefined);
        kind = target === undefined ? 'other' : await stat(target).then(kindOf, () => 'other' as Kind);
        const skip =
          target === undefined
            ? 'dangling or looping link'
            : !inside(target)
              ? 'link leading out of the projects folder'
              : kind === 'folder' && ancestors.includes(target)
                ? 'link to a folder that holds it (a loop)'
                : undefined;
        if (skip !== undefined) {
          if (transcript || kind === 'folder' || target === undefined) found.skipped.push({ path, reason: skip });
          continue;
        }
        if (kind === 'folder' && linked.has(target as string)) continue;
        if (kind === 'folder') linked.add(target as string);
        real = target as string;
      }
      if (kind === 'folder') await walk(path, [...ancestors, real], [...parts, entry.name]);
      else if (!transcript || parts.length === 0) continue;
      else if (kind !== 'file') found.skipped.push({ path, reason: `not a regular file (${kind})` });
      else found.files.push({ project: parts[0] as string, path, parts: [...below, entry.name] });
    }
  };
  await walk(root, [realRoot], []);
  return found;
}

type Kind = 'file' | 'folder' | 'a FIFO' | 'a socket' | 'a device' | 'other';

function kindOf(
  entry:
    | Dirent
    | {
        isFile(): boolean;
        isDirectory(): boolean;
        isFIFO(): boolean;
        isSocket(): boolean;
        isCharacterDevice(): boolean;
        isBlockDevice(): boolean;
      },
): Kind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  if (entry.isFIFO()) return 'a FIFO';
  if (entry.isSocket()) return 'a socket';
  return entry.isCharacterDevice() || entry.isBlockDevice() ? 'a device' : 'other';
}

/** The entries of a folder with their types, sorted by name; none when it cannot be read. */
export async function dirents(dir: string): Promise<Dirent[]> {
  try {
    return byName(await readdir(dir, { withFileTypes: true }));
  } catch {
    return [];
  }
}

/** Entries in name order (code units, not the locale's). */
function byName(entries: Dirent[]): Dirent[] {
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
