/**
 * A worker thread of `countUsage`: reads its share of the files and posts their responses back, file
 * by file (for progress), as `[key, response]` pairs the main thread merges.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { collectResponses } from './count-usage.ts';

const files = workerData as string[];
for (const file of files) {
  const groups = await collectResponses([file]);
  parentPort?.postMessage({ file, groups: [...groups] });
}
