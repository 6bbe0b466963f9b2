/**
 * A worker thread of `countUsage`: reads its share of the files and posts their responses back, file
 * by file (for progress), as `[key, response]` pairs the main thread merges, with the file's diagnostics.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { collectResponses } from './count-usage.ts';

const files = workerData as string[];
for (const file of files) {
  const diagnostics: Diagnostic[] = [];
  const groups = await collectResponses([file], { onDiagnostic: (d) => diagnostics.push(d) });
  parentPort?.postMessage({ file, groups: [...groups], diagnostics });
}
