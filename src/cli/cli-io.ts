import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { SkippedEntry } from '../discover/discover-transcripts.ts';
import { NotRegularFile, openRegular } from '../read/open-regular.ts';
import { errorReason } from '../diagnostics/error-reason.ts';

/** A stream the CLI writes to; a terminal also tells its width and that it is one. */
export interface CliOutput {
  write(text: string): unknown;
  /** Writes text whose transcript parts the printer already made safe (`safeText`), so its own colour codes stay. */
  styled?(text: string): unknown;
  columns?: number;
  /** A terminal's height, in lines. */
  rows?: number;
  isTTY?: boolean;
  /**
   * Calls `listener` when the terminal is resized (SIGWINCH: a TTY stream's `resize` event; `columns`
   * and `rows` are new then), for a printer that redraws (`romp watch`).
   * @returns a function that stops the calls
   */
  onResize?(listener: () => void): () => void;
}

/** Where the CLI reads and writes. */
export interface CliIO {
  stdout: CliOutput;
  stderr: CliOutput;
  /** Read by `romp stream` when no file (or `-`) is given. */
  stdin?: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
}

/**
 * Marks a {@link UserError} whichever copy of this module made it: the bundled command line
 * (build/bundle-cli.ts) has its own, the command modules it loads from `dist/` share tsc's.
 */
const USER_ERROR = Symbol.for('romp.UserError');

/** An error for the person at the terminal: printed as one line, exit code 2. */
export class UserError extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    Object.defineProperty(this, USER_ERROR, { value: true });
  }

  /** `instanceof UserError` by the mark: true for a UserError of either copy. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && USER_ERROR in value;
  }
}

export { systemErrorLine } from './system-error-line.ts';

/**
 * Checks, before any work, that each path is a regular file that can be opened for reading (opened
 * non-blocking and closed again: a FIFO or a device is refused, never waited on).
 * @param files the paths given on the command line
 * @throws UserError naming the first path that is missing, unreadable or not a file
 */
export async function checkFiles(files: string[]): Promise<void> {
  for (const file of files) {
    const { handle } = await openRegular(file).catch((error: Error) => {
      throw new UserError(
        error instanceof NotRegularFile
          ? `${file}: not a file (${error.kind})`
          : `${file}: cannot read: ${errorReason(error)}`,
      );
    });
    await handle.close();
  }
}

/**
 * Checks that a session named by `--session` has files in the romp home's registry.
 * @param rompUuid the id given
 * @param home the romp home
 * @param files the files the registry gave for it
 * @throws UserError when it gave none
 */
export function checkRegistered(rompUuid: string, home: string, files: readonly unknown[]): void {
  if (files.length === 0) throw new UserError(`no registered files for session ${rompUuid} in ${home}`);
}

/**
 * Refuses a session some of whose files could not be read: one line per file.
 * @param diagnostics the parse's diagnostics
 * @throws UserError naming each file of a `FILE_UNREADABLE`
 */
export function refuseUnreadable(diagnostics: readonly Diagnostic[]): void {
  const unreadable = diagnostics.filter((d) => d.code === 'FILE_UNREADABLE');
  if (unreadable.length > 0) throw new UserError(unreadable.map((d) => `${d.file}: ${d.message}`).join('\n'));
}

/**
 * Names each file that could not be read on stderr (`romp: FILE: cannot read: …`), after a command
 * has printed what it could.
 * @param unreadable the files with the reason (`FILE_UNREADABLE` diagnostics fit)
 * @param io where to write
 * @returns the exit code: 2 when any file could not be read, else 0
 */
export function reportUnreadable(unreadable: ReadonlyArray<{ file: string; message: string }>, io: CliIO): number {
  for (const { file, message } of unreadable) io.stderr.write(`romp: ${file}: ${message}\n`);
  return unreadable.length > 0 ? 2 : 0;
}

/**
 * Names an entry of the projects folder that was left out (`discoverTranscripts`) on stderr.
 * @param skipped the entry and why
 * @param io where to write
 */
export function reportSkipped(skipped: SkippedEntry, io: CliIO): void {
  io.stderr.write(`romp: skipped ${skipped.path}: ${skipped.reason}\n`);
}
