import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/**
 * How many threads `romp usage` reads files with (`countUsage`'s `workers`): this one, and one more per
 * core left idle besides this thread's. A second thread lowers wall time only on an idle core; on a busy
 * one it costs CPU time and saves none (issue 16, the bench's 404 MB folder at load 9 on 2 cores, 4
 * alternating rounds: 1.52 s CPU with one thread, 2.33 s with two, wall no lower).
 * Idle is judged from what runs now (`runnable`: Linux's count of runnable tasks, this thread among them),
 * where known, with the 1-minute load as a bound: it lags, and a run of `romp usage` (or ccusage) just
 * ended holds it near 1 for a minute on an idle two-core machine, where a second thread does pay, so the
 * load may count one core busy that is idle now (`1 + ceil(cores - load)` threads at most), no more: what
 * runs now, caught at a quiet instant, could misjudge a busy machine. Where nothing says what runs now
 * (not Linux), the 1-minute load alone decides.
 * @param cores the cores this process may use (default `availableParallelism()`)
 * @param load the 1-minute load average (default `loadavg()[0]`)
 * @param runnable tasks runnable now, this thread among them (default `runnableNow()`; null: unknown)
 * @returns threads, from 1 to `cores`
 */
export function usageThreads(
  cores: number = availableParallelism(),
  load: number = loadavg()[0] ?? 0,
  runnable: number | null = runnableNow() ?? null,
): number {
  const threads =
    runnable === null
      ? 1 + Math.round(cores - load - 1)
      : Math.min(cores - Math.max(0, runnable - 1), 1 + Math.ceil(cores - load));
  return Math.max(1, Math.min(cores, threads));
}

/**
 * The tasks runnable now (`/proc/loadavg`'s fourth field, before its slash), the fewest of three reads: a
 * read counts this thread, and may catch a moment's background thread (V8's compiler, GC).
 * @returns the count, or undefined where there is no `/proc/loadavg`
 */
export function runnableNow(): number | undefined {
  let fewest: number | undefined;
  for (let i = 0; i < 3; i++) {
    let text: string;
    try {
      text = readFileSync('/proc/loadavg', 'latin1');
    } catch {
      return undefined;
    }
    const n = Number(/^\S+ \S+ \S+ (\d+)\//.exec(text)?.[1] ?? Number.NaN);
    if (!Number.isInteger(n) || n < 1) return undefined;
    fewest = Math.min(fewest ?? n, n);
  }
  return fewest;
}
