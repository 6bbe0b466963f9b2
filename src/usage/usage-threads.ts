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
