/**
 * A worker thread of `romp index` (`RowPool`): parses the transcripts it is sent, one at a time, with each one's
 * listing and usage (`parsedRows`), and posts them back; the main thread, the one SQLite writer, writes them.
 */
import { parentPort } from 'node:worker_threads';
import type { RowTask } from './row-pool.ts';
import { parsedRows } from './stamped-reads.ts';

parentPort?.on('message', ({ plan, listed }: RowTask) => {
  parsedRows(plan, listed).then(
    (rows) => parentPort?.postMessage({ rows }),
    (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
});
