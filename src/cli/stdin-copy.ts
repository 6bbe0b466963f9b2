import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** The file name of diagnostics read from standard input (`romp stream`, and `-`'s copy: `shownPath`). */
export const STDIN = '<stdin>';

/** The prefix of the temporary folder that holds a copy of standard input (`-`). */
const PREFIX = 'romp-stdin-';
/** The copy's name in it. */
const NAME = 'stdin.jsonl';

/**
 * A fresh path for the copy of standard input that `-` reads (`resolveTargets`): `stdin.jsonl` in a new
 * `romp-stdin-*` folder of the system's temp folder, which the caller removes.
 * @returns the folder (to remove) and the copy's path
 */
export async function stdinCopyPath(): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), PREFIX));
  return { dir, path: join(dir, NAME) };
}

/**
 * A transcript path as a person is shown it: the copy of standard input (`stdinCopyPath`), removed once the
 * command ends and never typed by anyone, is `<stdin>` (as `romp stream` names its input); any other path
 * is itself.
 * @param path a transcript path
 * @returns `<stdin>` or the path
 */
export function shownPath(path: string): string {
  const dir = dirname(path);
  return basename(path) === NAME && basename(dir).startsWith(PREFIX) && dirname(dir) === tmpdir() ? STDIN : path;
}

/**
 * A diagnostic with its file as a person is shown it (`shownPath`): `<stdin>` for the copy of `-`.
 * @param d a diagnostic
 * @returns the same diagnostic, its `file` shown
 */
export function shownDiagnostic(d: Diagnostic): Diagnostic {
  return d.file === undefined ? d : { ...d, file: shownPath(d.file) };
}
