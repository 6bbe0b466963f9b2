/**
 * A worker thread of `countUsage`: started before the files are listed, it is posted them (largest first),
 * takes them one at a time from the list it shares with the other threads (`nextFile`) and posts each file's
 * responses back (for progress) packed (`packResponses`), with the file's diagnostics. It runs from a bundle
 * of its own with V8's code cache (`usage-worker-bundle.cjs`, started by `usage-worker.cjs`; build/bundle-cli.ts)
 * where there is one, else from `dist/` through Node's ES module loader.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { collectResponses, nextFile, packResponses, type PackedResponses } from './count-usage.ts';

/** What a worker posts for each file it read. */
export interface WorkerMessage {
  file: string;
  packed: PackedResponses;
  diagnostics: Diagnostic[];
}

/**
 * Reads the files a counter shared with the other threads hands out, posting each one's responses.
 * @param files the files, in the order they are handed out
 * @param next the shared counter (`nextFile`)
 * @param post receives each file's message and what to transfer with it
 */
export async function workFiles(
  files: readonly string[],
  next: Int32Array,
  post: (message: WorkerMessage, transfer: ArrayBuffer[]) => void,
): Promise<void> {
  for (let i = nextFile(next); i < files.length; i = nextFile(next)) {
    const file = files[i] as string;
    const diagnostics: Diagnostic[] = [];
    const groups = await collectResponses([file], { onDiagnostic: (d) => diagnostics.push(d) });
    const packed = packResponses(groups);
    post({ file, packed, diagnostics }, [packed.numbers.buffer as ArrayBuffer]);
  }
}

const port = parentPort;
if (port !== null && (workerData as { usageWorker?: boolean } | null)?.usageWorker === true) {
  const { next } = workerData as { next: Int32Array };
  port.once('message', (message: { files: string[] }) => {
    void workFiles(message.files, next, (m, transfer) => port.postMessage(m, transfer));
  });
}
