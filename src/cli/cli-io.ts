/** Where the CLI reads and writes. */
export interface CliIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Read by `romp stream` when no file (or `-`) is given. */
  stdin?: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
}

/** An error for the person at the terminal: printed as one line, exit code 2. */
export class UserError extends Error {}
