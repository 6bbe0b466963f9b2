/**
 * A worker thread of `romp index` (`RowPool`): parses the transcripts it is sent, one at a time, reads each one's
 * listing and usage (`stampedReads`), and posts them back with its rows (`fileRows`); the main thread, the one
 * SQLite writer, writes them.
 */
import { parentPort } from 'node:worker_threads';
import { fileRows, watchFile } from './file-rows.ts';
import type { RowTask } from './row-pool.ts';
import { stampedReads } from './stamped-reads.ts';

parentPort?.on('message', ({ plan, listed }: RowTask) => {
  fileRows(watchFile(plan.path), plan)
    .then(async (rows) => ({ ...rows, stamped: await stampedReads(plan.path, listed) }))
    .then(
      (rows) => parentPort?.postMessage({ rows }),
      (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
    );
});
