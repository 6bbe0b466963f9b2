/**
 * Makes a closed stdout or stderr the end of the output, not a crash: a reader that stops early
 * (`romp json | head`) closes the pipe, and the next write fails with `EPIPE`; the process then exits
 * with the exit code set so far. Any other stream error is thrown.
 */
export function endOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(process.exitCode ?? 0);
    });
  }
}
