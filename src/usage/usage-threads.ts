import { availableParallelism, loadavg } from 'node:os';

/**
 * How many threads `romp usage` reads files with (`countUsage`'s `workers`): this one, and one more per
 * core left idle by the machine's load (the 1-minute load average) besides this thread's. A second thread
 * lowers wall time only on an idle core; on a busy one it costs CPU time and saves none (issue 16, the
 * bench's 423 MB folder at load 10-15 on 2 cores: 2.3-2.4 s CPU time with two threads, 1.6-1.7 s with one,
 * wall time no lower).
 * @param cores the cores this process may use (default `availableParallelism()`)
 * @param load the 1-minute load average (default `loadavg()[0]`)
 * @returns threads, from 1 to `cores`
 */
export function usageThreads(cores: number = availableParallelism(), load: number = loadavg()[0] ?? 0): number {
  return Math.max(1, Math.min(cores, 1 + Math.round(cores - load - 1)));
}

/**
 * Bytes to read per thread of `romp usage` (`countUsage`'s `bytesPerWorker`). Each thread is a V8 isolate of
 * its own that compiles and optimises the reader anew, on the cores the others read on: a second thread pays
 * only past about 600 MB (issue 16, the bench's real-shaped folders on 2 idle cores, one thread against two,
 * wall and CPU time: 404 MB 0.37 / 0.45 s against 0.39 / 0.66 s; 606 MB 0.48 / 0.55 s against 0.45 / 0.78 s;
 * 808 MB 0.63 / 0.71 s against 0.56 / 0.99 s; 1.6 GB 1.08 / 1.17 s against 0.82 / 1.50 s).
 */
export const USAGE_BYTES_PER_THREAD = 400_000_000;

/**
 * How many threads read `bytes`: one per `perThread` bytes, rounded, from 1 to `most`.
 * @param bytes the bytes to read
 * @param most the threads the machine leaves (`usageThreads`)
 * @param perThread bytes per thread (`USAGE_BYTES_PER_THREAD`); 0: `most`, whatever the bytes
 * @returns threads, from 1 to `most`
 */
export function threadsForBytes(bytes: number, most: number, perThread: number): number {
  if (perThread <= 0) return Math.max(1, most);
  return Math.max(1, Math.min(most, Math.round(bytes / perThread)));
}
