import { readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { colorOf } from '../model/color-of.ts';
import { makeDir } from '../fs/make-dir.ts';

/** One transcript file of a registered session. */
export interface RegisteredFile {
  fsid: string;
  path: string;
}

/**
 * A registry entry, `sessions/<rompUuid>.json` (seed, "Session → files is a deferred higher-layer
 * concern": tracked explicitly, never inferred). `files[0]` is the anchor; `leafFsid` moves on every resume.
 */
export interface RegistryEntry {
  rompUuid: string;
  name: string;
  dir: string;
  color: string;
  files: RegisteredFile[];
  leafFsid: string;
}

/** What a rompUuid may hold: it names the entry's file, so no path separator and no leading dot. */
const ROMP_UUID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * Whether a string can be a rompUuid of the registry (letters, digits, `.`, `_`, `-`; not starting with
 * `.`; at most 128 characters): it names the entry's file, so it must not reach outside the folder.
 * @param rompUuid the candidate
 * @returns true when it can
 */
export function isRompUuid(rompUuid: string): boolean {
  return ROMP_UUID.test(rompUuid);
}

/**
 * Why a string cannot be a rompUuid (see `isRompUuid`), for an error message.
 * @param rompUuid the refused candidate
 * @returns one sentence naming it and the rule
 */
export function notARompUuid(rompUuid: string): string {
  return `${JSON.stringify(rompUuid)} cannot be a rompUuid: use letters, digits, '.', '_' and '-'`;
}

/**
 * The registry's folder: one `<rompUuid>.json` per session.
 * @param home the romp home folder
 * @returns `<home>/sessions`
 */
export function registryFolder(home: string): string {
  return join(home, 'sessions');
}

const entryPath = (home: string, rompUuid: string): string => join(registryFolder(home), `${rompUuid}.json`);

/**
 * Reads a registry entry. An entry that is there but cannot be read, is not JSON or has not the shape of
 * a `RegistryEntry` (`entryProblem`) is skipped with `BAD_REGISTRY_ENTRY` (warning) naming its file: a
 * damaged home folder never stops a parse.
 * @param home the romp home folder
 * @param rompUuid the session
 * @param onDiagnostic receives `BAD_REGISTRY_ENTRY`
 * @returns the entry, or `undefined` when there is none (or it is skipped)
 */
export async function resolveSession(
  home: string,
  rompUuid: string,
  onDiagnostic: OnDiagnostic = () => {},
): Promise<RegistryEntry | undefined> {
  if (!isRompUuid(rompUuid)) return undefined;
  const path = entryPath(home, rompUuid);
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    onDiagnostic(
      diagnostic('BAD_REGISTRY_ENTRY', `registry entry skipped: ${(error as Error).message}`, { file: path }),
    );
    return undefined;
  }
  const problem = entryProblem(value, rompUuid);
  if (problem === undefined) return value as RegistryEntry;
  onDiagnostic(diagnostic('BAD_REGISTRY_ENTRY', `registry entry skipped: ${problem}`, { file: path }));
  return undefined;
}

/**
 * What is wrong with a registry entry's JSON, if anything: it must be an object with `rompUuid` (the
 * file's name), `name`, `dir`, `color` and `leafFsid` strings, and `files` an array of `{fsid, path}`
 * strings.
 * @param value the parsed file
 * @param rompUuid the name of its file
 * @returns one phrase, or `undefined` for a good entry
 */
export function entryProblem(value: unknown, rompUuid: string): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `not an object (${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value})`;
  const entry = value as Record<string, unknown>;
  for (const field of ['rompUuid', 'name', 'dir', 'color', 'leafFsid']) {
    if (typeof entry[field] !== 'string') return `${field} is not a string`;
  }
  if (entry['rompUuid'] !== rompUuid) return `rompUuid ${JSON.stringify(entry['rompUuid'])} is not the file's name`;
  const files = entry['files'];
  if (!Array.isArray(files)) return 'files is not an array';
  const bad = files.findIndex(
    (f) =>
      typeof (f as { fsid?: unknown } | null)?.fsid !== 'string' || typeof (f as { path?: unknown }).path !== 'string',
  );
  return bad === -1 ? undefined : `files[${bad}] is not {fsid, path}`;
}

/**
 * Every registry entry, sorted by rompUuid; entries that cannot be read are skipped (`BAD_REGISTRY_ENTRY`).
 * @param home the romp home folder
 * @param onDiagnostic receives `BAD_REGISTRY_ENTRY`
 * @returns the entries
 */
export async function listSessions(home: string, onDiagnostic: OnDiagnostic = () => {}): Promise<RegistryEntry[]> {
  let names: string[];
  try {
    names = await readdir(registryFolder(home));
  } catch {
    return [];
  }
  const entries = await Promise.all(
    names
      .filter((n) => n.endsWith('.json'))
      .map((n) => resolveSession(home, n.slice(0, -'.json'.length), onDiagnostic)),
  );
  return entries
    .filter((e): e is RegistryEntry => e !== undefined)
    .sort((a, b) => a.rompUuid.localeCompare(b.rompUuid));
}

/** A registry write that failed (unwritable, full disk, a read-only or damaged entry): its message is one line naming
 * the file. */
export class RegistryError extends Error {}

/** What `registerSession` needs: the identity and the files; the rest has defaults. */
export interface NewSession {
  rompUuid: string;
  files: RegisteredFile[];
  name?: string;
  dir?: string;
  color?: string;
}

/**
 * Creates or replaces a registry entry. `leafFsid` is the last file's; `color` defaults to one derived
 * from the rompUuid; files that share a name get the fsids `<name>~N`, as `collectFiles` names them.
 * Atomic (temp file + rename) under the entry's lock; a damaged entry is replaced, a read-only one is not.
 * @throws RegistryError when the entry is read-only (never replaced silently), or cannot be written
 * @param home the romp home folder
 * @param session identity, files, and optional name, dir, color
 * @returns the entry written
 * @throws RangeError for a rompUuid that `isRompUuid` refuses
 */
export async function registerSession(home: string, session: NewSession): Promise<RegistryEntry> {
  const files: RegisteredFile[] = [];
  for (const f of session.files) files.push({ ...f, fsid: unusedFsid(f.fsid, files) });
  return update(
    home,
    session.rompUuid,
    () => ({
      rompUuid: session.rompUuid,
      name: session.name ?? '',
      dir: session.dir ?? '',
      color: session.color ?? colorOf(session.rompUuid),
      files,
      leafFsid: files.at(-1)?.fsid ?? '',
    }),
    false,
  );
}

/** `fsid`, or `fsid~2`, `fsid~3`… when a file of `files` has it already. */
function unusedFsid(fsid: string, files: RegisteredFile[]): string {
  let unique = fsid;
  for (let n = 2; files.some((f) => f.fsid === unique); n++) unique = `${fsid}~${n}`;
  return unique;
}

/**
 * Records a resume: adds the file (unless that path is there already) and moves `leafFsid` to it. A
 * different file with a name already registered gets the fsid `<name>~N`, as `collectFiles` names it.
 * @throws RangeError for a rompUuid that `isRompUuid` refuses
 * Safe under concurrent writers: the read-modify-write happens under a lock on the entry, so no
 * update is lost. Creates the entry when there is none.
 * @throws RegistryError when the entry is read-only or damaged (never replaced silently), or cannot be written
 * @param home the romp home folder
 * @param rompUuid the session
 * @param fsid the new transcript's Claude session id
 * @param path its path
 * @returns the entry written
 */
export async function recordResume(home: string, rompUuid: string, fsid: string, path: string): Promise<RegistryEntry> {
  return update(home, rompUuid, (entry) => {
    const base = entry ?? { rompUuid, name: '', dir: '', color: colorOf(rompUuid), files: [], leafFsid: '' };
    const known = base.files.find((f) => f.path === path);
    if (known !== undefined) return { ...base, leafFsid: known.fsid };
    const unique = unusedFsid(fsid, base.files);
    return { ...base, files: [...base.files, { fsid: unique, path }], leafFsid: unique };
  });
}

/** The locked read-modify-write of an entry; `extending` (resume): a damaged entry is refused, not replaced by a new
 * one. */
async function update(
  home: string,
  rompUuid: string,
  change: (entry: RegistryEntry | undefined) => RegistryEntry,
  extending = true,
): Promise<RegistryEntry> {
  if (!isRompUuid(rompUuid)) throw new RangeError(notARompUuid(rompUuid));
  const dir = registryFolder(home);
  const path = entryPath(home, rompUuid);
  const failed = (error: unknown): RegistryError =>
    new RegistryError(`cannot write registry entry ${path}: ${(error as Error).message}`);
  try {
    makeDir(dir);
  } catch (error) {
    throw failed(error);
  }
  // loaded here, by the one writer: readers of the registry (every parse with a romp home) never need it
  const { default: lockfile } = await import('proper-lockfile');
  const release = await lockfile
    .lock(dir, {
      lockfilePath: `${path}.lock`,
      retries: { retries: 200, minTimeout: 5, maxTimeout: 50, randomize: true },
      stale: 10_000,
    })
    .catch((error: unknown) => {
      throw failed(error);
    });
  try {
    let damaged: string | undefined;
    const entry = await resolveSession(home, rompUuid, (d) => (damaged = d.message));
    if (damaged !== undefined && extending)
      throw new RegistryError(
        `${path}: ${damaged.replace('registry entry skipped: ', '')}; not replaced (fix or remove it)`,
      );
    // the rename would replace a file its owner made read-only (even for root): refuse instead
    const mode =
      entry !== undefined || damaged !== undefined ? (await stat(path).catch(() => undefined))?.mode : undefined;
    if (mode !== undefined && (mode & 0o200) === 0) throw new RegistryError(`${path} is read-only; not replaced`);
    const next = change(entry);
    const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(next, null, 2)}\n`);
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw failed(error);
    }
    return next;
  } finally {
    await release();
  }
}
