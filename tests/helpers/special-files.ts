/** Fixtures that are not regular files: FIFOs named like transcripts. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** A FIFO named like a transcript; nothing ever writes to it, so a blocking open would wait forever. */
export function fifo(dir: string, name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}
