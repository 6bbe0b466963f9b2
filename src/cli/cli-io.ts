import { stat } from 'node:fs/promises';

/** A stream the CLI writes to; a terminal also tells its width and that it is one. */
export interface CliOutput {
  write(text: string): unknown;
  /** Writes text whose transcript parts the printer already made safe (`safeText`), so its own colour codes stay. */
  styled?(text: string): unknown;
  columns?: number;
  isTTY?: boolean;
}

/** Where the CLI reads and writes. */
export interface CliIO {
  stdout: CliOutput;
  stderr: CliOutput;
  /** Read by `romp stream` when no file (or `-`) is given. */
  stdin?: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
}

/** An error for the person at the terminal: printed as one line, exit code 2. */
export class UserError extends Error {}

/**
 * Checks, before any work, that each path is a readable regular file.
 * @param files the paths given on the command line
 * @throws UserError naming the first path that is missing or not a file
 */
export async function checkFiles(files: string[]): Promise<void> {
  for (const file of files) {
    const info = await stat(file).catch((error: Error) => {
      throw new UserError(`${file}: cannot read: ${error.message}`);
    });
    if (!info.isFile()) throw new UserError(`${file}: not a file`);
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
