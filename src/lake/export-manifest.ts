import { createHash } from 'node:crypto';
import { open, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { partitionValue } from './write-part.ts';
import { makeDir } from '../fs/make-dir.ts';

/** What the manifest holds of one source file. */
export interface ManifestFile {
  path: string;
  /** SHA-256 (first 16 hex) of the file's first 64 KiB up to its first newline: the same while the file is only
   * appended to. */
  identity: string;
  /** Bytes of the file when its rows were exported. */
  exported: number;
}

/** The lake's layout version, in every manifest: 2 since `usage_facts` keys are JSON text (1: `message.id` NUL
 * `requestId`; rows of both in one lake are two keys for one response, counted twice by a reader). */
export const LAKE_VERSION = 2;

/** One machine's manifest: `<lake>/_romp/manifest-<machine>.json`. */
export interface Manifest {
  version: typeof LAKE_VERSION;
  machine: string;
  files: ManifestFile[];
}

/**
 * Where a machine's manifest lives: beside the datasets, outside every entity's folder.
 * @param dir the lake's folder
 * @param machine the machine's name
 * @returns its path
 */
export function manifestPath(dir: string, machine: string): string {
  return join(dir, '_romp', `manifest-${partitionValue(machine)}.json`);
}

/**
 * The manifests of a lake (every machine's) that another layout version wrote: an export into it would mix two forms of
 * keys.
 * @param dir the lake's folder
 * @returns each such manifest's file name and version (`null`: none, or not JSON), in name order; `[]` for a new lake
 */
export async function otherVersionManifests(dir: string): Promise<Array<{ name: string; version: unknown }>> {
  let names: string[];
  try {
    names = (await readdir(join(dir, '_romp'))).filter((n) => /^manifest-.*\.json$/.test(n)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const other: Array<{ name: string; version: unknown }> = [];
  for (const name of names) {
    let version: unknown = null;
    try {
      version = (JSON.parse(await readFile(join(dir, '_romp', name), 'utf8')) as Partial<Manifest>).version ?? null;
    } catch {
      // not JSON: not a manifest of this layout
    }
    if (version !== LAKE_VERSION) other.push({ name, version });
  }
  return other;
}

/**
 * Reads a machine's manifest, or an empty one when there is none yet.
 * @param dir the lake's folder
 * @param machine the machine's name
 * @returns the manifest, its files by path
 */
export async function readManifest(dir: string, machine: string): Promise<Map<string, ManifestFile>> {
  const files = new Map<string, ManifestFile>();
  try {
    const parsed = JSON.parse(await readFile(manifestPath(dir, machine), 'utf8')) as Partial<Manifest>;
    for (const f of Array.isArray(parsed.files) ? parsed.files : [])
      if (typeof f?.path === 'string') files.set(f.path, f);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return files;
}

/**
 * Writes a machine's manifest through a temporary file and a rename (never half-written).
 * @param dir the lake's folder
 * @param machine the machine's name
 * @param files its files
 */
export async function writeManifest(
  dir: string,
  machine: string,
  files: ReadonlyMap<string, ManifestFile>,
): Promise<void> {
  const path = manifestPath(dir, machine);
  makeDir(join(dir, '_romp'));
  const manifest: Manifest = {
    version: LAKE_VERSION,
    machine,
    files: [...files.values()].sort((a, b) => a.path.localeCompare(b.path)),
  };
  await writeFile(`${path}.${process.pid}.tmp`, `${JSON.stringify(manifest, null, 1)}\n`);
  await rename(`${path}.${process.pid}.tmp`, path);
}

/**
 * A source file's identity and size now.
 * @param path the file
 * @returns its identity (`ManifestFile.identity`) and size in bytes
 */
export async function fileIdentity(path: string): Promise<{ identity: string; size: number }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await handle.read(head, 0, head.length, 0);
    const newline = head.indexOf(10);
    return {
      identity: createHash('sha256')
        .update(newline < 0 ? head : head.subarray(0, newline))
        .digest('hex')
        .slice(0, 16),
      size,
    };
  } finally {
    await handle.close();
  }
}
