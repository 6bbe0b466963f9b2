/**
 * A worker thread of `romp index` (`RowPool`): parses the transcripts it is sent, one at a time, and posts
 * each one's rows back (`fileRows`); the main thread, the one SQLite writer, writes them.
 */
import { parentPort } from 'node:worker_threads';
import { fileRows, watchFile, type FilePlan } from './file-rows.ts';

parentPort?.on('message', (plan: FilePlan) => {
  fileRows(watchFile(plan.path), plan).then(
    (rows) => parentPort?.postMessage({ rows }),
    (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
});
