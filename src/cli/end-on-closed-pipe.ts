import { systemErrorLine } from './system-error-line.ts';

/**
 * Makes a closed stdout or stderr the end of the output, not a crash: a reader that stops early
 * (`romp json | head`) closes the pipe, and the next write fails with `EPIPE`; the process then exits
 * with the exit code set so far. Any other error of the stream (`ENOSPC`: stdout is a file on a full disk, or
 * `/dev/full`; `EIO`) is a system error: one `romp:` line on stderr (when stderr is not the stream that failed) and
 * exit 2, never a stack trace. Node reports such a failed write as the stream's `error` event, not as a throw the
 * command could catch.
 */
export function endOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      const line = systemErrorLine(error);
      if (line === undefined) throw error;
      if (stream !== process.stderr) process.stderr.write(`romp: ${line}\n`);
      process.exit(2);
    });
  }
}
