/**
 * A worker thread of `countUsage`: takes files one at a time from the list it shares with the other
 * threads (`nextFile`) and posts each file's responses back (for progress), as `[key, response]` pairs the
 * main thread merges, with the file's diagnostics.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { collectResponses, nextFile } from './count-usage.ts';

const { files, next } = workerData as { files: string[]; next: Int32Array };
for (let i = nextFile(next); i < files.length; i = nextFile(next)) {
  const file = files[i] as string;
  const diagnostics: Diagnostic[] = [];
  const groups = await collectResponses([file], { onDiagnostic: (d) => diagnostics.push(d) });
  parentPort?.postMessage({ file, groups: [...groups], diagnostics });
}
